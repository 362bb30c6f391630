"""The summary at the top of a report: the player's ships by
place and squadron, the ships whose orders count, and what needs a
commander's attention (low stores, damage, arrivals from the Atlantic, ships
out of stores sailing home).  Short enough for one screen for a player of
the grand 1805 scenario: one line a place, ships grouped by squadron."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pate.core.intel.model import PlayerKnowledge, ShipReport
from pate.core.rules.detection import ship_sort_key
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InAtlantic, InPort
from pate.reports.words import location_text

LOW_STORES = 3  # the web desk's warning too: three turns or fewer left
PLACES_SHOWN = 40  # more places than this are counted, not listed (one screen)


@dataclass(frozen=True, slots=True)
class Squadron:
    lead: str
    attached: tuple[str, ...]  # every ship attached to the lead, directly or not

    def text(self) -> str:
        return f"{self.lead}+{len(self.attached)}" if self.attached else self.lead


def _lead_of(sid: str, by_id: dict[str, ShipReport]) -> str:
    seen = {sid}
    while (up := by_id[sid].attached_to) is not None and up in by_id and up not in seen:
        seen.add(up)
        sid = up
    return sid


def squadrons(ships: Iterable[ShipReport]) -> list[Squadron]:
    """Leads (ships attached to none of these) with all ships under them (4.2)."""
    ships = list(ships)
    by_id = {r.id: r for r in ships}
    groups: dict[str, list[str]] = {}
    for r in ships:
        groups.setdefault(_lead_of(r.id, by_id), []).append(r.id)
    return [
        Squadron(lead, tuple(sorted((s for s in members if s != lead), key=ship_sort_key)))
        for lead, members in sorted(groups.items(), key=lambda kv: ship_sort_key(kv[0]))
    ]


def _place_key(r: ShipReport) -> tuple[int, str, int]:
    loc = r.location
    if isinstance(loc, InPort):
        return (0, loc.port, 0 if loc.harbor else 1)
    if isinstance(loc, AtSea):
        return (1, loc.area, 0)  # a sea area is one place here, whatever the tactical area
    assert isinstance(loc, InAtlantic)
    return (2, loc.destination, 0)


def _damage(r: ShipReport) -> str:
    parts = [f"hull {r.hull}"] * bool(r.hull) + [f"rigging {r.rigging}"] * bool(r.rigging)
    return f"{r.id} ({', '.join(parts)})"


def _own_events(k: PlayerKnowledge, kind: str, **data: object) -> list[str]:
    own = {r.id for r in k.ships}
    out: set[str] = set()
    for e in k.events:
        if e.kind == kind and all(e.data.get(key) == v for key, v in data.items()):
            out.update(s for s in e.ships if s in own)
    return sorted(out, key=ship_sort_key)


def _ids(ids: list[str]) -> str:
    return ", ".join(ids)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _legend(squads: list[Squadron]) -> list[str]:
    """Rule 4.2 in the player's own terms: the first of their squadrons
    with ships attached; none when every ship sails alone."""
    group = next((g for g in squads if g.attached), None)
    if group is None:
        return []
    n = len(group.attached)
    them = "the ship attached to her, who carries" if n == 1 else f"the {n} ships attached to her, who carry"
    return [f"({group.text()}: {group.lead} and {them} out her orders, rule 4.2)"]


def summary_lines(k: PlayerKnowledge, world_map: WorldMap) -> list[str]:
    """The summary, line by line; empty when the player has no ships."""
    active = [r for r in k.ships if r.active]
    laid_up = [r for r in k.ships if not r.active]
    if not k.ships:
        return []
    squads = squadrons(active)
    places: dict[tuple[int, str, int], list[ShipReport]] = {}
    for r in sorted(active, key=_place_key):
        places.setdefault(_place_key(r), []).append(r)
    lines = [
        f"SUMMARY - {_count(len(active), 'ship or transport group', 'ships and transport groups')}"
        f" in {_count(len(squads), 'squadron', 'squadrons')} in {_count(len(places), 'place', 'places')}"
        + (f"; {len(laid_up)} laid up" if laid_up else ""),
        *_legend(squads),
    ]
    for i, (_, here) in enumerate(places.items()):
        if i == PLACES_SHOWN:
            rest = sum(len(v) for v in list(places.values())[PLACES_SHOWN:])
            more = _count(len(places) - PLACES_SHOWN, "more place", "more places")
            lines.append(f"  ... and {_count(rest, 'ship', 'ships')} in {more}")
            break
        groups = squadrons(here)
        what = ", ".join(g.text() for g in groups)
        lines.append(f"  {location_text(world_map, here[0].location)}: {len(here)} - {what}")
    leads = [g.lead for g in squads if not isinstance(_location(k, g.lead), InAtlantic)]
    if leads:
        lines.append(f"To order ({len(leads)}, the leads and single ships): {_ids(leads)}")
    crossing = [g.lead for g in squads if isinstance(_location(k, g.lead), InAtlantic)]
    if crossing:
        lines.append(f"Crossing the Atlantic, no orders taken (6.11): {_ids(crossing)}")
    low = sorted((r for r in active if r.stores <= LOW_STORES), key=lambda r: ship_sort_key(r.id))
    if low:
        lines.append(f"Stores {LOW_STORES} or fewer: " + ", ".join(f"{r.id} ({r.stores})" for r in low))
    hurt = sorted((r for r in active if r.hull or r.rigging), key=lambda r: ship_sort_key(r.id))
    if hurt:
        lines.append("Damaged: " + ", ".join(_damage(r) for r in hurt))
    arrived = _own_events(k, "arrived", came_from="Atlantic Ocean")
    if arrived:
        lines.append(f"Arrived from the Atlantic: {_ids(arrived)}")
    homing = _own_events(k, "out_of_stores", homing=True)
    if homing:
        lines.append(f"Out of stores, sailing home (rule 3.4): {_ids(homing)}")
    if k.lost:
        lines.append(f"Lost this turn: {_ids(sorted(k.lost, key=ship_sort_key))}")
    return lines


def _location(k: PlayerKnowledge, sid: str) -> object:
    return next(r.location for r in k.ships if r.id == sid)
