"""Effective orders: precedence (4.1), attachment copying (4.2), defaults (4.11).

Attachment chains are forbidden when an order is given (4.4), but orders of
one turn can still form them (SP2SL attaches to SP3SL while SP1SL attaches to
SP2SL, both valid when sent).  Copying then follows the chain to its head, so
every ship of the chain carries out the head's orders, and every ship of the
chain is attached to the head from then on (SP1SL follows SP3SL:
docs/rules/orders.md), so no chain outlives the turn; orders that form a
ring cancel the attachments of every ship in the ring for that turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from pate.core.orders.model import Amphibious, ShipOrder, default_order
from pate.core.world.ships import InAtlantic, Ship, ShipType, contact_key
from pate.core.world.state import WorldState


class Author(StrEnum):
    COMMANDER = "commander"
    DEPUTY = "deputy"
    MINISTER = "minister"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class SubmittedOrder:
    order: ShipOrder
    author: Author
    seq: int  # the order in which orders reached the desk


class Source(StrEnum):
    COMMANDER = "commander"
    DEPUTY = "deputy"
    DEFAULT = "default"
    COPIED = "copied"  # copied from the ship it is attached to


@dataclass(frozen=True, slots=True)
class EffectiveOrder:
    order: ShipOrder
    source: Source
    copied_from: str | None = None  # head of the attachment chain the order came from
    attached_to: str | None = None  # the ship's attachment once this turn's orders apply
    author: Author | None = None  # who wrote the ship's own order; None: no order (default)


def chosen_submissions(submitted: Iterable[SubmittedOrder]) -> dict[str, SubmittedOrder]:
    """Rule 4.1: the commander's last order wins; the deputy's last counts only
    when the commander sent none.  Ministers and administrators speak with the
    commander's voice."""
    best: dict[str, SubmittedOrder] = {}
    for s in submitted:
        cur = best.get(s.order.ship_id)
        if cur is None or _rank(s) > _rank(cur):
            best[s.order.ship_id] = s
    return best


def _rank(s: SubmittedOrder) -> tuple[int, int]:
    return (0 if s.author is Author.DEPUTY else 1, s.seq)


def _source(author: Author) -> Source:
    return Source.DEPUTY if author is Author.DEPUTY else Source.COMMANDER


def own_orders(ships: Mapping[str, Ship], submitted: Iterable[SubmittedOrder]) -> dict[str, EffectiveOrder]:
    """Each active ship's own order after precedence (4.1), or the default (4.11).

    An inactive ship has an order only when one was sent for it: the desk takes
    nothing for it but reactivation (2.6), which the resolver must see."""
    chosen = chosen_submissions(submitted)
    own: dict[str, EffectiveOrder] = {}
    for sid in sorted(ships):
        s = chosen.get(sid)
        if not ships[sid].active and s is None:
            continue
        if s is None:
            own[sid] = EffectiveOrder(default_order(sid), Source.DEFAULT)
        else:
            own[sid] = EffectiveOrder(s.order, _source(s.author), author=s.author)
    return own


def effective_orders(
    ships: Mapping[str, Ship], submitted: Iterable[SubmittedOrder]
) -> dict[str, EffectiveOrder]:
    """The order each active ship carries out this turn, with where it came from."""
    own = own_orders(ships, submitted)
    leads = attachment_leads(ships, {sid: e.order for sid, e in own.items()})
    out: dict[str, EffectiveOrder] = {}
    for sid, mine in own.items():
        head = _head(sid, leads)
        if head == sid:
            out[sid] = replace(mine, attached_to=leads[sid])
        else:
            copied = _copy(own[head].order, mine.order, ships[sid])
            out[sid] = EffectiveOrder(copied, Source.COPIED, head, head, mine.author)  # 4.4: no chains
    return out


def intended_lead(ship: Ship, order: ShipOrder) -> str | None:
    """The ship this one means to follow (rules 4.2, 4.4): an attach order
    replaces the attachment, a detach order ends it, no order keeps it (4.11)."""
    if order.detach:
        return None
    return order.attach_to or ship.attached_to


def attachment_leads(ships: Mapping[str, Ship], orders: Mapping[str, ShipOrder]) -> dict[str, str | None]:
    """The ship each ordered ship is attached to this turn; leads that are not
    among the ordered (active) ships, and rings, come to nothing."""
    leads: dict[str, str | None] = {}
    for sid in sorted(orders):
        lead = intended_lead(ships[sid], orders[sid])
        leads[sid] = lead if lead in orders and lead != sid else None
    done: set[str] = set()
    for start in sorted(leads):
        path: list[str] = []
        node: str | None = start
        while node is not None and node not in done and node not in path:
            path.append(node)
            node = leads[node]
        if node is not None and node in path:
            for member in path[path.index(node) :]:
                leads[member] = None
        done.update(path)
    return leads


def _head(sid: str, leads: Mapping[str, str | None]) -> str:
    lead = leads[sid]
    while lead is not None:
        sid, lead = lead, leads[lead]
    return sid


def _copy(lead_order: ShipOrder, own: ShipOrder, ship: Ship) -> ShipOrder:
    """Rule 4.2: the lead's orders replace the attached ship's, except that a
    transport group keeps its own amphibious orders; the attachment itself and
    administrative orders are the attached ship's own."""
    amphibious = own.amphibious if ship.type is ShipType.TR else Amphibious()
    return replace(
        lead_order,
        ship_id=ship.id,
        attach_to=own.attach_to,
        detach=False,
        admin=own.admin,
        amphibious=amphibious,
    )


def attachments_after_orders(world: WorldState, effective: Mapping[str, EffectiveOrder]) -> WorldState:
    """Rules 4.2, 4.4: record each ship's attachment as its orders leave it, for
    the resolver to apply at the start of the turn."""
    changed = {
        sid: replace(ship, attached_to=effective[sid].attached_to)
        for sid, ship in sorted(world.ships.items())
        if sid in effective and ship.attached_to != effective[sid].attached_to
    }
    return world.with_ships(changed) if changed else world


def end_broken_attachments(world: WorldState) -> WorldState:
    """Rule 4.2: attachments end when the ships finish a turn out of contact.

    Called by the resolver at the end of a turn.  Ships that entered the
    Atlantic together stay together (6.11), so they count as in contact; an
    attachment to a ship that is gone or inactive ends too.
    """
    changed: dict[str, Ship] = {}
    for sid, ship in sorted(world.ships.items()):
        if ship.attached_to is None:
            continue
        lead = world.ships.get(ship.attached_to)
        if lead is None or not (ship.active and lead.active) or not together(ship, lead):
            changed[sid] = replace(ship, attached_to=None)
    return world.with_ships(changed) if changed else world


def together(a: Ship, b: Ship) -> bool:
    """In contact (5.1), or crossing the Atlantic in one group (6.11)."""
    if isinstance(a.location, InAtlantic) and isinstance(b.location, InAtlantic):
        return a.location.group == b.location.group
    key = contact_key(a.location)
    return key is not None and key == contact_key(b.location)
