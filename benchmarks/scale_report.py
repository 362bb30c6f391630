"""What the scale benchmark measured, and the rules core's own time for the same turns.

The core's time is measured in the benchmark's process after a run, on the
worlds the workers stored: the resolver's rules (``resolve_submitted``) on each
campaign's turn, and every player's knowledge of it (``all_knowledge``), the
intel stage's rules.  The reports stage has no rules of its own to run (it
stores the knowledge intel made as each player's structured report; the text
and HTML are rendered on first request), so its CPU is shown beside intel's.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from pate.core.campaign import resolve_submitted
from pate.engine.context import turn_context
from pate.engine.pipeline import all_knowledge
from services.platform.runtime import heap
from services.platform.store import repository as repo
from services.platform.store.db import make_engine

STAGES = ("resolver", "intel", "reports")


@dataclass(frozen=True)
class Worker:
    stage: str
    index: int
    cpu_seconds: float  # from the deadline to the last report
    throttled_seconds: float  # time its cgroup waited for quota (0 when uncapped)
    handled: int  # campaigns it carried through its stage
    rules_seconds: float = 0.0  # its rules core's CPU for them, as the worker logged it


@dataclass(frozen=True)
class Run:
    workers: int
    campaigns: int
    all_reported: float  # seconds from the deadline to the last campaign reported
    latencies: list[float]
    procs: list[Worker]
    core: dict[str, float]  # stage -> the core's CPU seconds for all the campaigns
    quota: float  # cores per worker, 0 when uncapped

    @property
    def rate(self) -> float:
        return self.campaigns / self.all_reported

    @property
    def throughput(self) -> float:
        """Campaign-turns per second from the first report to the last: the deadline
        watcher's poll and one turn's way through the stages (a fixed latency that
        more workers cannot shorten) are left out."""
        spread = self.latencies[-1] - self.latencies[0]
        return (self.campaigns - 1) / spread if spread > 0 else float("nan")

    def stage_ms(self, stage: str) -> float:
        """The stage's worker CPU per campaign-turn, in milliseconds."""
        return 1000 * sum(w.cpu_seconds for w in self.procs if w.stage == stage) / self.campaigns

    def core_ms(self, stage: str) -> float:
        return 1000 * self.core.get(stage, 0.0) / self.campaigns

    def worker_core_ms(self, stage: str) -> float:
        """The rules core's CPU per campaign-turn inside the stage's workers (their logs):
        the same rules as ``core_ms``, run in a capped process among the others."""
        return 1000 * sum(w.rules_seconds for w in self.procs if w.stage == stage) / self.campaigns


def core_seconds(database_url: str, names: list[str], turn: int = 1) -> dict[str, float]:
    """The rules core's CPU for the turns the workers resolved (``turn`` of each campaign), in
    this process with its heap settled as a worker's is (services/platform/runtime/heap.py),
    so that the collector walks no more of what the benchmark holds than a worker's would."""
    heap.settle()
    engine = make_engine(database_url)
    resolve = knowledge = 0.0
    try:
        with engine.connect() as conn:
            for name in names:
                before = repo.load_world(conn, name, turn)
                after = repo.load_world(conn, name, turn + 1)
                events = repo.load_events(conn, name, turn)
                orders = repo.submitted_orders(conn, name, turn)
                moves = repo.stores_moves(conn, name, turn)
                # each player's knowledge of the turn before, which intel carries his picture on from
                previous = repo.load_knowledge(conn, name, turn - 1)
                ctx = turn_context()  # loaded once per process: not the rules' time
                t0 = time.process_time()
                resolve_submitted(ctx, before, orders, moves, [], None)
                t1 = time.process_time()
                all_knowledge(ctx, before, after, events, previous=previous)
                knowledge += time.process_time() - t1
                resolve += t1 - t0
    finally:
        engine.dispose()
    return {"resolver": resolve, "intel": knowledge}


def rows_for(name: str, runs: list[Run], scenario: str) -> list[tuple[str, str]]:
    base = runs[0]
    out: list[tuple[str, str]] = []
    for r in runs:
        w = r.workers
        q = statistics.quantiles(r.latencies, n=100) if len(r.latencies) > 1 else r.latencies * 99
        cap = f", {r.quota:g} core each" if r.quota else ", uncapped"
        out += [
            (
                f"{name}, {w} worker(s)/stage{cap}: campaign-turns/s",
                f"{r.rate:.2f}  ratio to {base.workers}: {r.rate / base.rate:.2f}"
                f"  ({r.campaigns} {scenario} campaigns)",
            ),
            (
                f"  {name}, {w}: throughput first to last report",
                f"{r.throughput:.2f}/s  ratio to {base.workers}: {r.throughput / base.throughput:.2f}",
            ),
            (f"  {name}, {w}: deadline -> every campaign reported", f"{r.all_reported:.1f} s"),
            (f"  {name}, {w}: deadline -> reports p50 / p99", f"{q[49]:.1f} s / {q[98]:.1f} s"),
        ]
        out += [_stage_row(name, r, stage) for stage in STAGES]
    return out


def _stage_row(name: str, r: Run, stage: str) -> tuple[str, str]:
    workers = [p for p in r.procs if p.stage == stage]
    ms = r.stage_ms(stage)
    core = r.core_ms("intel" if stage == "reports" else stage)
    beside = f"core {core:.1f} ms, {ms / core:.1f}x" if core > 0 else "no core time"
    if stage == "reports":
        beside = f"intel's core {core:.1f} ms, {ms / core:.1f}x" if core > 0 else "no core time"
    shares = ""
    if r.quota:
        used = "/".join(f"{100 * p.cpu_seconds / (r.quota * r.all_reported):.0f}%" for p in workers)
        waited = "/".join(f"{p.throttled_seconds:.1f}s" for p in workers)
        shares = f"; quota used {used}, throttled {waited}"
    inside = r.worker_core_ms(stage)
    if inside > 0:
        beside += f"; core in the worker {inside:.1f} ms, {ms / inside:.1f}x"
    split = "/".join(str(p.handled) for p in workers)
    label = f"  {name}, {r.workers}: {stage} CPU ms/campaign-turn"
    return (label, f"{ms:.1f} ({beside}); split {split}{shares}")


GOAL = 2.0  # a stage's CPU per campaign-turn at most twice the core's own time for that stage


def cost_table(measured: list[tuple[str, str, list[Run]]]) -> list[tuple[str, str]]:
    """One row per scenario, database, worker count and stage: the workers' CPU per
    campaign-turn, the core's own for the same turns (measured in the benchmark's process
    in the same run), and their ratio against the goal.  The reports stage runs no rules
    of its own and is set against intel's core, the rules whose output it stores."""
    out = [("cost per campaign-turn (service CPU vs the core's, same run)", f"goal: at most {GOAL:g}x")]
    for scenario, database, runs in measured:
        for r in runs:
            for stage in STAGES:
                core = r.core_ms("intel" if stage == "reports" else stage)
                ms = r.stage_ms(stage)
                ratio = ms / core if core > 0 else float("nan")
                verdict = "within" if ratio <= GOAL else "over"
                inside = r.worker_core_ms("intel" if stage == "reports" else stage)
                there = (
                    f"; vs the core in the worker {inside:6.1f} ms = {ms / inside:4.2f}x" if inside else ""
                )
                out.append(
                    (
                        f"  {scenario}, {database}, {r.workers} worker(s): {stage}",
                        f"{ms:7.1f} ms vs core {core:6.1f} ms = {ratio:4.2f}x ({verdict} the goal){there}",
                    )
                )
    return out
