"""The campaign page's list of ships: one line per ship, by place and, in each
place, by squadron (rule 4.4), folded when the list is long."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from pate.v1 import desk_pb2
from services.web import wording
from services.web.forms import describe_order

SOURCE_WORDS = {  # whose order a ship carries out (rules 4.1, 4.2, 4.11)
    "commander": "the commander's order",
    "deputy": "the deputy commander's order",
    "default": "the default orders (rule 4.11)",
    "copied": "copied from",
}

# Above this many ships the places and squadrons open folded (a minister's 213
# ships would otherwise be one long page); a player with fewer sees every line.
FOLD_ABOVE = 40


@dataclass(frozen=True, slots=True)
class Row:
    """One ship's line, its words made once (a minister's page has 213)."""

    id: str
    name: str
    location: str
    source: str  # whose order it carries out (a class name), "" when it carries out none
    source_words: str
    order: str  # what it will carry out, or why it carries out nothing
    warnings: str
    facts: str
    can_order: bool  # a ship crossing the Atlantic takes no orders (6.11)


@dataclass(frozen=True, slots=True)
class Squadron:
    rows: list[Row]  # the lead first (4.4)
    opened: bool


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    code: str  # the port or sea area, as the map names it
    squadrons: list[Squadron]
    ordered: int  # ships with orders, their own or a lead's (4.2)
    warned: int  # ships with a warning
    opened: bool  # shown unfolded when the page opens

    @property
    def ships(self) -> int:
        return sum(len(sq.rows) for sq in self.squadrons)


def groups(ships: Sequence[desk_pb2.MyShip]) -> list[tuple[str, list[list[desk_pb2.MyShip]]]]:
    """Ships by location, and at each location by squadron: a lead first,
    then the ships attached to it (rule 4.4)."""
    ids = {s.id for s in ships}
    by_place: dict[str, list[desk_pb2.MyShip]] = defaultdict(list)
    for s in ships:
        by_place[s.location].append(s)
    out = []
    for place in sorted(by_place):
        here = by_place[place]
        attached: dict[str, list[desk_pb2.MyShip]] = defaultdict(list)
        leads = []
        for s in here:
            lead = s.effective.order.attach_to or s.attached_to
            if lead and lead in ids and not s.effective.order.detach:
                attached[lead].append(s)
            else:
                leads.append(s)
        squadrons = [[lead, *attached.pop(lead.id, [])] for lead in leads]
        squadrons.extend(list(rest) for rest in attached.values())
        out.append((place, squadrons))
    return out


def ordered_ids(ships: Sequence[desk_pb2.MyShip]) -> set[str]:
    """Ships with orders of their own, or attached to a lead that has some (rule 4.2): a
    ship that copies a lead of his with no orders only keeps the defaults, and is not counted."""
    unordered = {s.id for s in ships if not s.has_orders}
    return {s.id for s in ships if s.has_orders or s.effective.copied_from not in unordered | {""}}


def _idle(s: desk_pb2.MyShip) -> str:
    if s.location_kind == "atlantic":
        return "Carries out no orders this turn: it is crossing the Atlantic (rule 6.11)."
    if not s.active:
        return "Carries out no orders this turn: it is inactive (rule 2.6)."
    return "Carries out no orders this turn: none apply to it."


def row(s: desk_pb2.MyShip) -> Row:
    eff = s.effective
    words = SOURCE_WORDS.get(eff.source, eff.source)
    if eff.copied_from:
        words = f"{words} {eff.copied_from} (rule 4.2)"
    facts = f"stores {s.stores} · hull {s.hull} · rigging {s.rigging}"
    if s.attached_to:
        facts += f" · attached to {s.attached_to}"
    return Row(
        id=s.id,
        name=s.name,
        location=s.location,
        source=eff.source,
        source_words=words,
        order=describe_order(eff.order) if eff.source else _idle(s),
        warnings="; ".join(s.warnings),
        facts=f"{facts} · you are its {wording.roles([s.authority])}",
        can_order=s.location_kind != "atlantic",
    )


def places(ships: Sequence[desk_pb2.MyShip], keep_open: Collection[str] = ()) -> list[Place]:
    """The places of the list; a place or squadron holding a ship of
    ``keep_open`` (just ordered, or in the open panel) opens unfolded however
    long the list."""
    fold = folded(ships)
    ordered = ordered_ids(ships)
    out = []
    for name, squadrons in groups(ships):
        members = [s for sq in squadrons for s in sq]
        out.append(
            Place(
                name=name,
                code=members[0].port or members[0].sea_area,
                squadrons=[
                    Squadron([row(s) for s in sq], not fold or any(s.id in keep_open for s in sq))
                    for sq in squadrons
                ],
                ordered=sum(1 for s in members if s.id in ordered),
                warned=sum(1 for s in members if s.warnings),
                opened=not fold or any(s.id in keep_open for s in members),
            )
        )
    return out


def folded(ships: Sequence[desk_pb2.MyShip]) -> bool:
    return len(ships) > FOLD_ABOVE
