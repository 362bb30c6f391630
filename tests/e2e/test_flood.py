"""An unauthenticated flood does not starve the service.

Two clients send 250 KB order files as made-up players, two more guess the
passwords of random players, as fast as they can; meanwhile the orders
service's health check keeps answering: p99 under 0.5 s.  The order text of
an unauthenticated caller is never parsed, and password checks run off the
event loop.
"""

from __future__ import annotations

import statistics
import threading
import time
import uuid
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from pate.v1 import orders_pb2, orders_pb2_grpc
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

pytestmark = pytest.mark.e2e

FLOOD_SECONDS = 6.0
BIG_ORDERS = "order BR1FL\n  combat engage\n" * 9000  # 252,000 characters, under the 256 KiB limit


def _flood(addr: str, stop: threading.Event, big: bool, answers: list[grpc.StatusCode]) -> None:
    with grpc.insecure_channel(addr) as ch:
        desk = orders_pb2_grpc.OrderDeskStub(ch)
        while not stop.is_set():
            req = orders_pb2.SubmitOrdersRequest(
                campaign_id="flood",
                turn=1,
                client_request_id=uuid.uuid4().hex,
                orders_text=BIG_ORDERS if big else "",
            )
            md = (("x-pate-player", f"guess{uuid.uuid4().hex[:8]}"), ("x-pate-password", "wrong-guess"))
            try:
                desk.SubmitOrders(req, metadata=md, timeout=30)
                answers.append(grpc.StatusCode.OK)
            except grpc.RpcError as err:
                answers.append(err.code())


def test_health_answers_quickly_during_an_unauthenticated_flood(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    cluster = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    client = None
    try:
        cluster.start_all()
        client = Client(cluster)
        client.create("flood")
        client.wait_open("flood", 1)
        stop = threading.Event()
        answers: list[grpc.StatusCode] = []
        flooders = [
            threading.Thread(target=_flood, args=(cluster.orders_addr, stop, big, answers), daemon=True)
            for big in (True, True, False, False)
        ]
        for t in flooders:
            t.start()
        time.sleep(0.5)
        latencies = []
        with grpc.insecure_channel(cluster.orders_addr) as ch:
            health = health_pb2_grpc.HealthStub(ch)
            end = time.monotonic() + FLOOD_SECONDS
            while time.monotonic() < end:
                started = time.perf_counter()
                health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
                latencies.append(time.perf_counter() - started)
                time.sleep(0.02)
        stop.set()
        for t in flooders:
            t.join(timeout=30)
        p99 = statistics.quantiles(latencies, n=100)[98]
        print(
            f"flood: {len(answers)} refused requests,"
            f" health p99 {p99 * 1000:.0f} ms over {len(latencies)} checks"
        )
        assert len(answers) > 20, "the flood ran"
        assert set(answers) <= {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert p99 < 0.5
    finally:
        if client is not None:
            client.close()
        cluster.stop()
