"""Many campaigns whose turns close at the same deadline.

N training campaigns and G grand1805 campaigns are created on a real cluster
(services/platform/runtime/cluster.py: NATS JetStream, the database and one process per
service), every campaign's first turn is given the same deadline, and the
benchmark waits until every campaign is reported.  It runs with 1 and with 2
worker processes per stage (resolver, intel, reports) on SQLite and on
PostgreSQL, and prints campaign-turns per second, the time until every
campaign is reported, p50/p99 deadline-to-reports latency, CPU seconds of the
service processes per campaign-turn and the scaling ratio of 2 workers to 1.

PATE_BENCH_SCALE_N (default 20) and PATE_BENCH_SCALE_GRAND (default 2) set the
sizes; the default run takes a few minutes on 2 cores.  The latency includes
the deadline watcher's poll (PATE_DEADLINE_POLL_SECONDS, 0.5 s here).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from google.protobuf.timestamp_pb2 import Timestamp

from benchmarks.bench_platform import _postgres
from pate.v1 import admin_pb2
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

STAGES = ("resolver", "intel", "reports")
N = int(os.environ.get("PATE_BENCH_SCALE_N", "20"))
GRAND = int(os.environ.get("PATE_BENCH_SCALE_GRAND", "2"))
LEAD_SECONDS = 3.0  # from setting the deadlines to the deadline itself
TIMEOUT_SECONDS = 1800.0
POLL_SECONDS = 0.1  # how often the campaigns are listed while waiting (the latencies' resolution)


@dataclass(frozen=True)
class Run:
    campaigns: int
    all_reported: float  # seconds from the deadline to the last campaign reported
    latencies: list[float]
    cpu_seconds: float

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

    @property
    def cores_busy(self) -> float:
        """Mean cores the service processes used from the deadline to the last report."""
        return self.cpu_seconds / self.all_reported


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of the service processes, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def _create(client: Client, n: int, grand: int) -> list[str]:
    names = [f"s-{uuid.uuid4().hex[:8]}" for _ in range(n + grand)]
    scenarios = ["training"] * n + ["grand1805"] * grand
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda a: client.create(a[0], a[1]), zip(names, scenarios, strict=True)))
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


def measure(database_url: str, nats_url: str, workdir: Path, workers: int) -> Run:
    cluster = Cluster(
        workdir=workdir,
        nats_url=nats_url,
        database_url=database_url,
        extra_env={"PATE_DEADLINE_POLL_SECONDS": "0.5"},
    )
    try:
        cluster.start_all()
        for stage in STAGES:
            for _ in range(workers - 1):
                cluster.start(stage)
        cluster.wait_serving()
        client = Client(cluster)
        try:
            names = _create(client, N, GRAND)
            pids = [p.pid for ps in cluster.procs.values() for p in ps]
            deadline = _one_deadline(client, names)
            cpu0 = _cpu_seconds(pids)
            reported = _wait_reported(client, names, deadline)
            cpu = _cpu_seconds(pids) - cpu0
        finally:
            client.close()
    finally:
        cluster.stop()
    latencies = sorted(reported.values())
    return Run(len(names), max(latencies), latencies, cpu)


def _rows(name: str, runs: dict[int, Run]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for workers, r in runs.items():
        q = statistics.quantiles(r.latencies, n=100) if len(r.latencies) > 1 else r.latencies * 99
        out += [
            (
                f"{name}, {workers} worker(s)/stage: campaign-turns/s",
                f"{r.rate:.2f} ({r.campaigns} campaigns: {N} training, {GRAND} grand1805)",
            ),
            (f"  {name}, {workers}: deadline -> every campaign reported", f"{r.all_reported:.1f} s"),
            (f"  {name}, {workers}: deadline -> reports p50 / p99", f"{q[49]:.1f} s / {q[98]:.1f} s"),
            (
                f"  {name}, {workers}: throughput, first to last report",
                f"{r.throughput:.2f} campaign-turns/s",
            ),
            (
                f"  {name}, {workers}: CPU s per campaign-turn (services)",
                f"{r.cpu_seconds / r.campaigns:.3f} ({r.cores_busy:.2f} cores busy)",
            ),
        ]
    if 1 in runs and 2 in runs:
        out.append((f"  {name}: scaling ratio, 2 workers / 1", f"{runs[2].rate / runs[1].rate:.2f}"))
        out.append(
            (
                f"  {name}: scaling ratio of throughput, 2 / 1",
                f"{runs[2].throughput / runs[1].throughput:.2f}",
            )
        )
    return out


NOTES = [
    (
        "note",
        "SQLite has one writer: every stage commits its rows and outbox in one"
        " transaction under the same file lock, so workers beyond the first queue"
        " on it; past one machine's worth of workers use PostgreSQL.",
    ),
    (
        "note",
        "2 cores are shared by the services, NATS, the database and this client:"
        " a second worker per stage can only scale where a core is idle.",
    ),
]


def run() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        sqlite_runs = {
            w: measure(f"sqlite:///{tmp}/scale-{w}.db", nats.url, Path(tmp) / f"sqlite-{w}", w)
            for w in (1, 2)
        }
        rows += _rows("SQLite", sqlite_runs)
        pg_runs: dict[int, Run] = {}
        for w in (1, 2):
            with _postgres() as pg:
                if pg is None:
                    rows.append(("PostgreSQL", "skipped: no server answers"))
                    break
                pg_runs[w] = measure(pg, nats.url, Path(tmp) / f"pg-{w}", w)
        rows += _rows("PostgreSQL", pg_runs)
    return rows + NOTES


if __name__ == "__main__":
    for label, figure in run():
        print(f"{label:<60} {figure}")
