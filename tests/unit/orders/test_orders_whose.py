"""Whose order each ship carried out, as the turn's events record it for the
report's "why" (pate/core/orders/whose.py; rules 4.1, 4.2, 4.11)."""

from __future__ import annotations

from pate.core.events import Event, Phase
from pate.core.orders.effective import Author, effective_orders
from pate.core.orders.model import Contact, ContactMode, ShipOrder
from pate.core.orders.whose import mark_orders
from tests.support.orders_world import sea, ship, submitted, world

W = world([ship(sid, sea("SOC")) for sid in ("SP1SL", "SP2SL", "SP3SL", "SP4SL", "SP5SL")])


def test_rule_4_1_4_2_4_11_whose_order_each_ship_carried_out() -> None:
    """Rule 4.1: the deputy's order counts when the commander sent none, the
    minister's as the commander's; 4.2: an attached ship carries out her
    lead's; 4.11: a ship with no order carries out the default."""
    evade = Contact(mode=ContactMode.EVADE, minimum=2)
    orders = submitted(
        (ShipOrder("SP1SL", contact=evade), Author.DEPUTY),
        (ShipOrder("SP2SL", attach_to="SP1SL"), Author.COMMANDER),
        (ShipOrder("SP3SL"), Author.MINISTER),
        (ShipOrder("SP4SL"), Author.ADMIN),
    )
    effective = effective_orders(W.ships, orders)
    ids = ("SP1SL", "SP2SL", "SP3SL", "SP4SL", "SP5SL")
    moved = Event(Phase.MOVEMENT, "held_by_wind", ids, "SOC (tactical area 1)", (), {"step": 3})
    (marked,) = mark_orders([moved], effective)
    notes = marked.data["orders"]
    assert notes["SP1SL"] == {"by": "deputy", "contact": "evade", "stance": "accept", "minimum": 2}
    assert notes["SP2SL"]["by"] == "deputy" and notes["SP2SL"]["copied_from"] == "SP1SL"
    assert notes["SP2SL"]["contact"] == "evade"  # the lead's contact order, copied (4.2)
    assert notes["SP3SL"]["by"] == "minister" and notes["SP4SL"]["by"] == "admin"
    assert notes["SP5SL"] == {"by": "default", "contact": "accept", "stance": "accept"}
    assert marked.data["step"] == 3


def test_events_no_order_decided_are_left_as_they_were() -> None:
    """A storm or a repair is no one's order: its event carries no ``orders``."""
    effective = effective_orders(W.ships, [])
    storm = Event(Phase.MOVEMENT, "storm_damage", ("SP1SL",), "SOC", (), {"hull": 1})
    repair = Event(Phase.REPAIR, "sailed", ("SP1SL",), "SOC", (), {})
    assert mark_orders([storm, repair], effective) == (storm, repair)


def test_rule_3_4_a_ship_out_of_stores_answers_no_orders() -> None:
    """Rule 3.4: "Ships that run out of stores suffer crew loss, and stop
    responding to orders. They will automatically sail to the nearest
    same-side or actively allied harbor to replenish."""
    effective = effective_orders(W.ships, submitted((ShipOrder("SP1SL"), Author.COMMANDER)))
    starving = Event(Phase.SUPPLY, "out_of_stores", ("SP1SL",), "SOC", (), {"homing": True})
    home = Event(Phase.MOVEMENT, "sailed", ("SP1SL", "SP2SL"), "SOC", (), {"to": "NOC"})
    _, marked = mark_orders([starving, home], effective)
    assert marked.data["orders"]["SP1SL"] == {
        "by": "default",
        "sent_home": True,
        "contact": "accept",
        "stance": "accept",
    }
    assert marked.data["orders"]["SP2SL"]["by"] == "default"
    assert "sent_home" not in marked.data["orders"]["SP2SL"]
