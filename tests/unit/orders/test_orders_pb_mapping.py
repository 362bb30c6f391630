"""The structured order of the gRPC contract (pate.v1.ShipOrder) carries
what the order text carries: here the EiA choice of Nelson's closing shift
(12.2.6.1.4.2), which the text writes as `combat ... nelson 1|2`."""

from __future__ import annotations

import pytest

from pate.core.orders.lexer import OrderSyntaxError
from pate.core.orders.text import parse_orders
from pate.v1 import common_pb2 as pb
from services.orders.mapping import MappingError, order_from_pb, order_to_pb


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


def test_an_operations_place_in_the_round_out_of_range_is_refused_by_its_field() -> None:
    """``declare_at`` (a uint32 on the wire) beyond the nine places of a round is
    refused naming the field, as text and as a message, before any rule runs."""
    order = order_to_pb(parse_orders("order BR1SL\n  operation naval-superiority declare 1\n")[0])
    order.operation.declare_at = 2**32 - 1
    with pytest.raises(MappingError) as err:
        order_from_pb(order)
    assert err.value.field.endswith("declare_at")
    with pytest.raises(OrderSyntaxError, match="declare"):
        parse_orders("order BR1SL\n  operation naval-superiority declare 4294967295\n")


COLUMNS = (
    "order BR1SL\n  operation naval-superiority\n"
    "  column BR1SL BR3SL admiral nelson plan attack carrying then attack 2 if outnumbering\n"
    "  column BR2SL BR4TR plan protect 1 then evade if outnumbered\n"
)


def test_column_orders_travel_in_the_structured_order() -> None:
    """The ``column`` lines (EiA new naval rules, "Naval Combat") and
    ``Operation.columns`` carry the same column orders both ways."""
    (from_text,) = parse_orders(COLUMNS)
    assert from_text.operation is not None and len(from_text.operation.columns) == 2
    assert order_from_pb(order_to_pb(from_text)) == from_text


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda op: op.columns.extend([pb.Column(ships=["BR1SL"])] * 5), "operation.columns"),
        (lambda op: op.columns[0].ships.extend(["BR9SL"] * 40), "operation.columns[0]"),
        (lambda op: op.columns[1].plan.add(action="retreat"), "operation.columns[1].plan[2].action"),
        (
            lambda op: op.columns[1].plan.add(action="attack", target="7"),
            "operation.columns[1].plan[2].target",
        ),
        (
            lambda op: op.columns[1].plan.add(action="evade", when="bored"),
            "operation.columns[1].plan[2].when",
        ),
        (lambda op: op.columns[0].ships.append("not a ship"), "operation.columns[0].ships[2]"),
    ],
)
def test_column_orders_beyond_the_form_are_refused_by_their_field(change, field) -> None:  # type: ignore[no-untyped-def]
    """Too many columns, ships or steps, an unknown action, target or
    condition: refused by the field, before any rule runs."""
    order = order_to_pb(parse_orders(COLUMNS)[0])
    change(order.operation)
    with pytest.raises(MappingError) as err:
        order_from_pb(order)
    assert err.value.field == f"orders[0].{field}"
