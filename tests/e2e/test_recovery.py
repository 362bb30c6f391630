"""Health that tells the truth and quick recovery.

- While NATS is down, the orders service and the workers report NOT_SERVING
  on their gRPC health service; SERVING again once it is back.
- A resolver that holds a turn's message and is killed with SIGKILL hands the
  turn to another resolver (once its ack wait runs out; how soon is a figure
  printed, never asserted, so that a loaded machine cannot fail it); while it
  lives (heartbeating), the message is never redelivered, however long it works.
"""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sqlalchemy import func, select

from services.platform.bus.consumer import ACK_WAIT_S
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from services.platform.store import tables
from services.platform.store.db import make_engine
from tests.e2e.flow import Client
from tests.e2e.test_turn_flow import battle_orders

pytestmark = pytest.mark.e2e

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def _health(addr: str) -> int | None:
    try:
        with grpc.insecure_channel(addr) as ch:
            reply = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
            return int(reply.status)
    except grpc.RpcError:
        return None


def _until(predicate, timeout: float, what: str) -> float:  # type: ignore[no-untyped-def]
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.1)
    return time.monotonic() - start


def test_health_is_not_serving_while_nats_is_down(
    tmp_path: Path, own_nats: NatsServer, database_url: str
) -> None:
    cluster = Cluster(workdir=tmp_path, nats_url=own_nats.url, database_url=database_url)
    try:
        cluster.start_all()
        addrs = {name: cluster.health[ps[0].pid] for name, ps in cluster.procs.items()}
        assert {name: _health(a) for name, a in addrs.items()} == dict.fromkeys(addrs, SERVING)
        own_nats.stop()
        _until(lambda: all(_health(a) == NOT_SERVING for a in addrs.values()), 15, "NOT_SERVING without NATS")
        own_nats.start()
        _until(lambda: all(_health(a) == SERVING for a in addrs.values()), 30, "SERVING once NATS is back")
    finally:
        cluster.stop()


def _worlds(url: str, campaign: str) -> int:
    t = tables.world_states
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(select(func.count()).select_from(t).where(t.c.campaign == campaign)).scalar_one()
            )
    finally:
        engine.dispose()


def test_a_turn_held_by_a_killed_resolver_is_taken_over(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    cluster = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    client = None
    try:
        cluster.start_all()
        cluster.kill("resolver")
        cluster.extra_env = {"PATE_FAULTS": "consumer.resolver.received:hold"}
        doomed = cluster.start("resolver")
        doomed_log = tmp_path / "logs" / "resolver.log"
        cluster.extra_env = {}
        cluster.wait_serving()
        client = Client(cluster)
        campaign = "e2e-takeover"
        client.create(campaign)
        client.wait_open(campaign, 1)
        client.submit(campaign, 1, "cornwallis", battle_orders()[0])
        client.close_turn(campaign, 1)
        _until(
            lambda: "fault.holding" in doomed_log.read_text(errors="replace"),
            60,
            "the resolver holds the turn",
        )

        cluster.start("resolver")  # a healthy one, on the same durable consumer
        cluster.wait_serving()
        time.sleep(3 * ACK_WAIT_S)  # far beyond ack_wait: the living holder's heartbeats keep the message
        assert _worlds(database_url, campaign) == 1, "the message was redelivered while its worker lived"

        doomed.kill()
        doomed.wait()
        taken = _until(
            lambda: _worlds(database_url, campaign) == 2, 30, "the turn resolved by the other resolver"
        )
        print(f"takeover after SIGKILL: {taken:.2f} s")  # a figure, not asserted: load must not fail it
        client.wait_open(campaign, 2, timeout=60)
    finally:
        if client is not None:
            client.close()
        cluster.stop()
