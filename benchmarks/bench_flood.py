"""How fast the orders service's health check answers during an
unauthenticated flood (two clients sending 250 KB order files as made-up
players, two guessing passwords), on SQLite: the p50 and p99 that
tests/e2e/test_flood.py once asserted (p99 under 0.5 s).  The test now checks
that the health check answers and the flood is refused; the speed is a
figure of this machine, read here."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.platform.bus.natsserver import NatsServer
from tests.support.flood import flooded

FLOOD_SECONDS = 6.0


def _health_under_flood(workdir: Path, nats_url: str) -> tuple[int, list[float]]:
    latencies = []
    database = f"sqlite:///{workdir}/flood.db"
    with (
        flooded(workdir, nats_url, database) as (cluster, answers),
        grpc.insecure_channel(cluster.orders_addr) as ch,
    ):
        health = health_pb2_grpc.HealthStub(ch)
        end = time.monotonic() + FLOOD_SECONDS
        while time.monotonic() < end:
            started = time.perf_counter()
            health.Check(health_pb2.HealthCheckRequest(service=""), timeout=30)
            latencies.append(time.perf_counter() - started)
            time.sleep(0.02)
    return len(answers), latencies


def run() -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        refused, latencies = _health_under_flood(Path(tmp), nats.url)
    cuts = statistics.quantiles(latencies, n=100)
    return [
        (
            f"health check during a flood ({refused} requests refused, {len(latencies)} checks)",
            f"p50 {cuts[49] * 1000:.0f} ms  p99 {cuts[98] * 1000:.0f} ms",
        )
    ]
