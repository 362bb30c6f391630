"""The hostile requests reported by players, each answered with a clear status naming the field."""

from __future__ import annotations

import grpc
import pytest

from pate.v1 import admin_pb2, orders_pb2
from tests.e2e.flow import Client

pytestmark = pytest.mark.integration

CAMPAIGN = "edges"
PASSWORD = "edges-password"


@pytest.fixture(scope="module")
def desk(desk_cluster: tuple[Client, str]) -> Client:
    client, _url = desk_cluster
    client.create(CAMPAIGN)
    client.wait_open(CAMPAIGN, 1)
    req = admin_pb2.SetPlayerPasswordRequest(campaign_id=CAMPAIGN, player_id="cornwallis", password=PASSWORD)
    client.admin.SetPlayerPassword(req, metadata=client.admin_md, timeout=30)
    return client


def _refusal(call, request, metadata) -> tuple[grpc.StatusCode, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as err:
        call(request, metadata=metadata, timeout=30)
    return err.value.code(), err.value.details() or ""


def test_the_reported_admin_requests_name_their_field(desk: Client) -> None:
    admin, md = desk.admin, desk.admin_md
    create = admin_pb2.CreateCampaignRequest
    deadline = admin_pb2.SetDeadlineRequest(campaign_id=CAMPAIGN, turn=1)
    deadline.deadline.seconds = 2**62
    early = create(id="e6", scenario="training")
    early.first_deadline.seconds = -(2**62)
    cases = [
        (admin.CreateCampaign, create(id="nl\n", scenario="training"), "id:"),
        (admin.CreateCampaign, create(id="e2", scenario="pyproject.toml"), "scenario:"),
        (admin.CreateCampaign, create(id="e3", scenario="a\x00b"), "scenario:"),
        (admin.CreateCampaign, create(id="e4", scenario="training", turn_seconds=2**40), "turn_seconds:"),
        (admin.CreateCampaign, create(id="e5", scenario_toml="a = " + "[" * 5000 + "]" * 5000), "scenario:"),
        (admin.CreateCampaign, early, "first_deadline:"),
        (
            admin.SetPlayerPassword,
            admin_pb2.SetPlayerPasswordRequest(
                campaign_id=CAMPAIGN, player_id="cornwallis", password="p" * 2000
            ),
            "password:",
        ),
        (admin.GetCampaign, admin_pb2.GetCampaignRequest(campaign_id="a\x00"), "campaign_id:"),
        (admin.SetDeadline, deadline, "deadline:"),
    ]
    for call, request, field in cases:
        code, details = _refusal(call, request, md)
        assert code == grpc.StatusCode.INVALID_ARGUMENT, (field, code, details)
        assert details.startswith(field), details
        assert "build-system" not in details and "setuptools" not in details  # pyproject.toml was never read


def test_the_reported_player_requests_get_clear_answers(desk: Client) -> None:
    md = (("x-pate-player", "cornwallis"), ("x-pate-password", PASSWORD))
    future = orders_pb2.GetEffectiveOrdersRequest(campaign_id=CAMPAIGN, turn=5)
    code, details = _refusal(desk.desk.GetEffectiveOrders, future, md)
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "turn 5 has not begun" in details
    past = orders_pb2.GetEffectiveOrdersRequest(campaign_id=CAMPAIGN, turn=-1)
    assert _refusal(desk.desk.GetEffectiveOrders, past, md)[0] == grpc.StatusCode.INVALID_ARGUMENT
    # a wrong campaign is "no such campaign", not "wrong password" (docs/security.md)
    wrong = orders_pb2.GetEffectiveOrdersRequest(campaign_id="no-such", turn=1)
    code, details = _refusal(desk.desk.GetEffectiveOrders, wrong, md)
    assert code == grpc.StatusCode.NOT_FOUND and "no campaign" in details
    huge = orders_pb2.SubmitOrdersRequest(
        campaign_id=CAMPAIGN, turn=1, client_request_id="big", orders_text="x" * 3_500_000
    )
    code, details = _refusal(desk.desk.SubmitOrders, huge, md)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and len(details) < 200
    # closing names the turn: a repeated close of turn 1 never closes turn 2
    close = admin_pb2.CloseTurnRequest(campaign_id=CAMPAIGN, turn=2)
    code, details = _refusal(desk.admin.CloseTurn, close, desk.admin_md)
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "current turn is 1" in details
