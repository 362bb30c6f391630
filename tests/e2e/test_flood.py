"""An unauthenticated flood does not starve the service.

Two clients send 250 KB order files as made-up players, two more guess the
passwords of random players, as fast as they can; meanwhile the orders
service's health check keeps answering SERVING, and every flooding request is
refused.  The order text of an unauthenticated caller is never parsed, and
password checks run off the event loop.  How fast the health check answers
under the flood is a figure of ``make bench`` (benchmarks/bench_flood.py),
never asserted here: a loaded machine must not fail the suite.
"""

from __future__ import annotations

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
HEALTH_CHECKS = 20  # answered during the flood, however long they take
BIG_ORDERS = "order BR1FL\n  combat engage\n" * 9000  # 252,000 characters, under the 256 KiB limit


def flood(addr: str, stop: threading.Event, big: bool, answers: list[grpc.StatusCode]) -> None:
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


def test_health_answers_during_an_unauthenticated_flood(
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
            threading.Thread(target=flood, args=(cluster.orders_addr, stop, big, answers), daemon=True)
            for big in (True, True, False, False)
        ]
        for t in flooders:
            t.start()
        time.sleep(0.5)
        served = []
        with grpc.insecure_channel(cluster.orders_addr) as ch:
            health = health_pb2_grpc.HealthStub(ch)
            end = time.monotonic() + FLOOD_SECONDS
            while time.monotonic() < end or len(served) < HEALTH_CHECKS:  # the flood runs meanwhile
                reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=30)
                served.append(reply.status)
                time.sleep(0.02)
        stop.set()
        for t in flooders:
            t.join(timeout=30)
        print(f"flood: {len(answers)} refused requests, {len(served)} health checks answered")
        assert len(answers) > 20, "the flood ran"
        assert set(answers) <= {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert set(served) == {health_pb2.HealthCheckResponse.SERVING}
    finally:
        if client is not None:
            client.close()
        cluster.stop()
