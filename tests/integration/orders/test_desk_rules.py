"""Rule cases of section 4 (and 2.6, 6.2, 6.5) through the real order desk:
gRPC -> authenticated -> validated -> committed, on the training scenario."""

from __future__ import annotations

import uuid

import grpc
import pytest

from pate.v1 import common_pb2, orders_pb2
from tests.e2e.flow import Client

pytestmark = pytest.mark.integration

CAMPAIGN = "desk-rules"


@pytest.fixture(scope="module")
def desk(desk_cluster: tuple[Client, str]) -> Client:
    client, _ = desk_cluster
    client.create(CAMPAIGN)
    client.wait_open(CAMPAIGN, 1)
    return client


def send(desk: Client, player: str, text: str) -> orders_pb2.SubmitOrdersResponse:
    request = orders_pb2.SubmitOrdersRequest(
        campaign_id=CAMPAIGN, turn=1, orders_text=text, client_request_id=uuid.uuid4().hex
    )
    md = desk.player_md(CAMPAIGN, player)
    return desk.desk.SubmitOrders(request, metadata=md, timeout=30)  # type: ignore[no-any-return]


def refused(desk: Client, player: str, text: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        send(desk, player, text)
    return err.value


def effective(desk: Client, player: str, ship: str) -> orders_pb2.EffectiveOrder:
    request = orders_pb2.GetEffectiveOrdersRequest(campaign_id=CAMPAIGN, turn=1, ship_ids=[ship])
    md = desk.player_md(CAMPAIGN, player)
    (found,) = desk.desk.GetEffectiveOrders(request, metadata=md, timeout=30).orders
    return found  # type: ignore[no-any-return]


def test_rule_4_1_the_commanders_last_order_is_accepted(desk: Client) -> None:
    """4.1: "If multiple orders are sent, the last one sent by the commander is accepted"."""
    send(desk, "calder", "order BR2FL\n  combat engage\n")
    send(desk, "calder", "order BR2FL\n  combat evade\n")
    found = effective(desk, "calder", "BR2FL")
    assert (found.source, found.order.combat.stance) == ("commander", "evade")


def test_rule_4_2_orders_of_the_lead_are_copied_to_attached_ships(desk: Client) -> None:
    """4.2: "If BR5SL and BR8SL are attached to BR2SL, then orders sent for BR2SL are copied to
    BR5SL and BR8SL." (Here BR3SL is attached to BR2FL.)"""
    send(desk, "calder", "order BR2FL\n  combat engage close\n")
    found = effective(desk, "calder", "BR3SL")
    assert (found.source, found.copied_from) == ("copied", "BR2FL")
    assert (found.order.combat.stance, found.order.combat.range) == ("engage", "close")


def test_rule_4_4_no_attaching_to_a_ship_that_is_itself_attached(desk: Client) -> None:
    """4.4: "you may not attach a ship to a second ship which is itself attached to a third ship"."""
    err = refused(desk, "cornwallis", "order BR1FR\n  attach BR1SL\n")
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION  # the world, not the form, forbids it
    assert "rule 4.4" in (err.details() or "")


def test_rule_4_6_evade_may_not_join_allies(desk: Client) -> None:
    """4.6: "Ships with Evade checked may not Join Allies"."""
    err = refused(desk, "cornwallis", "order BR1FR\n  contact evade join-allies\n")
    assert "rule 4.6" in (err.details() or "")


def test_rule_6_2_only_to_an_adjacent_sea_area(desk: Client) -> None:
    """6.2: "Ships ... in sea areas may move only to a sea area which is adjacent"."""
    err = refused(desk, "cornwallis", "order BR1FR\n  move NOS IBC\n")
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "rule 6.2" in (err.details() or "")


def test_rule_6_4_a_port_sails_only_to_its_sea_area(desk: Client) -> None:
    """6.4: "Ships in port may only be ordered to move to the sea area connected to that port"."""
    err = refused(desk, "allemand", "order FR2FL\n  move ECH\n")
    assert "rule 6.4" in (err.details() or "")


def test_rule_6_5_no_sailing_from_port_to_port(desk: Client) -> None:
    """6.5: "Ships cannot sail directly from one port to another"."""
    err = refused(desk, "allemand", "order FR2FL\n  move port Brest\n")
    assert "rule 6.5" in (err.details() or "") or "rule 6.3" in (err.details() or "")


def test_rule_2_6_an_inactive_ship_takes_no_orders_but_reactivation(desk: Client) -> None:
    """2.6: inactive ships "do not appear on the map"; only reactivation may be ordered."""
    err = refused(desk, "barham", "order BR4SL\n  move ECH\n")
    assert "rule 2.6" in (err.details() or "")
    assert send(desk, "barham", "order BR4SL\n  reactivate\n").accepted == 1


def test_rule_2_3_a_commander_orders_only_his_ships(desk: Client) -> None:
    """2.3/4.3: the password identifies the player as commander or deputy of his ships."""
    err = refused(desk, "cornwallis", "order FR1FL\n  combat evade\n")
    assert err.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "FR1FL" in (err.details() or "")


def test_a_refused_request_stores_none_of_its_orders(desk: Client) -> None:
    """A request with one bad order is refused whole."""
    before = effective(desk, "cornwallis", "BR1FR").order
    refused(desk, "cornwallis", "order BR1FR\n  combat engage\n\norder BR1FL\n  move NOS IBC\n")
    assert effective(desk, "cornwallis", "BR1FR").order == before


def _moves(desk: Client, player: str, *moves: tuple[str, str, int]) -> orders_pb2.SubmitOrdersResponse:
    request = orders_pb2.SubmitOrdersRequest(
        campaign_id=CAMPAIGN,
        turn=1,
        client_request_id=uuid.uuid4().hex,
        stores_moves=[common_pb2.StoresMoveOrder(origin=o, destination=d, amount=a) for o, d, a in moves],
    )
    md = desk.player_md(CAMPAIGN, player)
    return desk.desk.SubmitOrders(request, metadata=md, timeout=30)  # type: ignore[no-any-return]


def test_rule_3_5_the_naval_minister_moves_stores_between_ports(desk: Client) -> None:
    """3.5: "The Naval Minister can order stores moved from one port to another ... if both ports
    are connected to the same sea area or adjacent sea areas, and there are no hostile ships in
    either port or in the connected sea area(s)"."""
    assert _moves(desk, "decres", ("Ajaccio", "Bastia", 10)).accepted == 0  # no ship orders, one move
    with pytest.raises(grpc.RpcError) as hostile:
        _moves(desk, "decres", ("Brest", "Rochefort", 10))  # British squadrons in ECH and BIS
    assert "rule 3.5" in (hostile.value.details() or "")
    with pytest.raises(grpc.RpcError) as not_minister:
        _moves(desk, "ganteaume", ("Ajaccio", "Bastia", 10))
    assert not_minister.value.code() == grpc.StatusCode.PERMISSION_DENIED
