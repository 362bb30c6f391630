"""The campaign page's list of ships: one line per ship, by place and, in each
place, by squadron (rule 4.4), folded when the list is long."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from pate.v1 import desk_pb2

# Above this many ships the places and squadrons open folded (a minister's 213
# ships would otherwise be one long page); a player with fewer sees every line.
FOLD_ABOVE = 40


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    code: str  # the port or sea area, as the map names it
    squadrons: list[list[desk_pb2.MyShip]]
    ordered: int  # ships with orders, their own or a lead's (4.2)
    warned: int  # ships with a warning
    opened: bool  # shown unfolded when the page opens

    @property
    def ships(self) -> int:
        return sum(len(sq) for sq in self.squadrons)


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


def has_orders(s: desk_pb2.MyShip) -> bool:
    return s.has_orders or bool(s.effective.copied_from)


def places(ships: Sequence[desk_pb2.MyShip], keep_open: Collection[str] = ()) -> list[Place]:
    """The places of the list; a place holding a ship of ``keep_open`` (just
    ordered, or in the open panel) opens unfolded however long the list."""
    folded = len(ships) > FOLD_ABOVE
    out = []
    for name, squadrons in groups(ships):
        members = [s for sq in squadrons for s in sq]
        out.append(
            Place(
                name=name,
                code=members[0].port or members[0].sea_area,
                squadrons=squadrons,
                ordered=sum(1 for s in members if has_orders(s)),
                warned=sum(1 for s in members if s.warnings),
                opened=not folded or any(s.id in keep_open for s in members),
            )
        )
    return out


def folded(ships: Sequence[desk_pb2.MyShip]) -> bool:
    return len(ships) > FOLD_ABOVE
