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

import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.support.flood import flooded

pytestmark = pytest.mark.e2e

FLOOD_SECONDS = 6.0
HEALTH_CHECKS = 20  # answered during the flood, however long they take


def test_health_answers_during_an_unauthenticated_flood(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    with flooded(tmp_path, nats_url, database_url) as (cluster, answers):
        served = []
        with grpc.insecure_channel(cluster.orders_addr) as ch:
            health = health_pb2_grpc.HealthStub(ch)
            end = time.monotonic() + FLOOD_SECONDS
            while time.monotonic() < end or len(served) < HEALTH_CHECKS:  # the flood runs meanwhile
                reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=30)
                served.append(reply.status)
                time.sleep(0.02)
    print(f"flood: {len(answers)} refused requests, {len(served)} health checks answered")
    assert len(answers) > 20, "the flood ran"
    assert set(answers) <= {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.RESOURCE_EXHAUSTED}
    assert set(served) == {health_pb2.HealthCheckResponse.SERVING}
