"""What players met on the web desk: the order form's and the campaign page's
wording (the form parsed, the templates read and the ship lines made without
a server)."""

from __future__ import annotations

from pathlib import Path

from pate.v1 import desk_pb2
from services.web.forms import CHOICES, order_from_form

TEMPLATES = Path(__file__).parents[3] / "services" / "web" / "templates"


def test_evade_is_not_refused_for_the_join_allies_box_ticked_by_default() -> None:
    """ "Join allies" is ticked by default; rule 4.6: an evading ship joins no one."""
    evade = order_from_form({"0.mode": "evade", "0.join_allies": "on"}, 0, "FR1FR")
    assert evade.contact.mode == "evade" and not evade.contact.join_allies
    accept = order_from_form({"0.mode": "", "0.join_allies": "on"}, 0, "FR1FR")
    assert accept.contact.join_allies


def test_drop_downs_show_words_not_raw_values() -> None:
    source = (TEMPLATES / "order_form.html").read_text()
    assert '{{ o.replace("_", " ") }}</option>' in source
    assert any("_" in v for values in CHOICES.values() for v in values)  # there are raw values to word


def _ship_line(ship: desk_pb2.MyShip) -> str:
    """The campaign page's line of a ship, as services/web/ship_list.py words it for the template."""
    from services.web.ship_list import row

    line = row(ship)
    return f"{line.source_words} {line.order}" if line.source else line.order


def test_an_inactive_ships_status_line_says_why_it_carries_out_nothing() -> None:
    line = _ship_line(desk_pb2.MyShip(id="FR9SL", active=False, location_kind="port"))
    assert "inactive (rule 2.6)" in line and "Will carry out" not in line and "Why" not in line
    crossing = _ship_line(desk_pb2.MyShip(id="FR9SL", active=True, location_kind="atlantic"))
    assert "crossing the Atlantic (rule 6.11)" in crossing


def test_refusals_name_the_ship_and_the_line_one_per_line() -> None:
    from pate.v1 import common_pb2
    from services.web import wording

    r = common_pb2.Refusal(field="orders[0].movement.port", rule="6.5", message="no such port")
    assert wording.refusal(r, ["FR3FL"]) == "FR3FL, movement port: no such port (rule 6.5)"
    assert wording.field("stores_moves[0].amount") == "store move 1, amount"
    assert wording.lines("orders_text: line 7, column 3: bad word; line 8, column 1: bad") == [
        "line 7, column 3: bad word",
        "line 8, column 1: bad",
    ]
