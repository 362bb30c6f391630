"""Every process serves Prometheus metrics; after one turn they show that turn."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from pate.v1 import orders_pb2
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client
from tests.e2e.test_turn_flow import battle_orders

pytestmark = pytest.mark.e2e


@pytest.fixture
def cluster(tmp_path: Path, own_nats: NatsServer, database_url: str) -> Iterator[Cluster]:
    # A NATS server of its own: the consumer figures below are the stream's, and the
    # session's shared stream carries other tests' messages (a redelivery of theirs would count).
    c = Cluster(workdir=tmp_path, nats_url=own_nats.url, database_url=database_url)
    try:
        c.start_all()
        yield c
    finally:
        c.stop()


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(addr: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    with urllib.request.urlopen(f"http://{addr}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    """Sum of the samples named ``name`` whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= ls)


def by_service(cluster: Cluster) -> dict[str, str]:
    return {name: cluster.metrics[p.pid] for name, ps in cluster.procs.items() for p in ps}


def play_one_turn_with_refusals(cluster: Cluster, campaign: str) -> None:
    """Two accepted submissions, a wrong password, a submission without a session and one
    for another's ship, the turn closed and a report read."""
    client = Client(cluster)
    try:
        client.create(campaign)
        client.wait_open(campaign, 1)
        british, french = battle_orders()
        client.submit(campaign, 1, "cornwallis", british)
        client.submit(campaign, 1, "ganteaume", french)
        with pytest.raises(grpc.RpcError):
            client.login_reply(campaign, "cornwallis", "wrong-password")
        with pytest.raises(grpc.RpcError):  # a submission without a valid session
            request = orders_pb2.SubmitOrdersRequest(
                campaign_id=campaign, turn=1, orders=british, client_request_id="no-session"
            )
            client.desk.SubmitOrders(request, metadata=(("authorization", "Bearer not-a-token"),), timeout=30)
        with pytest.raises(grpc.RpcError):
            client.submit(campaign, 1, "cornwallis", french)  # not his ship
        client.close_turn(campaign, 1)
        client.wait_open(campaign, 2)
        client.report(campaign, 1, "cornwallis", "text")
    finally:
        client.close()


def test_each_process_reports_the_turn_it_played(cluster: Cluster) -> None:
    play_one_turn_with_refusals(cluster, "e2e-metrics")

    addrs = by_service(cluster)
    assert set(addrs) == {"orders", "resolver", "intel", "reports"}
    orders = scrape(addrs["orders"])
    assert value(orders, "pate_orders_accepted_total") == 2
    assert value(orders, "pate_order_submissions_refused_total", reason="unauthenticated") == 1
    assert value(orders, "pate_order_submissions_refused_total", reason="permission_denied") == 1
    assert value(orders, "pate_logins_failed_total", reason="wrong") == 1
    submit = "/pate.v1.OrderDesk/SubmitOrders"
    assert value(orders, "pate_grpc_server_calls_total", method=submit, code="OK") == 2
    assert value(orders, "pate_grpc_server_calls_total", method=submit, code="UNAUTHENTICATED") == 1
    assert value(orders, "pate_grpc_server_seconds_count", method=submit) == 4
    # the orders process opens the next turn when the reports are out
    assert value(orders, "pate_turn_stage_seconds_count", stage="orders-turns", outcome="ok") >= 2

    for service, stage in (("resolver", "resolver"), ("intel", "intel"), ("reports", "reports")):
        samples = scrape(addrs[service])
        assert value(samples, "pate_turn_stage_seconds_count", stage=stage, outcome="ok") >= 1, service
        assert value(samples, "pate_turn_stage_seconds_sum", stage=stage) > 0, service
    reports = scrape(addrs["reports"])
    assert value(reports, "pate_grpc_server_calls_total", method="/pate.v1.Reports/GetReport", code="OK") == 1

    orders, resolver = poll_gauges(addrs)
    assert value(orders, "pate_campaigns", status="OPEN") >= 1
    assert value(resolver, "pate_consumer_pending_messages", consumer="resolver") == 0
    assert value(resolver, "pate_consumer_redelivered_messages", consumer="resolver") == 0
    assert ("pate_outbox_unpublished_rows", frozenset()) in orders
    assert ("pate_outbox_oldest_unpublished_age_seconds", frozenset()) in orders


def poll_gauges(addrs: dict[str, str]) -> tuple[Samples, Samples]:
    """The gauges are polled: within one round every campaign and consumer figure is there."""
    deadline = time.monotonic() + 15
    while True:
        orders = scrape(addrs["orders"])
        resolver = scrape(addrs["resolver"])
        ready = (
            value(orders, "pate_campaigns", status="OPEN") >= 1
            and ("pate_consumer_pending_messages", frozenset({("consumer", "resolver")})) in resolver
        )
        if ready or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    return orders, resolver
