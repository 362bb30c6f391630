"""Every goal of docs/operations.md "The cost of a turn against its goals", measured in one run
at a modest size with the other benchmark modules' own functions, and one table at the end:
measure | goal | measured | met?.  A row that cannot be measured here (no PostgreSQL, no root
for CPU cgroups) says why in one line; so does a row whose benchmark failed, and the others
still run.  The machine's load average is printed at the start and the end: on a loaded
machine the wall-time rows (intake, latencies, capped workers) read worse than they are.

    python -m benchmarks goals [--campaigns 10] [--capped-campaigns 150] [--skip capped,intake]

Seven minutes on the 2-core development machine with other work on it (load average 6 to 11),
six of them the capped workers (three clusters, each creating its 150 campaigns first).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from benchmarks import (
    bench_close_open,
    bench_orders_turn,
    bench_platform,
    bench_scale,
    bench_solo,
    bench_web,
    cpucap,
)
from services.platform.bus.natsserver import NatsServer

ROWS = ("stages", "intake", "capped", "close_open", "solo", "desk")


@dataclass(frozen=True)
class Goal:
    measure: str
    goal: str
    measured: str
    met: bool | None  # None: not measured (``measured`` says why)


def options(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks goals", description=__doc__.split("\n\n")[0])
    p.add_argument("--campaigns", type=int, default=10, help="campaigns per scenario, in-process rows")
    p.add_argument("--capped-campaigns", type=int, default=150, help="campaigns per capped setting")
    p.add_argument("--turns", type=int, default=6, help="turns of the latency rows")
    p.add_argument("--skip", default="", help=f"rows left out, comma-separated: {', '.join(ROWS)}")
    return p.parse_args(argv or [])


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _pq(values: list[float]) -> tuple[float, float]:
    """(p50, p95) of at least two values."""
    return statistics.median(values), statistics.quantiles(values, n=20, method="inclusive")[18]


@contextmanager
def _database(tmp: Path, name: str, postgres: bool = True) -> Iterator[tuple[str, str]]:
    """(a fresh PostgreSQL database, "PostgreSQL") when one is wanted and a server answers,
    else (a new SQLite file, "SQLite")."""
    if not postgres:
        yield f"sqlite:///{tmp / name}.db", "SQLite"
        return
    with bench_platform._postgres() as pg:
        yield (pg, "PostgreSQL") if pg else (f"sqlite:///{tmp / name}.db", "SQLite")


def stage_goals(args: argparse.Namespace, tmp: Path) -> list[Goal]:
    """The worker stages' and the orders service's CPU per campaign-turn against the core's,
    in this process (benchmarks/bench_orders_turn.py, which times the stages with
    bench_stages.stage_seconds), for training and grand1805."""
    measured: dict[str, bench_orders_turn.Turns] = {}
    dbs = set()
    for scenario in ("training", "grand1805"):
        with _database(tmp, scenario) as (url, db), bench_orders_turn.service_logs(tmp / "stages.log"):
            measured[scenario] = bench_orders_turn.measure(url, scenario, args.campaigns)
        dbs.add(db)
    n = f"{args.campaigns} campaigns each, {'/'.join(sorted(dbs))}"
    rows = [
        ("resolver CPU / the core's resolve, per campaign-turn", "<= 1.5", "resolver"),
        ("intel CPU / the core's knowledge, per campaign-turn", "<= 1.5", "intel"),
        ("reports CPU / intel's core time, per campaign-turn", "<= 1.0", "reports"),
    ]
    out = []
    for label, goal, stage in rows:
        text = ", ".join(
            f"{s} {t.stage_ratio(stage):.2f} ({t.ms(t.stages[stage]):.1f} ms)" for s, t in measured.items()
        )
        worst = max(t.stage_ratio(stage) for t in measured.values())
        out.append(Goal(label, goal, f"{text}; {n}", worst <= float(goal.split()[1])))
    text = ", ".join(
        f"{s} {t.orders_ratio:.2f} ({t.ms(t.close + t.open):.1f} ms)" for s, t in measured.items()
    )
    label = "orders service CPU (close + open) / the core's resolve"
    worst = max(t.orders_ratio for t in measured.values())
    return [*out, Goal(label, "<= 1.0", f"{text}; {n}", worst <= 1.0)]


def intake_goals(args: argparse.Namespace, tmp: Path) -> list[Goal]:
    """Orders accepted end to end against a bare grpcio echo server (benchmarks/bench_platform.py),
    one order a request from 8 clients, on SQLite and PostgreSQL."""
    echo, _, _ = bench_platform.echo_rate()
    out = []
    with NatsServer(data_dir=tmp / "nats-intake") as nats:
        for db in ("SQLite", "PostgreSQL"):
            with _database(tmp, "intake", postgres=db == "PostgreSQL") as (url, found):
                label = f"order intake persisted / bare echo, {db}"
                if found != db:
                    out.append(Goal(label, ">= 0.5", "not measured: no PostgreSQL server answers", None))
                    continue
                rate = _intake_rate(url, nats.url, tmp / f"intake-{db}")
                text = f"{rate / echo:.2f} ({rate:.0f} vs echo {echo:.0f} req/s, 8 clients)"
                out.append(Goal(label, ">= 0.5", text, rate / echo >= 0.5))
    return out


def _intake_rate(url: str, nats_url: str, workdir: Path) -> float:
    with bench_platform._cluster(url, nats_url, workdir) as client:
        # a name of its own: the same name on the same NATS server would have its events taken for
        # duplicates of the last run's (JetStream's duplicate window)
        campaign = f"bench-{uuid.uuid4().hex[:8]}"
        client.create(campaign)
        client.wait_open(campaign, 1)
        one = [bench_platform._order("BR1FL")]
        rate, _, _ = bench_platform._measure(bench_platform._submitter(client, campaign, "cornwallis", one))
        return rate


def capped_goals(args: argparse.Namespace, tmp: Path) -> list[Goal]:
    """1, 2 and 3 workers a stage, each in a CPU cgroup of 0.15 core, PostgreSQL
    (benchmarks/bench_scale.py): campaign-turns a second against one worker's."""
    label = f"capped workers 2/1 (3/1), 0.15 core, PG, {args.capped_campaigns} campaigns"
    goal = ">= 1.9 (>= 2.7)"
    why = cpucap.unavailable()
    if why is not None:
        return [Goal(label, goal, f"not measured: {why}", None)]
    argv = ["--campaigns", str(args.capped_campaigns), "--databases", "postgresql"]
    scale = bench_scale.options([*argv, "--workers", "1,2,3", "--cpu-per-worker", "0.15"])
    with NatsServer(data_dir=tmp / "nats-capped") as nats:
        found = bench_scale._databases(scale, str(tmp), nats.url, "training")
    runs = next((runs for name, runs in found if name == "PostgreSQL"), [])
    if len(runs) < 3:
        return [Goal(label, goal, "not measured: no PostgreSQL server answers", None)]
    two, three = (r.rate / runs[0].rate for r in runs[1:3])
    flow = ", ".join(f"{r.workers}: {r.rate:.2f}/s" for r in runs)
    spread = "/".join(f"{r.throughput / runs[0].throughput:.2f}" for r in runs[1:3])
    text = f"{two:.2f} ({three:.2f}); campaign-turns/s {flow}; by throughput {spread}"
    return [Goal(label, goal, text, two >= 1.9 and three >= 2.7)]


def close_open_goals(args: argparse.Namespace, tmp: Path) -> list[Goal]:
    """Close -> next turn open, one training campaign on an idle stack (benchmarks/bench_close_open.py)."""
    rows = bench_close_open.measure(args.turns)
    p50, p95 = _pq([r["opened"] for r in rows])
    label = "close -> next turn open, reports stored, training, idle"
    return [Goal(label, "< 0.5 s (p95)", _latency(p50, p95, len(rows)), p95 < 0.5)]


def _latency(p50: float, p95: float, turns: int) -> str:
    return f"p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms ({turns} turns)"


def solo_goals(args: argparse.Namespace, tmp: Path) -> list[Goal]:
    """A solo trafalgar player's Confirm -> his next turn open with his report readable, the
    bots' orders included (benchmarks/bench_solo.py), confirming at once."""
    rows = bench_solo.run_cluster(args.turns, [0.0], "", "trafalgar")[0.0]
    p50, p95 = _pq([r["readable"] for r in rows])
    label = "solo trafalgar: Confirm -> next turn open, bots included"
    return [Goal(label, "< 1 s (p95)", _latency(p50, p95, len(rows)), p95 < 1.0)]


def desk_goals(args: argparse.Namespace, tmp: Path) -> list[Goal]:
    """The British minister's campaign page under eia-operations, grand1805, 213 ships: the web
    process's Server-Timing, and his PlayerDesk.GetMyCampaign (benchmarks/bench_web.py)."""
    page, rpc = bench_web.minister_under_operations(requests=20)
    p50, p95 = _pq(page.server)
    text = f"page p50 {p50:.0f} ms, p95 {p95:.0f} ms ({page.shown} ships); its RPC p50 {rpc[0]:.0f} ms"
    label = "minister's desk, eia-operations, grand1805, 213 ships"
    return [Goal(label, "< 0.3 s (p95)", text, p95 < 300)]


MEASURES: dict[str, Callable[[argparse.Namespace, Path], list[Goal]]] = {
    "stages": stage_goals,
    "intake": intake_goals,
    "capped": capped_goals,
    "close_open": close_open_goals,
    "solo": solo_goals,
    "desk": desk_goals,
}


def table(goals: list[Goal]) -> list[tuple[str, str]]:
    out = [("measure", "goal | measured | met?")]
    for g in goals:
        met = "-" if g.met is None else ("yes" if g.met else "NO")
        out.append((g.measure, f"{g.goal} | {g.measured} | {met}"))
    return out


def run(argv: list[str] | None = None) -> Iterator[tuple[str, str]]:
    """The rows as they are measured (the runner prints each at once), then the table."""
    args = options(argv)
    skipped = {s.strip() for s in args.skip.split(",") if s.strip()}
    yield ("load average at the start (1, 5, 15 min)", _load())
    goals: list[Goal] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, measure in MEASURES.items():
            if name in skipped:
                continue
            t0 = time.monotonic()
            try:
                got = measure(args, Path(tmp))
            except Exception as exc:  # one row's failure is reported; the others are still measured
                traceback.print_exc()
                got = [Goal(name, "-", f"not measured: {type(exc).__name__}: {exc}"[:200], None)]
            goals += got
            yield (f"{name} measured", f"in {time.monotonic() - t0:.0f} s, load average {_load()}")
    yield ("load average at the end (1, 5, 15 min)", _load())
    yield from table(goals)
