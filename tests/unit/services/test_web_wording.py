"""The desk's refusals in the players' words: no internal field path
("orders[0].movement.port", "stores_moves[0].amount", "assignments[0].deputy",
"orders_text: ..."), the ship or the store move named, one refusal a line."""

from __future__ import annotations

import re

from pate.v1 import common_pb2
from services.web import wording

INTERNAL = re.compile(r"\w\[\d+\]|orders_text|stores_moves|assignments|sea_areas|_")


def test_each_kind_of_item_is_named_by_what_the_player_knows() -> None:
    r = common_pb2.Refusal(field="orders[1].movement.sea_areas[0]", rule="6.2", message="not beside")
    assert wording.refusal(r, ["BR1FL", "BR1SL"]) == "BR1SL, first sea area: not beside (rule 6.2)"
    assert wording.field("orders[3].contact.minimum") == "order 4, contact minimum"
    moves = ["store move 1 (Brest to Lorient)"]
    assert wording.field("stores_moves[0].amount", moves) == "store move 1 (Brest to Lorient), amount"
    assert wording.field("assignments[0].deputy", ["BR1FL"]) == "BR1FL, deputy"
    assert wording.field("orders_text") == "the order text"


def test_an_order_texts_refusals_come_one_a_line_with_their_line_numbers() -> None:
    message = (
        "orders_text: line 4, column 3: unknown line 'x'; lines are: order, move; "
        "line 5, column 10: stores: give a whole number; and 2 more"
    )
    assert wording.lines(message) == [
        "line 4, column 3: unknown line 'x' (the order format help lists the lines)",  # not a cut list
        "line 5, column 10: stores: give a whole number; and 2 more",
    ]
    said = wording.lines("stores_moves[1].amount: must be between 0 and 1000000", ["A to B", "C to D"])
    assert said == ["C to D, amount: must be between 0 and 1000000"]


def test_a_pasted_texts_blocks_name_their_ships_in_order() -> None:
    text = "# Cornwallis\norder br1fl\n  move ECH\n\n  ORDER BR2SL  # the second\n  stores 3\n"
    assert wording.pasted_ships(text) == ["BR1FL", "BR2SL"]
    r = common_pb2.Refusal(field="orders[1].stores", rule="3.4", message="too many")
    assert wording.refusals([r], "", wording.pasted_ships(text)) == ["BR2SL, stores: too many (rule 3.4)"]


def test_no_refusal_of_any_form_shows_an_internal_name() -> None:
    fields = [
        "orders[0].movement.port",
        "orders[0].movement.sea_areas[1]",
        "orders[2].amphibious.load_units[0]",
        "stores_moves[0].amount",
        "stores_moves[3].destination",
        "assignments[1].commander",
        "orders_text",
    ]
    for f in fields:
        said = wording.refusal(common_pb2.Refusal(field=f, rule="1.1", message="no"), ["BR1FL", "BR1SL"])
        assert not INTERNAL.search(said.split(":")[0]), said
