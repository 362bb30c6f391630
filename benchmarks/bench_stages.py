"""Each worker stage's handler in this process, against the rules core's own time.

N fresh campaigns are made, their starting positions reported (turn 0, by the
same handlers, in this process as a worker makes them) and their first turn
closed, none of it timed; then every stage's
handler runs over all of them as its worker runs it: the messages in fetches of
``--batch`` (the workers' PATE_WORKER_BATCH, 8), each fetch handed to the
idempotent consumer as the worker hands it (the consumer's span and log context,
the claim, the handler, the commit; a groupable stage's fetch in one transaction:
services/platform/bus/group.py), and its CPU time (not wall
time) is set beside the core's for the same turns, measured here afterwards on
the stored worlds (benchmarks/scale_report.py).  What the worker process adds
around the consumer (the bus, the relay, acks, idle loops) is measured by the scale
benchmark, not here.

    python -m benchmarks stages --scenarios training,grand1805 --campaigns 30
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Engine

from benchmarks.scale_report import core_seconds
from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.intel.stage import handle_turn_resolved
from services.orders import campaigns
from services.platform import bus
from services.platform.bus.consumer import Handler, IdempotentConsumer
from services.platform.config import DEFAULT_WORKER_BATCH
from services.platform.runtime import heap
from services.platform.store import repository as repo
from services.platform.store.db import make_engine, migrate
from services.reports.stage import handle_intel_ready
from services.resolver.stage import handle_turn_closed
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 1, 1, tzinfo=UTC)
STAGES: tuple[tuple[str, Handler, Callable[[str, int], bytes]], ...] = (
    (
        "resolver",
        handle_turn_closed,
        lambda c, t: events_pb2.TurnClosed(campaign_id=c, turn=t).SerializeToString(),
    ),
    (
        "intel",
        handle_turn_resolved,
        lambda c, t: events_pb2.TurnResolved(campaign_id=c, turn=t).SerializeToString(),
    ),
    (
        "reports",
        handle_intel_ready,
        lambda c, t: events_pb2.IntelReady(campaign_id=c, turn=t).SerializeToString(),
    ),
)


def options(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks stages", description=__doc__.split("\n\n")[0])
    p.add_argument("--scenarios", default="training,grand1805")
    p.add_argument("--campaigns", type=int, default=10, help="campaigns of each scenario")
    p.add_argument("--database", default="", help="a database URL (default: a new SQLite file)")
    p.add_argument("--batch", type=int, default=DEFAULT_WORKER_BATCH, help="messages a fetch hands over")
    p.add_argument(
        "--turn",
        type=int,
        default=1,
        help="the turn measured; the turns before it go through the same stages in this process, "
        "unmeasured, as one worker a stage carries a campaign on (1: the first, whose worlds no "
        "worker has held)",
    )
    return p.parse_args(argv or [])


def _closed_campaigns(engine: Engine, scenario: str, n: int) -> list[str]:
    loaded = load_scenario(scenario)
    names = [f"st-{uuid.uuid4().hex[:8]}" for _ in range(n)]
    for name in names:
        with engine.begin() as conn:
            campaigns.create_campaign(
                conn,
                name,
                loaded,
                scenario,
                seed=3,
                turns=3,
                first_deadline=None,
                turn_seconds=0,
                password_hashes=EveryPlayer(),
            )
            # the starting positions' knowledge and reports (turn 0), as the workers make them
            # when a campaign is created
            opening = events_pb2.TurnResolved(campaign_id=name, turn=0).SerializeToString()
            handle_turn_resolved(conn, opening, {})
            handle_intel_ready(conn, events_pb2.IntelReady(campaign_id=name, turn=0).SerializeToString(), {})
            repo.set_status(conn, name, turn=1, expect=("STARTING",), status="OPEN")
            campaigns.close_turn(conn, name, 1, "bench", AT)
    return names


def _fetched(stage: str, name: str, turn: int, seq: int) -> Any:
    """One message as a fetch hands it to the consumer: its subject, data, headers and metadata."""
    headers = {bus.MSG_ID_HEADER: bus.msg_id(name, turn, stage), **bus.event_headers(name, turn)}
    meta = SimpleNamespace(stream=bus.STREAM, sequence=SimpleNamespace(stream=seq), num_delivered=1)
    data = dict((s, m) for s, _, m in STAGES)[stage](name, turn)
    return SimpleNamespace(subject=bus.subject(stage, name), data=data, headers=headers, metadata=meta)


def stage_seconds(
    engine: Engine, names: list[str], batch: int = DEFAULT_WORKER_BATCH, turn: int = 1
) -> dict[str, float]:
    """CPU seconds of each stage's consumer over ``turn`` of every campaign, ``batch`` at a fetch."""
    out: dict[str, float] = {}
    for stage, handler, _ in STAGES:
        consumer = IdempotentConsumer(engine, None, stage, f"pate.{stage}.*", handler, batch=batch)  # type: ignore[arg-type]
        msgs = [_fetched(stage, name, turn, i) for i, name in enumerate(names)]
        t0 = time.process_time()
        for i in range(0, len(msgs), batch):
            outcomes = consumer._work_through(msgs[i : i + batch], None)
            failed = [o for _, o in outcomes if isinstance(o, Exception)]
            if failed:
                raise RuntimeError(f"{stage}: {failed[0]!r}")
        out[stage] = time.process_time() - t0
    return out


def _next_turn(engine: Engine, names: list[str], turn: int) -> None:
    """Turn ``turn`` of every campaign through the stages (unmeasured), the next opened and closed."""
    stage_seconds(engine, names, turn=turn)
    for name in names:
        with engine.begin() as conn:
            done = events_pb2.ReportsReady(campaign_id=name, turn=turn).SerializeToString()
            campaigns.handle_reports_ready(conn, done, {}, at=AT)
            campaigns.close_turn(conn, name, turn + 1, "bench", AT)


def rows_for(
    scenario: str, n: int, url: str, batch: int = DEFAULT_WORKER_BATCH, turn: int = 1
) -> list[tuple[str, str]]:
    migrate(url)
    engine = make_engine(url)
    try:
        names = _closed_campaigns(engine, scenario, n)
        heap.settle()  # as a worker process does once it has loaded
        for earlier in range(1, turn):
            _next_turn(engine, names, earlier)
        handlers = stage_seconds(engine, names, batch, turn)
    finally:
        engine.dispose()
    core = core_seconds(url, names, turn)
    rows = []
    for stage, _, _ in STAGES:
        ms = 1000 * handlers[stage] / n
        core_ms = 1000 * core["intel" if stage == "reports" else stage] / n
        whose = "intel's core" if stage == "reports" else "core"
        rows.append(
            (
                f"{scenario}, turn {turn}: {stage} handler CPU ms/campaign-turn",
                f"{ms:.1f} ({whose} {core_ms:.1f} ms, {ms / core_ms:.2f}x; {n} campaigns)",
            )
        )
    return rows


def run(argv: list[str] | None = None) -> list[tuple[str, str]]:
    args = options(argv)
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in args.scenarios.split(","):
            url = args.database or f"sqlite:///{Path(tmp) / scenario}.db"
            rows += rows_for(scenario, args.campaigns, url, args.batch, args.turn)
    return rows
