"""A turn the engine cannot resolve, through the real services: the campaign shows FAILED
with its reason (gRPC, ``pate campaign show``, the metrics), the game master reopens it,
retries it, and after the fix is deployed retries it or resolves it with one player's
orders replaced by the defaults of rule 4.11.  The neighbouring campaign plays on."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sqlalchemy import select

from pate.v1 import admin_pb2
from services.platform.runtime.cluster import Cluster
from services.platform.store import tables
from services.platform.store.db import make_engine
from tests.e2e.flow import Client
from tests.e2e.test_metrics import by_service, scrape, value
from tests.e2e.test_turn_flow import battle_orders

pytestmark = pytest.mark.e2e


# the resolver as first deployed: a defect makes it raise on these two campaigns only
def broken(campaigns: tuple[str, ...]) -> dict[str, str]:
    return {"PATE_FAULTS": ",".join(f"resolver.resolve.{c}:raise" for c in campaigns)}


BROKEN = broken(("stuck-a", "stuck-b"))
REASON = "FaultInjectedError: fault injected at resolver.resolve.stuck-a"


@pytest.fixture
def faults() -> dict[str, str]:
    """The resolver's faults as first deployed (a module may name other campaigns)."""
    return BROKEN


@pytest.fixture
def cluster(tmp_path: Path, nats_url: str, database_url: str, faults: dict[str, str]) -> Iterator[Cluster]:
    c = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url, extra_env=faults)
    try:
        c.start_all()
        yield c
    finally:
        c.stop()


@pytest.fixture
def client(cluster: Cluster) -> Iterator[Client]:
    c = Client(cluster)
    yield c
    c.close()


def wait_failed(client: Client, campaign: str, after: float = 0.0, timeout: float = 60) -> admin_pb2.Campaign:
    """The campaign once its turn shows FAILED (with a failure newer than ``after``)."""
    deadline = time.monotonic() + timeout
    while True:
        c = client.campaign(campaign)
        if c.status == admin_pb2.TURN_STATUS_FAILED and c.failure.failed_at.ToNanoseconds() / 1e9 > after:
            return c
        if time.monotonic() > deadline:
            raise TimeoutError(f"{campaign}: not failed (turn {c.turn}, status {c.status})")
        time.sleep(0.2)


def play_turn_one(client: Client, campaign: str) -> None:
    client.create(campaign)
    client.wait_open(campaign, 1)
    british, french = battle_orders()
    client.submit(campaign, 1, "cornwallis", british)
    client.submit(campaign, 1, "ganteaume", french)
    client.close_turn(campaign, 1)


def test_a_failed_turn_is_shown_and_recovered(client: Client, cluster: Cluster) -> None:
    for campaign in ("stuck-a", "stuck-b", "calm"):
        play_turn_one(client, campaign)
    client.wait_open("calm", 2)
    failed = shows_the_failure(client, cluster)
    refuses_what_does_not_apply(client)
    reopens_and_fails_again(client, failed.failure.failed_at.ToNanoseconds() / 1e9)
    retries_while_still_broken(client)
    # the neighbour plays on while two campaigns wait for their game master
    client.close_turn("calm", 2)
    client.wait_open("calm", 3)
    deploy_the_fix(cluster)
    retries_after_the_fix(client)
    resolves_with_defaults(client, cluster)


def shows_the_failure(client: Client, cluster: Cluster) -> admin_pb2.Campaign:
    failed = wait_failed(client, "stuck-a")
    assert failed.turn == 1
    assert failed.failure.turn == 1 and failed.failure.stage == "resolver"
    assert failed.failure.reason == REASON
    assert failed.failure.prior_status == admin_pb2.TURN_STATUS_CLOSED
    wait_failed(client, "stuck-b")
    listed = client.admin.ListFailedTurns(admin_pb2.ListFailedTurnsRequest(), metadata=client.admin_md)
    assert sorted(c.id for c in listed.campaigns) == ["stuck-a", "stuck-b"]
    shown = json.loads(pate_cli(cluster, "campaign", "show", "stuck-a"))
    assert shown["status"] == "TURN_STATUS_FAILED"
    assert shown["failure"]["reason"] == REASON and "Traceback" not in shown["failure"]["reason"]
    resolver = by_service(cluster)["resolver"]
    assert value(scrape(resolver), "pate_turn_failures_total", stage="resolver") == 2
    deadline = time.monotonic() + 30  # the gauge is refreshed every few seconds
    while value(scrape(by_service(cluster)["orders"]), "pate_failed_turns") != 2:
        assert time.monotonic() < deadline, "pate_failed_turns never reached 2"
        time.sleep(0.5)
    return failed


def refuses_what_does_not_apply(client: Client) -> None:
    md = client.admin_md
    with pytest.raises(grpc.RpcError) as wrong_turn:
        client.admin.RetryTurn(admin_pb2.RetryTurnRequest(campaign_id="stuck-a", turn=2), metadata=md)
    assert wrong_turn.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "turn: the failed turn is 1" in (wrong_turn.value.details() or "")
    with pytest.raises(grpc.RpcError) as not_failed:
        client.admin.RetryTurn(admin_pb2.RetryTurnRequest(campaign_id="calm", turn=2), metadata=md)
    assert not_failed.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    req = admin_pb2.ResolveWithDefaultsRequest(campaign_id="stuck-b", turn=1, player_id="nobody")
    with pytest.raises(grpc.RpcError) as unknown:
        client.admin.ResolveWithDefaults(req, metadata=md)
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.RpcError) as no_token:
        client.admin.RetryTurn(admin_pb2.RetryTurnRequest(campaign_id="stuck-a", turn=1))
    assert no_token.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert client.campaign("stuck-a").status == admin_pb2.TURN_STATUS_FAILED  # nothing was done


def reopens_and_fails_again(client: Client, first_failure: float) -> None:
    req = admin_pb2.ReopenTurnRequest(campaign_id="stuck-a", turn=1)
    reopened = client.admin.ReopenTurn(req, metadata=client.admin_md)
    assert reopened.status == admin_pb2.TURN_STATUS_OPEN and reopened.turn == 1
    assert not reopened.HasField("failure") and not reopened.HasField("deadline")
    _british, french = battle_orders()
    assert client.submit("stuck-a", 1, "ganteaume", french).accepted == 1  # players change orders
    client.close_turn("stuck-a", 1)
    wait_failed(client, "stuck-a", after=first_failure)


def retries_while_still_broken(client: Client) -> None:
    before = client.campaign("stuck-a").failure.failed_at.ToNanoseconds() / 1e9
    req = admin_pb2.RetryTurnRequest(campaign_id="stuck-a", turn=1)
    assert client.admin.RetryTurn(req, metadata=client.admin_md).status == admin_pb2.TURN_STATUS_CLOSED
    wait_failed(client, "stuck-a", after=before)  # the same defect, the same visible state


def deploy_the_fix(cluster: Cluster) -> None:
    cluster.kill("resolver")
    cluster.extra_env = {}
    cluster.start("resolver")
    cluster.wait_serving()


def retries_after_the_fix(client: Client) -> None:
    req = admin_pb2.RetryTurnRequest(campaign_id="stuck-a", turn=1)
    client.admin.RetryTurn(req, metadata=client.admin_md)
    opened = client.wait_open("stuck-a", 2)
    assert not opened.HasField("failure")


def resolves_with_defaults(client: Client, cluster: Cluster) -> None:
    req = admin_pb2.ResolveWithDefaultsRequest(campaign_id="stuck-b", turn=1, player_id="cornwallis")
    client.admin.ResolveWithDefaults(req, metadata=client.admin_md)
    client.wait_open("stuck-b", 2)
    orders = stored_effective_orders(cluster, "stuck-b", 1)
    assert orders["BR1FL"]["author"] is None  # cornwallis's engage order left out: rule 4.11
    assert orders["FR1FL"]["author"] is not None  # ganteaume's order stands
    assert stored_effective_orders(cluster, "calm", 1)["BR1FL"]["author"] is not None


def stored_effective_orders(cluster: Cluster, campaign: str, turn: int) -> dict[str, dict[str, object]]:
    t = tables.resolutions
    engine = make_engine(cluster.database_url)
    try:
        with engine.connect() as conn:
            text = conn.execute(
                select(t.c.orders_json).where(t.c.campaign == campaign, t.c.turn == turn)
            ).scalar_one()
    finally:
        engine.dispose()
    orders: dict[str, dict[str, object]] = json.loads(text)["orders"]
    return orders


def pate_cli(cluster: Cluster, *args: str) -> str:
    env = {**cluster.env, "PATE_ORDERS_ADDR": cluster.orders_addr, "PATE_ADMIN_TOKEN": cluster.admin_token}
    command = [sys.executable, "-m", "pate.cli.main", *args]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout
