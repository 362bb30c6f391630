"""Resolving a failed turn with a naval minister's defaults leaves out his officer assignments
too (rule 4.11, decision 26 of docs/rules/orders.md), through the real services: in one
campaign barham's assignment of BR1FR to calder is left out with his turn, in the other, where
cornwallis's turn is the one defaulted, barham's assignment stands."""

from __future__ import annotations

import pytest

from pate.v1 import admin_pb2, desk_pb2, desk_pb2_grpc
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client
from tests.e2e.test_failed_turn import (  # noqa: F401 (the fixtures)
    broken,
    client,
    cluster,
    deploy_the_fix,
    wait_failed,
)

pytestmark = pytest.mark.e2e

# Campaign ids of this test's own: the session's NATS server remembers, for its duplicate
# window, the message ids of the failed-turn test's campaigns (their turn 1 closing), and
# would drop this test's events under the same ids as copies.
STUCK = ("officers-a", "officers-b")


@pytest.fixture
def faults() -> dict[str, str]:
    return broken(STUCK)


def _ships_of(client: Client, campaign: str, player: str) -> set[str]:  # noqa: F811 (the fixture's name)
    stub = desk_pb2_grpc.PlayerDeskStub(client.orders_ch)
    mine = stub.GetMyCampaign(
        desk_pb2.GetMyCampaignRequest(campaign_id=campaign),
        metadata=client.player_md(campaign, player),
        timeout=30,
    )
    return {s.id for s in mine.ships}


def _barham_gives_br1fr_to_calder(client: Client, campaign: str) -> None:  # noqa: F811
    stub = desk_pb2_grpc.PlayerDeskStub(client.orders_ch)
    req = desk_pb2.AssignOfficersRequest(
        campaign_id=campaign,
        turn=1,
        assignments=[desk_pb2.OfficerAssignment(ship_id="BR1FR", commander="calder")],
    )
    assert stub.AssignOfficers(req, metadata=client.player_md(campaign, "barham"), timeout=30).accepted == 1


def test_a_ministers_defaults_leave_out_his_officer_assignments(client: Client, cluster: Cluster) -> None:  # noqa: F811
    for campaign in STUCK:
        client.create(campaign)
        client.wait_open(campaign, 1)
        assert "BR1FR" not in _ships_of(client, campaign, "calder")
        _barham_gives_br1fr_to_calder(client, campaign)
        client.close_turn(campaign, 1)
        wait_failed(client, campaign)
    deploy_the_fix(cluster)
    for campaign, player in zip(STUCK, ("barham", "cornwallis"), strict=True):
        req = admin_pb2.ResolveWithDefaultsRequest(campaign_id=campaign, turn=1, player_id=player)
        client.admin.ResolveWithDefaults(req, metadata=client.admin_md, timeout=30)
        client.wait_open(campaign, 2)
    assert "BR1FR" not in _ships_of(client, STUCK[0], "calder")  # barham's turn left out whole
    assert "BR1FR" in _ships_of(client, STUCK[0], "cornwallis")  # she keeps the officer she had
    assert "BR1FR" in _ships_of(client, STUCK[1], "calder")  # another's defaults: barham's stands
