"""The structured order of the gRPC contract (pate.v1.ShipOrder) carries
what the order text carries: here the EiA choice of Nelson's closing shift
(12.2.6.1.4.2), which the text writes as `combat ... nelson 1|2`."""

from __future__ import annotations

from pate.core.orders.text import parse_orders
from pate.v1 import common_pb2 as pb
from services.orders.mapping import order_from_pb, order_to_pb


def test_nelson_closing_shift_travels_in_the_structured_order() -> None:
    order = order_from_pb(pb.ShipOrder(ship_id="BR1FL", combat=pb.Combat(stance="engage", closing_shift=1)))
    assert order.combat.closing_shift == 1
    back = order_to_pb(order)
    assert back.combat.HasField("closing_shift") and back.combat.closing_shift == 1


def test_an_unset_closing_shift_stays_unset_both_ways() -> None:
    order = order_from_pb(pb.ShipOrder(ship_id="BR1FL"))
    assert order.combat.closing_shift is None
    assert not order_to_pb(order).combat.HasField("closing_shift")


def test_the_text_and_the_structured_order_agree() -> None:
    (from_text,) = parse_orders("order BR1FL\n  combat engage nelson 2\n")
    structured = order_from_pb(order_to_pb(from_text))
    assert structured.combat == from_text.combat
