"""The map on the campaign page: the player's own ships where they are, on
the real geography (pate.render), one map for each side of the Atlantic he
has ships on.  Built from the ships the desk returns to him (his own), so it
shows nothing his ship list does not."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pate.core.world.geography import MapName, WorldMap
from pate.datafiles import load_world_map
from pate.render.style import MAP_TITLES, Icon
from pate.render.svg_map import render_map
from pate.v1 import desk_pb2

OWN = "#0b5394"  # the player's own ships
MARKS = ((OWN, "my ships (their number)"),)


@dataclass(frozen=True, slots=True)
class PlaceOnMap:
    place: str  # a sea-area code or a port name
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShipMap:
    which: str
    title: str
    svg: str
    places: tuple[PlaceOnMap, ...]


def _place(s: desk_pb2.MyShip) -> str:
    return s.port or s.sea_area


def _map_of(world: WorldMap, place: str) -> MapName | None:
    area = world.sea_areas.get(place)
    if area is None and place in world.ports:
        area = world.sea_areas.get(world.ports[place].sea_area)
    return area.map if area else None


def ship_maps(ships: Sequence[desk_pb2.MyShip]) -> list[ShipMap]:
    world = load_world_map()
    by_map: dict[MapName, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for s in ships:
        which = _map_of(world, _place(s))
        if which is not None:
            by_map[which][_place(s)].append(s.id)
    out = []
    for which in sorted(by_map, key=lambda m: m.value):
        places = tuple(PlaceOnMap(p, tuple(sorted(ids))) for p, ids in sorted(by_map[which].items()))
        out.append(ShipMap(which.value, MAP_TITLES[which], _svg(which, places), places))
    return out


@lru_cache(maxsize=256)
def _svg(which: MapName, places: tuple[PlaceOnMap, ...]) -> str:
    """The same ships in the same places draw the same map: kept."""
    world = load_world_map()
    icons = [
        Icon(at=p.place, label=_count(p.ships), colour=OWN, title=", ".join(p.ships[:40])) for p in places
    ]
    highlight = frozenset(p.place for p in places if p.place in world.sea_areas)
    title = f"My ships: {MAP_TITLES[which]}"
    return render_map(world, which, highlight=highlight, icons=icons, title=title, marks=MARKS)


def _count(ships: tuple[str, ...]) -> str:
    return ships[0] if len(ships) == 1 else f"{len(ships)} ships"
