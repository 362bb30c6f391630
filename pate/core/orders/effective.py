"""Effective orders: precedence (4.1), attachment copying (4.2), defaults (4.11)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from pate.core.orders.model import ShipOrder, default_order
from pate.core.world.ships import Ship, ShipType


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
    copied_from: str | None = None


def chosen_orders(submitted: Iterable[SubmittedOrder]) -> dict[str, tuple[ShipOrder, Source]]:
    """Rule 4.1: the commander's last order wins; the deputy's last counts only
    when the commander sent none.  Ministers and administrators speak with the
    commander's voice."""
    best: dict[str, tuple[int, int, ShipOrder, Source]] = {}
    for s in submitted:
        rank = 0 if s.author is Author.DEPUTY else 1
        source = Source.DEPUTY if rank == 0 else Source.COMMANDER
        key = s.order.ship_id
        cur = best.get(key)
        if cur is None or (rank, s.seq) > (cur[0], cur[1]):
            best[key] = (rank, s.seq, s.order, source)
    return {k: (v[2], v[3]) for k, v in best.items()}


def effective_orders(
    ships: Mapping[str, Ship], submitted: Iterable[SubmittedOrder]
) -> dict[str, EffectiveOrder]:
    """The order each active ship carries out this turn, with where it came from."""
    chosen = chosen_orders(submitted)
    own: dict[str, EffectiveOrder] = {}
    for sid, ship in ships.items():
        if not ship.active:
            continue
        if sid in chosen:
            order, source = chosen[sid]
            own[sid] = EffectiveOrder(order, source)
        else:
            own[sid] = EffectiveOrder(default_order(sid), Source.DEFAULT)

    out: dict[str, EffectiveOrder] = {}
    for sid in sorted(own):
        mine = own[sid]
        lead = _lead(ships[sid], mine.order)
        if lead is None or lead not in own:
            out[sid] = mine
            continue
        out[sid] = EffectiveOrder(_copy(own[lead].order, mine.order, ships[sid]), Source.COPIED, lead)
    return out


def _lead(ship: Ship, order: ShipOrder) -> str | None:
    """The ship whose orders this one follows (rule 4.2, 4.4): an attach order
    replaces the attachment, a detach order ends it."""
    if order.detach:
        return None
    return order.attach_to or ship.attached_to


def _copy(lead_order: ShipOrder, own: ShipOrder, ship: Ship) -> ShipOrder:
    """Rule 4.2: the lead's orders replace the attached ship's, except that a
    transport group keeps its own amphibious orders; the attachment itself is
    the attached ship's own."""
    copied = replace(lead_order, ship_id=ship.id, attach_to=own.attach_to, detach=False, admin=own.admin)
    if ship.type is ShipType.TR:
        copied = replace(copied, amphibious=own.amphibious)
    else:
        copied = replace(copied, amphibious=type(own.amphibious)())
    return copied
