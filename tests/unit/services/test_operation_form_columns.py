"""The web order form's fields for the orders of the EiA operations' "may" and
for column orders (services/web/operation_form.py; docs/rules/eia-operations.md,
"Column orders"): read into the structured operation, refused beside their
field when the form is wrong, and shown back filled in."""

from __future__ import annotations

import pytest

from pate.v1 import common_pb2, desk_pb2
from services.web.operation_form import OperationFormError, operation_from_form, values_of

LEAD = desk_pb2.MyShip(
    id="BR1TR",
    operations=[
        common_pb2.Operation(kind="transport", corps="BR1IN", to="Plymouth"),
        common_pb2.Operation(kind="patrol"),
    ],
)
COLUMNS = "column BR1TR\nBR2SL BR3SL admiral nelson plan attack carrying then evade if outnumbered\n"


def test_going_home_a_place_in_the_round_and_columns_are_read() -> None:
    form = {
        "0.op_kind": "transport",
        "0.op_target": "Plymouth",
        "0.op_corps": "BR1IN",
        "0.op_return": "on",
        "0.op_declare": "2",
        "0.op_columns": COLUMNS,
    }
    op = operation_from_form(form, 0, LEAD)
    assert op is not None and op.return_to_base and op.declare_at == 2
    assert [list(c.ships) for c in op.columns] == [["BR1TR"], ["BR2SL", "BR3SL"]]
    second = op.columns[1]
    assert second.admiral == "nelson"
    assert [(s.action, s.target, s.when) for s in second.plan] == [
        ("attack", "carrying", "always"),
        ("evade", "", "outnumbered"),
    ]
    shown = values_of(common_pb2.ShipOrder(ship_id="BR1TR", operation=op))
    assert shown["op_return"] == "on" and shown["op_declare"] == "2"
    again = operation_from_form({**form, "0.op_columns": shown["op_columns"]}, 0, LEAD)
    assert again == op


@pytest.mark.parametrize(
    ("fields", "name", "says"),
    [
        ({"op_kind": "patrol", "op_return": "on"}, "op_return", "only a Transport or Invasion"),
        ({"op_kind": "patrol", "op_declare": "10"}, "op_declare", "1 to 9"),
        ({"op_kind": "patrol", "op_columns": "BR1TR plan attack nowhere"}, "op_columns", "line 1"),
        ({"op_kind": "patrol", "op_columns": "BR1TR\n" * 7}, "op_columns", "at most 6 columns"),
    ],
)
def test_a_wrong_field_is_refused_beside_it(fields: dict[str, str], name: str, says: str) -> None:
    with pytest.raises(OperationFormError) as err:
        operation_from_form({f"0.{k}": v for k, v in fields.items()}, 0, LEAD)
    assert err.value.name == name and says in err.value.message
