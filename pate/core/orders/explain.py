"""Why a ship carries out the order it does: the reason for each part.

For each part of the order form the explanation says whether it is the ship's
own order (and whose: commander, deputy, naval minister, administrator), the
default of rule 4.11, or copied from the ship it is attached to (4.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from pate.core.orders.effective import (
    Author,
    EffectiveOrder,
    Source,
    SubmittedOrder,
    effective_orders,
    intended_lead,
)
from pate.core.orders.model import AdminKind, Commerce, ShipOrder
from pate.core.world.ships import Ship, ShipType

# The parts of the order form (4.4 to 4.9) and the administrative orders.
PARTS: tuple[str, ...] = (
    "attachment",
    "movement",
    "contact",
    "combat",
    "commerce",
    "stores",
    "amphibious",
    "admin",
)


@dataclass(frozen=True, slots=True)
class PartReason:
    part: str  # one of PARTS
    source: Source  # COPIED, or the ship's own source
    author: Author | None  # who wrote the order this part comes from; None: default
    copied_from: str | None  # the ship it was copied from
    reason: str  # a sentence for the player


@dataclass(frozen=True, slots=True)
class Explanation:
    ship_id: str
    effective: EffectiveOrder
    parts: tuple[PartReason, ...]

    def part(self, name: str) -> PartReason:
        return next(p for p in self.parts if p.part == name)

    def text(self) -> str:
        return "\n".join(f"{p.part}: {p.reason}" for p in self.parts)


def explain_orders(ships: Mapping[str, Ship], submitted: Iterable[SubmittedOrder]) -> dict[str, Explanation]:
    return explain(ships, effective_orders(ships, submitted))


def explain(ships: Mapping[str, Ship], effective: Mapping[str, EffectiveOrder]) -> dict[str, Explanation]:
    return {sid: _explain(ships[sid], e, effective) for sid, e in sorted(effective.items())}


def _explain(ship: Ship, e: EffectiveOrder, effective: Mapping[str, EffectiveOrder]) -> Explanation:
    own = _whose(e.author)
    parts = [PartReason("attachment", _own_source(e), e.author, None, _attachment(ship, e, own))]
    head = effective.get(e.copied_from) if e.copied_from else None
    for name in PARTS[1:]:
        keeps_own = name == "admin" or (name == "amphibious" and ship.type is ShipType.TR)
        if head is None or e.copied_from is None:
            parts.append(PartReason(name, e.source, e.author, None, own))
        elif keeps_own:
            why = own + (
                " (rule 4.2: amphibious orders of a transport group are its own)"
                if name == "amphibious"
                else ""
            )
            parts.append(PartReason(name, _own_source(e), e.author, None, why))
        elif name == "amphibious":
            why = f"none: amphibious orders are not copied from {e.copied_from} (rule 4.2)"
            parts.append(PartReason(name, Source.COPIED, head.author, e.copied_from, why))
        else:
            why = f"copied from {e.copied_from} (rule 4.2), whose order is {_whose(head.author)}"
            parts.append(PartReason(name, Source.COPIED, head.author, e.copied_from, why))
    notes = what_it_does(e.order)
    parts = [replace(p, reason=f"{p.reason}; {notes[p.part]}") if p.part in notes else p for p in parts]
    return Explanation(ship.id, e, tuple(parts))


def what_it_does(order: ShipOrder) -> dict[str, str]:
    """What parts of the order will do that the form alone does not say
    (docs/rules/orders.md, decisions on commerce and contact and on combining)."""
    notes: dict[str, str] = {}
    if order.commerce is Commerce.RAID:
        notes["contact"] = notes["commerce"] = (
            "raiding commerce, the ship pursues the enemies it meets (rule 4.6 with the recovered page: "
            "a raid order forces contact pursue; the desk refuses any other contact order with it)"
        )
    elif order.commerce is Commerce.CONVOY:
        notes["contact"] = notes["commerce"] = (
            "convoying commerce, the ship accepts contact and neither pursues nor evades (rule 4.6 "
            "with the recovered page: a convoy order forces contact accept; the desk refuses pursue "
            "or evade with it)"
        )
    shift = order.combat.closing_shift
    if shift is not None:
        notes["combat"] = (
            f"in a melee of a purely British force under Nelson this turn, {shift} is taken off the "
            f"closing roll and added to his casualty roll (EiA rules 12.2.6.1.4.2, 12.2.7.2)"
        )
    combines = [a.target for a in order.admin if a.kind is AdminKind.COMBINE]
    if combines:
        notes["admin"] = (
            f"the groups combine at the end of the turn only if {combines[0]} and this group are then in "
            "the same place: one tactical area at sea, or both in the harbor or both in the coastal waters "
            "of a port (rule 2.5 with the recovered page)"
        )
    return notes


def _own_source(e: EffectiveOrder) -> Source:
    if e.author is None:
        return Source.DEFAULT
    return Source.DEPUTY if e.author is Author.DEPUTY else Source.COMMANDER


def _whose(author: Author | None) -> str:
    return {
        None: "the default order (rule 4.11: no order was sent)",
        Author.COMMANDER: "the commander's last order (rule 4.1)",
        Author.DEPUTY: "the deputy commander's last order (rule 4.1: the commander sent none)",
        Author.MINISTER: "the naval minister's last order (it counts as the commander's, rule 4.1)",
        Author.ADMIN: "a game administrator's last order (it counts as the commander's, rule 4.1)",
    }[author]


def _attachment(ship: Ship, e: EffectiveOrder, own: str) -> str:
    order = e.order
    wanted = intended_lead(ship, order) if not order.detach else None
    if order.detach:
        return f"detached from {ship.attached_to or 'no ship'} by {own}"
    if e.attached_to is None and wanted is not None:
        return f"not attached: {wanted} is not on the map, or the attach orders form a ring"
    if order.attach_to is not None:
        return f"attached to {order.attach_to} by {own} (rule 4.4)"
    if e.attached_to is not None:
        return (
            f"stays attached to {e.attached_to} (rule 4.2: until detached, or out of contact at a turn's end)"
        )
    return "not attached"
