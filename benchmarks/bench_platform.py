"""End-to-end figures of the platform.

- orders accepted per second, gRPC -> authenticated -> validated -> committed,
  with p50/p99 latency, on SQLite and (when one answers) PostgreSQL, beside a
  bare grpcio echo server measured in the same run with the same clients;
- latency from closing a turn to its reports being ready (demo campaign).

Everything runs on this machine: the services, NATS, the database and the
clients share its cores, so the figures are for one small box.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import grpc

from pate.v1 import common_pb2, orders_pb2, orders_pb2_grpc
from services.platform.bus.natsserver import NatsServer, free_port
from services.platform.runtime.cluster import Cluster
from services.platform.store.db import make_engine
from tests.e2e.flow import Client, serving

CLIENTS = 8
REQUESTS = 2000  # per row: a few seconds each, long enough to settle
PG_SERVER = (
    os.environ.get("PATE_TEST_DATABASE_URL") or "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


# Each client thread has its own connection, as each player's browser or tool
# has: the kernel then spreads them over the replicas listening on one port.
_OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def _measure(connect: Callable[[], Callable[[int], object]], n: int = REQUESTS) -> tuple[float, float, float]:
    """Requests per second, p50 and p99 (ms) of ``n`` calls from CLIENTS threads;
    ``connect`` is run once in each thread and gives it its call."""
    latencies: list[float] = []
    local = threading.local()
    calls: list[Callable[[int], object]] = []

    def start() -> None:
        local.call = connect()
        calls.append(local.call)
        local.call(-1)  # the connection is made before the clock starts

    def one(i: int) -> None:
        t0 = time.perf_counter()
        local.call(i)
        latencies.append(time.perf_counter() - t0)

    with ThreadPoolExecutor(CLIENTS, initializer=start) as pool:
        list(pool.map(lambda _: time.sleep(0.05), range(CLIENTS)))  # every thread started
        start_at = time.perf_counter()
        list(pool.map(one, range(n)))
        wall = time.perf_counter() - start_at
    q = statistics.quantiles(latencies, n=100)
    return n / wall, q[49] * 1000, q[98] * 1000


@contextmanager
def echo_server() -> Iterator[tuple[int, Callable[[], Callable[[int], object]]]]:
    """The bare grpcio echo server in its own process: its pid, and a way to
    connect a client that sends it one order submission's bytes."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.echo_server", str(port)], stdout=subprocess.PIPE
    )
    payload = orders_pb2.SubmitOrdersRequest(
        campaign_id="bench", turn=1, client_request_id="x" * 32, orders=[_order("BR1FL")]
    ).SerializeToString()

    def connect() -> Callable[[int], object]:
        ch = grpc.insecure_channel(f"127.0.0.1:{port}", options=_OWN_CONNECTION)
        echo = ch.unary_unary("/bench.Echo/Echo")
        return lambda i: echo(payload, timeout=30)

    try:
        assert proc.stdout is not None
        proc.stdout.readline()
        yield proc.pid, connect
    finally:
        proc.terminate()
        proc.wait()


def echo_rate() -> tuple[float, float, float]:
    with echo_server() as (_, connect):
        return _measure(connect)


def _order(ship: str) -> common_pb2.ShipOrder:
    return common_pb2.ShipOrder(ship_id=ship, combat=common_pb2.Combat(stance="engage", range="close"))


@contextmanager
def _cluster(database_url: str, nats_url: str, workdir: Path) -> Iterator[Client]:
    with serving(Cluster(workdir=workdir, nats_url=nats_url, database_url=database_url)) as client:
        yield client


FLEET = ["BR1FL", "BR1SL", "BR2SL", "BR1FR", "BR2FL", "BR3SL", "BR2FR", "BR1TR"]  # Barham's, as minister
# The orders the turn holds when it is closed: each row's requests and one warm-up call per client.
_TURN_ORDERS = 2 * (REQUESTS + CLIENTS) + (REQUESTS // 4 + CLIENTS) * len(FLEET)


def _submitter(
    client: Client, campaign: str, player: str, orders: list[common_pb2.ShipOrder]
) -> Callable[[], Callable[[int], object]]:
    md = client.player_md(campaign, player)  # logged in once, before the clients race
    addr = client.cluster.orders_addr

    def connect() -> Callable[[int], object]:
        ch = grpc.insecure_channel(addr, options=_OWN_CONNECTION)
        desk = orders_pb2_grpc.OrderDeskStub(ch)

        def call(i: int) -> object:
            req = orders_pb2.SubmitOrdersRequest(
                campaign_id=campaign, turn=1, orders=orders, client_request_id=uuid.uuid4().hex
            )
            return desk.SubmitOrders(req, metadata=md, timeout=30)

        return call

    return connect


def _add_replica(cluster: Cluster) -> None:
    """A second orders process on the same port (SO_REUSEPORT), serving before the clients connect."""
    proc = cluster.start("orders")
    log = cluster.workdir / "logs" / f"orders-{len(cluster.procs['orders']) - 1}.log"
    deadline = time.monotonic() + 60
    while b"grpc.serving" not in (log.read_bytes() if log.exists() else b""):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the second orders process did not start; see {log}")
        time.sleep(0.1)


def orders_and_turn(
    database_url: str, nats_url: str, workdir: Path
) -> tuple[tuple[float, float, float], tuple[float, float, float], float, float]:
    with _cluster(database_url, nats_url, workdir) as client:
        campaign = f"bench-{uuid.uuid4().hex[:8]}"
        client.create(campaign)
        client.wait_open(campaign, 1)
        one = [_order("BR1FL")]
        rate = _measure(_submitter(client, campaign, "cornwallis", one))
        fleet = [_order(s) for s in FLEET]
        batched = _measure(_submitter(client, campaign, "barham", fleet), n=REQUESTS // 4)
        _add_replica(client.cluster)
        replicated = _measure(_submitter(client, campaign, "cornwallis", one))
        t0 = time.perf_counter()
        client.close_turn(campaign, 1)
        client.wait_open(campaign, 2)
        return rate, replicated, time.perf_counter() - t0, batched[0] * len(FLEET)


@contextmanager
def _postgres() -> Iterator[str | None]:
    """A fresh database on the PostgreSQL server, or None when none answers
    (a failure of the benchmark itself is not hidden)."""
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    from tests.support.servers import fresh_database

    probe = make_engine(PG_SERVER)
    try:
        with probe.connect() as conn:
            conn.execute(text("SELECT 1"))
    except OperationalError:
        yield None
        return
    finally:
        probe.dispose()
    with fresh_database(PG_SERVER) as url:
        yield url


def _database_rows(name: str, url: str, nats_url: str, workdir: Path, echo: float) -> list[tuple[str, str]]:
    (rate, p50, p99), (rate2, p50_2, p99_2), turn, fleet_rate = orders_and_turn(url, nats_url, workdir)
    return [
        (f"orders accepted end to end, {name}", f"{rate:8.0f} req/s  p50 {p50:.1f} ms  p99 {p99:.1f} ms"),
        (f"  ratio to bare echo, {name}", f"{rate / echo:.3f}"),
        (f"  orders/s when a request orders a fleet of {len(FLEET)}, {name}", f"{fleet_rate:8.0f}"),
        (
            f"  2 orders processes on one port, {name}",
            f"{rate2:8.0f} req/s  p50 {p50_2:.1f} ms  p99 {p99_2:.1f} ms",
        ),
        (f"  ratio to bare echo, 2 orders processes, {name}", f"{rate2 / echo:.3f}"),
        (f"close turn -> reports ready (training, {_TURN_ORDERS:,} orders sent, {name})", f"{turn:.2f} s"),
    ]


def run() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    e_rate, e_p50, e_p99 = echo_rate()
    rows.append(
        (
            f"bare grpcio echo ({CLIENTS} clients, a connection each)",
            f"{e_rate:8.0f} req/s  p50 {e_p50:.1f} ms  p99 {e_p99:.1f} ms",
        )
    )
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        sqlite = f"sqlite:///{tmp}/bench.db"
        rows += _database_rows("SQLite", sqlite, nats.url, Path(tmp) / "sqlite", e_rate)
        with _postgres() as pg:
            if pg is None:
                rows.append(("orders on PostgreSQL", "skipped: no server answers"))
            else:
                rows += _database_rows("PostgreSQL", pg, nats.url, Path(tmp) / "pg", e_rate)
    return rows
