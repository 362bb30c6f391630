"""The orders service's own work on a turn, in this process, against the rules core's resolve.

The orders service does two things per campaign-turn besides taking orders: its deadline
watcher closes the turn (``campaigns.close_due_turns`` in one transaction, as its periodic
task runs it), and its ``orders-turns`` stage opens the next turn once the reports are out
(``handle_reports_ready`` inside the idempotent consumer's transaction: claim, handler,
commit).  N fresh campaigns are made with a schedule (a deadline each, one second apart, so
that each watcher pass closes one campaign as in a real deployment), their starting
positions reported and turn 1 opened, none of it timed; then every campaign's turn 1 is
closed by the watcher (timed), carried through the worker stages in this process
(benchmarks/bench_stages.py, not timed here) and its turn 2 opened (timed).  The CPU time
(not wall time) of close + open per campaign-turn is set beside the core's resolve of the
same turns, measured afterwards on the stored worlds (benchmarks/scale_report.py).  The
worker stages' CPU is kept too, for the goals (benchmarks/bench_goals.py).

Their log lines go, as the services' do, as JSON to a file (a terminal's rendering would
be counted).  ``--before DIR`` measures the same turns a second time with the services of
another checkout (``git archive <commit> | tar -x -C DIR``), each in a fresh process, side
by side in one run.

    python -m benchmarks orders_turn --scenarios training,grand1805 --campaigns 20 --before DIR
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr
from dataclasses import asdict, dataclass
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from sqlalchemy import Engine

from benchmarks.bench_stages import AT, stage_seconds
from benchmarks.scale_report import core_seconds
from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.intel.stage import handle_turn_resolved
from services.orders import campaigns
from services.orders.main import _open_next_turn
from services.platform import bus
from services.platform.bus.consumer import IdempotentConsumer
from services.platform.bus.outbox import events_added, forget_added
from services.platform.runtime import heap
from services.platform.store.db import make_engine, migrate
from services.platform.telemetry.logging import configure_logging
from services.reports.stage import handle_intel_ready
from tests.support.passwords import EveryPlayer

TURN_SECONDS = 86400  # a daily schedule: opening a turn sets its deadline (services/orders/schedule.py)


def options(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks orders_turn", description=__doc__.split("\n\n")[0])
    p.add_argument("--scenarios", default="training,grand1805")
    p.add_argument("--campaigns", type=int, default=10, help="campaigns of each scenario")
    p.add_argument(
        "--database",
        default="",
        help='a database URL, or "postgresql" for a new one (default: a new SQLite file)',
    )
    p.add_argument("--before", default="", help="another checkout's services to measure the same way")
    return p.parse_args(argv or [])


def _deadline(i: int) -> timedelta:
    return timedelta(seconds=i + 1)


def _open_campaigns(engine: Engine, scenario: str, n: int) -> list[str]:
    """N campaigns with turn 1 open, each with its own deadline, as the services leave them."""
    loaded = load_scenario(scenario)
    names = [f"ot-{uuid.uuid4().hex[:8]}" for _ in range(n)]
    for i, name in enumerate(names):
        with engine.begin() as conn:
            campaigns.create_campaign(
                conn,
                name,
                loaded,
                scenario,
                seed=3,
                turns=3,
                first_deadline=AT + _deadline(i),
                turn_seconds=TURN_SECONDS,
                password_hashes=EveryPlayer(),
            )
            resolved = events_pb2.TurnResolved(campaign_id=name, turn=0).SerializeToString()
            handle_turn_resolved(conn, resolved, {})
            handle_intel_ready(conn, events_pb2.IntelReady(campaign_id=name, turn=0).SerializeToString(), {})
            ready = events_pb2.ReportsReady(campaign_id=name, turn=0).SerializeToString()
            campaigns.handle_reports_ready(conn, ready, {}, at=AT)
    return names


@dataclass(frozen=True)
class Turns:
    """CPU seconds spent on turn 1 of ``campaigns`` campaigns, in this process."""

    campaigns: int
    close: float  # every campaign's turn 1 closed by the deadline watcher
    open: float  # every campaign's turn 2 opened by the orders-turns stage
    stages: dict[str, float]  # each worker stage's handler (bench_stages.stage_seconds)
    core: dict[str, float]  # the rules core's resolve and knowledge (scale_report.core_seconds)

    def ms(self, seconds: float) -> float:
        """Milliseconds per campaign-turn."""
        return 1000 * seconds / self.campaigns

    @property
    def orders_ratio(self) -> float:
        return (self.close + self.open) / self.core["resolver"]

    def stage_ratio(self, stage: str) -> float:
        """A worker stage's CPU over its core's (the reports stage's over intel's core)."""
        return self.stages[stage] / self.core["intel" if stage == "reports" else stage]


def close_each(engine: Engine, names: list[str]) -> float:
    """CPU seconds of the deadline watcher's passes, one campaign falling due in each."""
    spent = 0.0
    for i, name in enumerate(names):
        t0 = time.process_time()
        with engine.begin() as conn:  # services/platform/runtime/rpc.py in_transaction
            forget_added(conn)
            closed = campaigns.close_due_turns(conn, AT + _deadline(i))
            events_added(conn)
        spent += time.process_time() - t0
        if closed != [name]:
            raise RuntimeError(f"the watcher closed {closed}, not [{name}]")
    return spent


def open_each(engine: Engine, names: list[str]) -> float:
    """CPU seconds of the orders-turns stage's transactions opening turn 2 of every campaign."""
    consumer = IdempotentConsumer(engine, None, "orders-turns", bus.REPORTS_READY, _open_next_turn)  # type: ignore[arg-type]
    t0 = time.process_time()
    for name in names:
        ready = events_pb2.ReportsReady(campaign_id=name, turn=1).SerializeToString()
        consumer._transaction(ready, {}, f"{name}:1:orders-turns")
    return time.process_time() - t0


@contextmanager
def service_logs(path: Path) -> Iterator[None]:
    """This process's log lines as a service writes them (JSON, info) into ``path``, and the
    logging as it was afterwards."""
    import logging

    import structlog

    saved, root = structlog.get_config(), logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with path.open("a") as out, redirect_stderr(out):
        configure_logging("bench", SimpleNamespace(log_level="info", log_format="json"))
        try:
            yield
        finally:
            structlog.configure(**saved)
            root.handlers[:] = handlers
            root.setLevel(level)


def measure(url: str, scenario: str, n: int) -> Turns:
    """The orders service's and the worker stages' CPU for N campaigns' turn, and the core's
    for the same turns."""
    migrate(url)
    engine = make_engine(url)
    try:
        names = _open_campaigns(engine, scenario, n)
        heap.settle()  # as the orders process does once it has loaded
        close = close_each(engine, names)
        stages = stage_seconds(engine, names)
        opened = open_each(engine, names)
    finally:
        engine.dispose()
    return Turns(n, close, opened, stages, core_seconds(url, names))


def in_checkout(code: str, scenario: str, n: int, url: str) -> Turns:
    """``measure`` in a fresh process with another checkout's code (``code``), or this one's ("")."""
    here = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(Path(code or here).resolve())}
    # run as a script, so that the other checkout's benchmarks package (without this module) is the
    # one imported, with its services
    argv = [sys.executable, __file__, scenario, str(n), url]
    got = subprocess.run(argv, env=env, cwd=code or here, capture_output=True, text=True, check=True)
    return Turns(**json.loads(got.stdout.strip().splitlines()[-1]))


def row(label: str, scenario: str, t: Turns) -> tuple[str, str]:
    return (
        f"{scenario}{label}: orders service CPU ms/campaign-turn (close + open)",
        f"{t.ms(t.close + t.open):.1f} (close {t.ms(t.close):.1f}, open {t.ms(t.open):.1f};"
        f" core's resolve {t.ms(t.core['resolver']):.1f} ms, {t.orders_ratio:.2f}x; {t.campaigns} campaigns)",
    )


@contextmanager
def _database(wanted: str, path: Path) -> Iterator[str]:
    """A new database: ``wanted`` "postgresql" for one on the PostgreSQL server, else the URL
    given, else a new SQLite file at ``path``."""
    if wanted != "postgresql":
        yield wanted or f"sqlite:///{path}"
        return
    from benchmarks.bench_platform import _postgres

    with _postgres() as url:
        if url is None:
            raise SystemExit("--database postgresql: no PostgreSQL server answers")
        yield url


def run(argv: list[str] | None = None) -> list[tuple[str, str]]:
    args = options(argv)
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in args.scenarios.split(","):
            runs = ((", this tree", ""), (", before", args.before)) if args.before else (("", None),)
            for i, (label, code) in enumerate(runs):
                with _database(args.database, Path(tmp) / f"{scenario}-{i}.db") as url:
                    if code is None:
                        with service_logs(Path(tmp) / "bench.log"):
                            rows.append(row(label, scenario, measure(url, scenario, args.campaigns)))
                    else:
                        rows.append(row(label, scenario, in_checkout(code, scenario, args.campaigns, url)))
    return rows


if __name__ == "__main__":  # one measure for in_checkout: scenario, campaigns, database URL
    with tempfile.TemporaryDirectory() as logs, service_logs(Path(logs) / "bench.log"):
        turns = measure(sys.argv[3], sys.argv[1], int(sys.argv[2]))
    print(json.dumps(asdict(turns)))
