"""Whose order each ship carried out, written into the events about her.

The report's "why" of a move or a battle names whose order the ship obeyed
(rule 4.1), the default of rule 4.11 when nobody sent one, or the ship she
is attached to (4.2), as pate/core/orders/explain.py words it for the order
desk.  The resolver sees only the orders; the effective orders know their
authors, so the turn's events are marked after the phases, from the same
effective orders a replay feeds back: the same bytes either way.

The knowledge keeps only the entries of the player's own ships (who wrote
someone else's orders is nobody's business, docs/rules/intel.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.orders.effective import EffectiveOrder, Source

# Events a ship's orders decided: her moves, her contact (4.6) and her battle (4.7).
ORDERED = frozenset(
    {
        "sailed",
        "held_by_wind",
        "held_by_damage",
        "held_in_port",
        "course_impossible",
        "no_enemy_port",
        "shift_blocked",
        "stopped",
        "evaded",
        "met_enemy",
        "pursued",
        "pursuit_abandoned",
        "entered_atlantic",
        "battle",
        "escaped",
    }
)
ORDERED_PHASES = frozenset({Phase.MOVEMENT, Phase.COMBAT})


def order_note(sid: str, effective: Mapping[str, EffectiveOrder]) -> dict[str, object]:
    """``by``: whose order, "default" for rule 4.11; a copied order (4.2) adds
    ``copied_from``, and ``by`` is then the author of the lead's order.  With
    the parts of the order a why reads: the contact order (4.6, its numbers
    when given) and the combat stance (4.7)."""
    e = effective[sid]
    lead = effective.get(e.copied_from) if e.source is Source.COPIED and e.copied_from else None
    author = lead.author if lead is not None else e.author
    contact = e.order.contact
    note: dict[str, object] = {
        "by": author.value if author is not None else "default",
        "contact": contact.mode.value,
        "stance": e.order.combat.stance.value,
    }
    if lead is not None and e.copied_from is not None:
        note["copied_from"] = e.copied_from
    if contact.minimum is not None:
        note["minimum"] = contact.minimum
    if contact.maximum is not None:
        note["maximum"] = contact.maximum
    return note


def _ships_of(event: Event) -> list[str]:
    if event.kind == "battle":
        return [str(s.get("id")) for s in event.data.get("ships", ()) if isinstance(s, Mapping)]
    return list(event.ships)


# Rule 3.4: a ship that ran out of stores "stops responding to orders" and
# sails home on the default order with a course to a harbor (rules/supply.py).
SENT_HOME = {"by": "default", "sent_home": True, "contact": "accept", "stance": "accept"}


def mark_orders(events: Sequence[Event], effective: Mapping[str, EffectiveOrder]) -> tuple[Event, ...]:
    """The events with ``orders``: ship id -> whose order, for the ships the
    event is about (a battle's: every ship in it)."""
    home = {s for ev in events if ev.kind == "out_of_stores" and ev.data.get("homing") for s in ev.ships}
    out = []
    for ev in events:
        if ev.kind not in ORDERED or ev.phase not in ORDERED_PHASES:
            out.append(ev)
            continue
        notes = {
            sid: dict(SENT_HOME) if sid in home else order_note(sid, effective)
            for sid in sorted(_ships_of(ev))
            if sid in effective
        }
        out.append(replace(ev, data={**ev.data, "orders": notes}) if notes else ev)
    return tuple(out)
