"""Many campaigns whose turns close at the same deadline, on capped workers.

N fresh campaigns are created on a real cluster (services/platform/runtime/cluster.py:
NATS JetStream, the database and one process per service), every campaign's
first turn is given the same deadline, and the benchmark waits until every
campaign is reported.  It does so with 1, 2, 3... worker processes per stage
(resolver, intel, reports), on SQLite and on PostgreSQL, and prints
campaign-turns per second, the ratio to one worker, each worker's CPU per
campaign-turn beside the rules core's own time for the same turns (measured in
this process, after the run, on the stored worlds), each worker's share of its
quota and how the turns were split between the workers of a stage; last, one
table of every stage's CPU per campaign-turn against the core's, per scenario,
database and worker count, to read the 2x goal off.

    python -m benchmarks scale --cpu-per-worker 0.15 --workers 1,2,3 --campaigns 40
    python -m benchmarks scale --cpu-per-worker 0.15 --workers 1 --scenario training,grand1805 \
        --campaigns 40,4

``--cpu-per-worker`` puts every resolver, intel and reports worker process in a
CPU cgroup of its own with that quota (benchmarks/cpucap.py), as a Kubernetes CPU
limit does: each capped worker is then a small node, and the order desk, NATS and
the database stay uncapped.  Where cgroups cannot be made the benchmark says so
in one line and skips.  Without it (``make bench``) the workers share the
machine's cores with everything else.  The latency includes the deadline
watcher's poll (PATE_DEADLINE_POLL_SECONDS, 0.5 s here).
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

from google.protobuf.timestamp_pb2 import Timestamp

from benchmarks import cpucap
from benchmarks.bench_platform import _postgres
from benchmarks.scale_report import Run, Worker, core_seconds, cost_table, rows_for
from pate.v1 import admin_pb2
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

STAGES = ("resolver", "intel", "reports")
DONE_EVENT = {"resolver": "turn_resolved", "intel": "intel_ready", "reports": "reports_ready"}
LEAD_SECONDS = 3.0  # from setting the deadlines to the deadline itself
TIMEOUT_SECONDS = 1800.0
CREATE_TIMEOUT_S = 600.0
POLL_SECONDS = 0.1  # how often the campaigns are listed while waiting (the latencies' resolution)


def options(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks scale", description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", default="1,2", help="worker processes per stage, e.g. 1,2,3")
    p.add_argument("--cpu-per-worker", type=float, default=0.0, help="each worker's CPU quota in cores")
    p.add_argument(
        "--campaigns",
        default=os.environ.get("PATE_BENCH_SCALE_N", "20"),
        help="campaigns per setting, one count for every scenario or one per scenario: 40,4",
    )
    p.add_argument(
        "--scenario", default="training", help="the scenario(s) of the campaigns: training,grand1805"
    )
    p.add_argument("--databases", default="sqlite,postgresql")
    args = p.parse_args(argv or [])
    args.worker_counts = [int(w) for w in args.workers.split(",") if w.strip()]
    args.scenarios = [name.strip() for name in args.scenario.split(",") if name.strip()]
    counts = [int(n) for n in str(args.campaigns).split(",") if n.strip()]
    if len(counts) == 1:
        counts *= len(args.scenarios)
    if len(counts) != len(args.scenarios) or min(counts) < 2:
        p.error("--campaigns takes one count of at least 2, or one per scenario")
    args.counts = dict(zip(args.scenarios, counts, strict=True))
    if not args.worker_counts or min(args.worker_counts) < 1:
        p.error("--workers takes counts of at least 1")
    return args


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of one process, from /proc (all its threads)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _create(client: Client, n: int, scenario: str) -> list[str]:
    names = [f"s-{uuid.uuid4().hex[:8]}" for _ in range(n)]

    def create(name: str) -> None:
        # a long timeout: on a loaded machine a grand1805 campaign (29 players' passwords to
        # hash) may take over a minute to create, and that is not what is measured here
        req = admin_pb2.CreateCampaignRequest(id=name, scenario=scenario)
        client.admin.CreateCampaign(req, metadata=client.admin_md, timeout=CREATE_TIMEOUT_S)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(create, names))
    for name in names:
        client.wait_open(name, 1, timeout=300)
    return names


def _one_deadline(client: Client, names: list[str]) -> datetime:
    at = datetime.now(UTC) + timedelta(seconds=LEAD_SECONDS)
    stamp = Timestamp()
    stamp.FromDatetime(at)

    def set_one(name: str) -> None:
        req = admin_pb2.SetDeadlineRequest(campaign_id=name, turn=1, deadline=stamp)
        client.admin.SetDeadline(req, metadata=client.admin_md, timeout=30)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(set_one, names))
    return at


def _wait_reported(client: Client, names: list[str], deadline: datetime) -> dict[str, float]:
    """Seconds from the deadline until each campaign's next turn opened (its reports ready)."""
    wanted = set(names)
    done: dict[str, float] = {}
    give_up = time.monotonic() + TIMEOUT_SECONDS
    while len(done) < len(wanted):
        listed = client.admin.ListCampaigns(
            admin_pb2.ListCampaignsRequest(), metadata=client.admin_md, timeout=30
        ).campaigns
        now = (datetime.now(UTC) - deadline).total_seconds()
        for c in listed:
            if c.id in wanted and c.id not in done and c.turn >= 2:
                done[c.id] = now
        if time.monotonic() > give_up:
            raise TimeoutError(f"{len(wanted) - len(done)} campaigns not reported")
        time.sleep(POLL_SECONDS if len(wanted) <= 50 else 5 * POLL_SECONDS)  # a big list costs to send
    return done


_CAMPAIGN = re.compile(r"\bs-[0-9a-f]{8}\b")
_TURN_ONE = re.compile(r'"turn": ?1\b')  # the measured turn, not the campaign's opening (turn 0)
_RULES_MS = re.compile(r'"rules_cpu_ms": ?([0-9.]+)')


def _handled(log: Path, stage: str, names: set[str]) -> tuple[int, float]:
    """How many of the measured campaigns this worker carried through its stage, and the CPU
    seconds its rules core took for them (``rules_cpu_ms`` of the same log lines)."""
    if not log.exists():
        return 0, 0.0
    event = re.compile(rf"\b{DONE_EVENT[stage]}\b")
    count, rules_ms = 0, 0.0
    for line in log.read_text(errors="replace").splitlines():
        found = _CAMPAIGN.search(line)
        if found and found.group() in names and event.search(line) and _TURN_ONE.search(line):
            count += 1
            spent = _RULES_MS.search(line)
            rules_ms += float(spent.group(1)) if spent else 0.0
    return count, rules_ms / 1000


def measure(
    database_url: str, nats_url: str, workdir: Path, workers: int, args: argparse.Namespace, scenario: str
) -> Run:
    cluster = Cluster(
        workdir=workdir,
        nats_url=nats_url,
        database_url=database_url,
        extra_env={"PATE_DEADLINE_POLL_SECONDS": "0.5"},
    )
    with ExitStack() as stack:
        caps = stack.enter_context(cpucap.CpuCaps(args.cpu_per_worker)) if args.cpu_per_worker else None
        stack.callback(cluster.stop)
        cluster.start_all()
        for stage in STAGES:
            for _ in range(workers - 1):
                cluster.start(stage)
        cluster.wait_serving()
        client = Client(cluster)
        stack.callback(client.close)
        procs = [(stage, i, p) for stage in STAGES for i, p in enumerate(cluster.procs[stage])]
        groups = {p.pid: caps.cap(f"{stage}-{i}", p.pid) for stage, i, p in procs} if caps else {}
        names = _create(client, args.counts[scenario], scenario)
        deadline = _one_deadline(client, names)
        cpu0 = {p.pid: _cpu_seconds(p.pid) for _, _, p in procs}
        thr0 = {pid: caps.throttled_seconds(g) for pid, g in groups.items()} if caps else {}
        reported = _wait_reported(client, names, deadline)
        cpu = {p.pid: _cpu_seconds(p.pid) - cpu0[p.pid] for _, _, p in procs}
        thr = {pid: caps.throttled_seconds(g) - thr0[pid] for pid, g in groups.items()} if caps else {}
        stack.close()  # the workers stop here; their logs are complete
        logs = workdir / "logs"
        wanted = set(names)
        found = [
            Worker(
                stage,
                i,
                cpu[p.pid],
                thr.get(p.pid, 0.0),
                *_handled(logs / f"{stage}{'-' + str(i) if i else ''}.log", stage, wanted),
            )
            for stage, i, p in procs
        ]
    latencies = sorted(reported.values())
    core = core_seconds(database_url, names)
    return Run(workers, len(names), max(latencies), latencies, found, core, args.cpu_per_worker)


def _databases(
    args: argparse.Namespace, tmp: str, nats_url: str, scenario: str
) -> list[tuple[str, list[Run]]]:
    out: list[tuple[str, list[Run]]] = []
    wanted = args.databases.split(",")
    if "sqlite" in wanted:
        runs = [
            measure(
                f"sqlite:///{tmp}/{scenario}-{w}.db",
                nats_url,
                Path(tmp) / f"sqlite-{scenario}-{w}",
                w,
                args,
                scenario,
            )
            for w in args.worker_counts
        ]
        out.append(("SQLite", runs))
    if "postgresql" in wanted:
        pg_runs: list[Run] = []
        for w in args.worker_counts:
            with _postgres() as pg:
                if pg is None:
                    break
                pg_runs.append(measure(pg, nats_url, Path(tmp) / f"pg-{scenario}-{w}", w, args, scenario))
        out.append(("PostgreSQL", pg_runs))
    return out


def run(argv: list[str] | None = None) -> list[tuple[str, str]]:
    args = options(argv)
    if args.cpu_per_worker:
        why = cpucap.unavailable()
        if why is not None:
            return [("capped workers", f"skipped: {why}")]
    rows: list[tuple[str, str]] = []
    measured: list[tuple[str, str, list[Run]]] = []
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        for scenario in args.scenarios:
            for name, runs in _databases(args, tmp, nats.url, scenario):
                if not runs:
                    rows.append((name, "skipped: no server answers"))
                    continue
                rows += rows_for(name, runs, scenario)
                measured.append((scenario, name, runs))
    return rows + cost_table(measured)


if __name__ == "__main__":
    import sys

    for label, figure in run(sys.argv[1:]):
        print(f"{label:<60} {figure}")
