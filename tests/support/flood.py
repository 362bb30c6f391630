"""An unauthenticated flood of the order desk, for the test that the health
check keeps answering (tests/e2e/test_flood.py) and for the benchmark of how
fast it answers (benchmarks/bench_flood.py): two clients send 250 KB order
files as made-up players, two more guess the passwords of random players."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc

from pate.v1 import orders_pb2, orders_pb2_grpc
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

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


@contextmanager
def flooded(
    workdir: Path, nats_url: str, database_url: str
) -> Iterator[tuple[Cluster, list[grpc.StatusCode]]]:
    """The services running with campaign "flood" open and four flooders at
    its order desk (the answers they get); stopped on leaving."""
    cluster = Cluster(workdir=workdir, nats_url=nats_url, database_url=database_url)
    client = None
    stop = threading.Event()
    flooders: list[threading.Thread] = []
    try:
        cluster.start_all()
        client = Client(cluster)
        client.create("flood")
        client.wait_open("flood", 1)
        answers: list[grpc.StatusCode] = []
        flooders = [
            threading.Thread(target=flood, args=(cluster.orders_addr, stop, big, answers), daemon=True)
            for big in (True, True, False, False)
        ]
        for t in flooders:
            t.start()
        time.sleep(0.5)
        yield cluster, answers
    finally:
        stop.set()
        for t in flooders:
            t.join(timeout=30)
        if client is not None:
            client.close()
        cluster.stop()
