"""The ``column`` lines of the order format (docs/formats/orders.md): every
column order the format can carry reads back as written, and a line that
breaks the form is one problem naming what to write."""

from __future__ import annotations

import pytest

from pate.core.orders.lexer import OrderSyntaxError
from pate.core.orders.model import ShipOrder
from pate.core.orders.operation import Column, ColumnAction, ColumnStep, Condition, Operation, OpKind
from pate.core.orders.text import parse_orders
from pate.core.orders.textout import format_order

STEPS = (
    ColumnStep(ColumnAction.ATTACK, "weakest", Condition.OUTNUMBERING),
    ColumnStep(ColumnAction.PROTECT, "2"),
    ColumnStep(ColumnAction.EVADE, "", Condition.OUTNUMBERED),
)


@pytest.mark.parametrize(
    "columns",
    [
        (Column(("BR1SL",)),),
        (Column(("BR1SL", "BR2SL"), "nelson", STEPS), Column(("BR3SL", "BR4TR"))),
        (Column(("BR1SL",), "plan"), Column(("BR2SL",), "Sir John  Jervis")),  # quoted names
    ],
)
def test_column_orders_read_back_as_written(columns: tuple[Column, ...]) -> None:
    order = ShipOrder("BR1SL", operation=Operation(OpKind.PATROL, columns=columns))
    assert parse_orders(format_order(order)) == [order]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("column", "name its ships"),
        ("column BR1SL plan", "plan: give one of attack, evade, protect"),
        ("column BR1SL plan attack", "attack: give a column's place"),
        ("column BR1SL plan protect strongest", "protect: give a column's place, 1 to 6, or carrying"),
        ("column BR1SL plan evade if", "if: give one of outnumbered, outnumbering"),
        ("column BR1SL plan evade attack 1", "join the steps with `then`"),
        ("column BR1SL admiral", "admiral: name the admiral"),
        ("column BR1SL plan " + " then ".join(["evade"] * 7), "at most 6 steps"),
        ("column " + " ".join(["BR1SL"] * 41), "at most 40 ships"),
    ],
)
def test_a_broken_column_line_is_one_problem(line: str, says: str) -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_orders(f"order BR1SL\n  operation patrol\n  {line}\n")
    assert len(err.value.problems) == 1 and says in str(err.value)


def test_an_unwritable_column_order_raises_rather_than_drops() -> None:
    """A column of no ship, or a step with a target the line cannot hold, goes as data,
    where the desk refuses it by its field (column_check)."""
    for columns in ((Column(()),), (Column(("BR1SL",), plan=(ColumnStep(ColumnAction.ATTACK, "7"),)),)):
        with pytest.raises(ValueError):
            format_order(ShipOrder("BR1SL", operation=Operation(OpKind.PATROL, columns=columns)))


def test_column_orders_as_json_read_back_the_same() -> None:
    """The JSON form (docs/formats/orders.md, "The same orders as JSON") and the stored form
    carry column orders whole; a column's fields are checked by the decoder's types."""
    import json

    from pate.core.orders.plain import OrderDataError, order_from_dict, order_to_dict

    (order,) = parse_orders(
        "order BR1SL\n  operation patrol\n  column BR1SL admiral nelson plan attack carrying if outnumbered\n"
    )
    data = json.loads(json.dumps(order_to_dict(order)))
    assert order_from_dict(data) == order
    data["operation"]["columns"][0]["plan"][0]["when"] = "sometimes"
    with pytest.raises(OrderDataError, match=r"operation\.columns\[0\]\.plan\[0\]\.when"):
        order_from_dict(data)
