"""The ``operation`` line of the order format (EiA new naval rules): hostile
input is refused with a located problem naming what to write, never a
traceback; limits are checked before the rest is read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pate.core.orders.operation import Operation, OpKind
from pate.core.orders.text import OrderSyntaxError, format_orders, parse_orders


def _problems(line: str) -> str:
    with pytest.raises(OrderSyntaxError) as err:
        parse_orders(f"order BR1SL\n  {line}\n")
    return str(err.value)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("operation", "operation: give one of invasion, naval-superiority"),
        ("operation fly", "not 'fly'"),
        ("operation transport", "name the corps"),
        ("operation transport FR1IN", "write `to` and the destination"),
        ("operation transport FR1IN to", "name the destination after `to`"),
        ("operation transport " + "X" * 33 + " to Brest", "at most 32"),
        ("operation transport FR1IN to " + "B" * 41, "at most 40 characters"),
        ("operation rebase Brest", "rebase to <port | sea area | blockade port>"),
        ("operation protect-trade", "name the sea zones"),
        ("operation supply ECH bis1", "three-letter sea area codes"),
        ("operation protect-trade " + " ".join(["ECH"] * 29), "at most 28 sea zones"),
        ("operation transport 'FR1IN' to Brest", "name the corps"),
    ],
)
def test_hostile_operation_lines_are_refused_with_a_reason(line: str, says: str) -> None:
    assert says in _problems(line)


def test_the_kinds_read_with_dash_or_underscore_and_in_any_case() -> None:
    for text in ("naval-superiority", "naval_superiority", "NAVAL-SUPERIORITY"):
        (order,) = parse_orders(f"order BR1SL\n  operation {text}\n")
        assert order.operation == Operation(OpKind.NAVAL_SUPERIORITY)


def test_a_quoted_port_name_and_a_blockade_box() -> None:
    (order,) = parse_orders('order BR1SL\n  operation rebase to blockade "Milford Haven"\n')
    assert order.operation == Operation(OpKind.REBASE, to="Milford Haven", blockade=True)


@given(st.text(max_size=200))
@settings(max_examples=300)
def test_any_text_after_operation_is_read_or_refused(rest: str) -> None:
    """Never another exception; what is read writes back the same."""
    try:
        orders = parse_orders(f"order BR1SL\n  operation {rest}\n")
    except OrderSyntaxError as err:
        assert err.problems
        return
    assert parse_orders(format_orders(orders)) == orders


def _refusals(text: str, naval_rules: str = "eia-operations", **where: object) -> list[str]:
    from dataclasses import replace

    from pate.core.rules.validation.orders import validate_order
    from tests.support.orders_world import ADMIN, MAP, RULES, harbor, ship, world

    w = world([ship("BR1SL", harbor("Plymouth")), ship("BR2SL", harbor("Plymouth"), attached_to="BR1SL")])
    w = replace(w, naval_rules=naval_rules)
    order = parse_orders(text)[0]
    return [f"{r.field}|{r.rule}|{r.code}|{r.message}" for r in validate_order(order, ADMIN, w, MAP, RULES)]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "order BR1SL\n  operation patrol\n",
            "operation|EiA new naval rules|failed_precondition|operations are orders",
        ),
        (
            "order BR1SL\n  operation rebase to Atlantis\n",
            "operation.to|EiA new naval rules, Rebase|invalid_argument",
        ),
        ("order BR1SL\n  operation rebase to XYZ\n", "neither a port nor a sea area"),
        ("order BR2SL\n  operation patrol\n", "the fleet's lead ship declares"),
        ("order BR1SL\n  move WAP\n  operation patrol\n", "movement|EiA new naval rules, Fleet markers"),
        (
            "order BR1SL\n  operation transport BR9IN to Portsmouth\n",
            "operation.corps|EiA new naval rules, Transport",
        ),
        ("order BR1SL\n  operation invasion BR9IN to Nowhere\n", "is not a port of the map"),
        ("order BR1SL\n  operation protect-trade WAP\n", "not a sea area Plymouth opens on"),
        ("order BR1SL\n  operation supply ECH\n", "at least one transport"),
    ],
)
def test_the_desk_refuses_operations_naming_the_field_and_rule(text: str, says: str) -> None:
    rules = "pate" if "operations are orders" in says else "eia-operations"
    got = _refusals(text, rules)
    assert any(says in r for r in got), got


@pytest.mark.parametrize(
    ("operation", "field"),
    [
        ({"kind": "rebase", "to": "Portsmouth", "chain": ["ECH"] * 1000}, "operation.chain"),
        ({"kind": "protect_trade", "chain": ["ECH"] * 29}, "operation.chain"),
        ({"kind": "patrol", "corps": "X" * 500}, "operation.corps"),
        ({"kind": "transport", "corps": "BR1IN", "to": "P" * 10_000}, "operation.to"),
        ({"kind": "invasion"}, "operation"),
    ],
)
def test_an_operation_sent_as_data_is_refused_at_its_limits(operation: dict, field: str) -> None:  # type: ignore[type-arg]
    """Orders also come as JSON (the web desk) and protobuf: the same limits."""
    from dataclasses import replace

    from pate.core.orders.plain import order_from_dict
    from pate.core.rules.validation.orders import validate_order
    from tests.support.orders_world import ADMIN, MAP, RULES, harbor, ship, world

    w = replace(world([ship("BR1SL", harbor("Plymouth"))]), naval_rules="eia-operations")
    order = order_from_dict({"ship_id": "BR1SL", "operation": operation})
    refusals = validate_order(order, ADMIN, w, MAP, RULES)
    assert refusals and refusals[0].field == field and refusals[0].code == "invalid_argument"
