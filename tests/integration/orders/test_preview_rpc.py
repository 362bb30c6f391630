"""OrderDesk.PreviewOrders on a running cluster (docs/rules/intel.md, "Previews"):
an answer from the player's own report, hostile requests refused with the
field named before any work, and the allowance of previews per turn kept
by the server."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from pate.v1 import common_pb2, orders_pb2
from services.orders.preview_rpc import MAX_PREVIEWS_PER_TURN
from tests.e2e.flow import Client

pytestmark = pytest.mark.integration

CAMPAIGN = "previews"


@pytest.fixture(scope="module")
def desk(desk_cluster: tuple[Client, str]) -> Client:
    client, _url = desk_cluster
    client.create(CAMPAIGN)
    client.wait_open(CAMPAIGN, 1)
    return client


def _ask(desk: Client, player: str, **fields: object) -> orders_pb2.PreviewOrdersResponse:
    req = orders_pb2.PreviewOrdersRequest(campaign_id=CAMPAIGN, turn=1, **fields)  # type: ignore[arg-type]
    return desk.desk.PreviewOrders(req, metadata=desk.player_md(CAMPAIGN, player), timeout=60)  # type: ignore[no-any-return]


def _refused(desk: Client, player: str, **fields: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as err:
        _ask(desk, player, **fields)
    return err.value.code(), err.value.details() or ""


def _move(sid: str, *areas: str) -> common_pb2.ShipOrder:
    return common_pb2.ShipOrder(ship_id=sid, movement=common_pb2.Movement(sea_areas=list(areas)))


def test_a_commander_previews_his_orders_from_his_own_report(desk: Client) -> None:
    """Rule 3.11: his report shows his ships and those in contact; the preview
    plays his orders from it and says where his ships may end."""
    got = _ask(desk, "cornwallis", orders=[_move("BR1FL", "BIS")], runs=5)
    assert got.runs == 5 and got.turn == 1 and len(got.seed) == 16
    ship = next(s for s in got.ships if s.ship_id == "BR1FL")
    assert ship.destination == "BIS" and 0 <= ship.reached <= 5
    assert sum(e.runs for e in ship.ends) == 5
    assert "BR1FL" in got.text and "ordered to BIS" in got.text
    again = _ask(desk, "cornwallis", orders=[_move("BR1FL", "BIS")], runs=5)
    assert again.ships == got.ships and again.seed == got.seed  # same orders, same preview
    assert again.previews_left == got.previews_left - 1


def test_hostile_preview_requests_are_refused_naming_the_field(desk: Client) -> None:
    """docs/security.md: limits before work; the order desk's own refusals
    (rules 2.3, 4.3) for ships he may not order or does not know."""
    cases: list[tuple[dict[str, Any], grpc.StatusCode, str]] = [
        ({"runs": 51}, grpc.StatusCode.INVALID_ARGUMENT, "runs:"),
        ({"runs": -1}, grpc.StatusCode.INVALID_ARGUMENT, "runs:"),
        ({"orders_text": "x" * 300_000}, grpc.StatusCode.INVALID_ARGUMENT, "orders_text:"),
        ({"orders": [_move("BR1FL", "BIS")] * 501}, grpc.StatusCode.INVALID_ARGUMENT, "orders:"),
        ({"orders": [_move("BR1FL")], "orders_text": "BR1FL"}, grpc.StatusCode.INVALID_ARGUMENT, "orders:"),
        ({"orders": [_move("BR1FL", "B\x00S")]}, grpc.StatusCode.INVALID_ARGUMENT, "orders[0]"),
        ({"orders": [_move("FR1FL")]}, grpc.StatusCode.PERMISSION_DENIED, "orders[0].ship_id"),
        ({"orders": [_move("FR5SL")]}, grpc.StatusCode.NOT_FOUND, "orders[0].ship_id"),
        ({"orders": [_move("BR1FL", "NOS", "BIS", "WAP")]}, grpc.StatusCode.INVALID_ARGUMENT, "orders[0]"),
    ]
    for fields, code, field in cases:
        got_code, details = _refused(desk, "cornwallis", **fields)
        assert got_code == code, (field, got_code, details)
        assert field in details and len(details) < 400, details
    # a wrong turn and no credentials: the turn named, and nobody answered
    req = orders_pb2.PreviewOrdersRequest(campaign_id=CAMPAIGN, turn=2, orders=[_move("BR1FL")])
    with pytest.raises(grpc.RpcError) as err:
        desk.desk.PreviewOrders(req, metadata=desk.player_md(CAMPAIGN, "cornwallis"), timeout=30)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "turn" in (err.value.details() or "")
    with pytest.raises(grpc.RpcError) as err:
        desk.desk.PreviewOrders(req, timeout=30)
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_each_player_has_so_many_previews_a_turn(desk: Client) -> None:
    """docs/rules/intel.md: the allowance is the server's, counted per player and turn."""
    left = _ask(desk, "calder", runs=1).previews_left
    assert left == MAX_PREVIEWS_PER_TURN - 1
    for _ in range(left):
        _ask(desk, "calder", runs=1)
    code, details = _refused(desk, "calder", runs=1)
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and "previews of turn 1" in details
    assert _ask(desk, "ganteaume", runs=1).previews_left == MAX_PREVIEWS_PER_TURN - 1  # his own allowance
