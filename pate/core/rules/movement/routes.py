"""Where a ship may sail and on what course (rules 1.3, 1.6, 6.2, 6.3, 6.4, 6.11)."""

from __future__ import annotations

import heapq

from pate.core.world.geography import Direction, MapName, WorldMap
from pate.core.world.ships import AtSea, InAtlantic, InPort, Location


def sea_area_of(world_map: WorldMap, loc: Location) -> str | None:
    """The sea area a location lies in or is connected to (1.3)."""
    if isinstance(loc, AtSea):
        return loc.area
    if isinstance(loc, InPort):
        return world_map.ports[loc.port].sea_area
    return None


def sea_course(world_map: WorldMap, frm: str, to: str) -> Direction | None:
    """The direction in which sea area ``to`` lies from ``frm`` (rule 1.4)."""
    for direction, codes in world_map.sea_areas[frm].neighbours:
        if to in codes:
            return direction
    return None


def exit_course(world_map: WorldMap, port: str, area: str) -> Direction:
    """The course of a ship leaving ``port`` for ``area`` (rule 1.3).  A strait
    port's second sea area lies opposite its first, seen from the first (6.3)."""
    p = world_map.ports[port]
    if area == p.sea_area or p.strait_sea_area != area:
        return p.exit
    across = sea_course(world_map, p.sea_area, area)
    return across if across is not None else p.exit.opposite


def entry_course(world_map: WorldMap, port: str, area: str) -> Direction:
    """Entering a port is the reverse of leaving it."""
    return exit_course(world_map, port, area).opposite


def crosses_atlantic(world_map: WorldMap, frm: str, to: str) -> bool:
    """Rule 1.6: the two maps are joined only through the Atlantic."""
    return world_map.sea_areas[frm].map != world_map.sea_areas[to].map


def atlantic_course(world_map: WorldMap, frm: str) -> Direction:
    """Rule 1.6: west out of European waters, east out of American waters."""
    return Direction.WEST if world_map.sea_areas[frm].map is MapName.EUROPE else Direction.EAST


def atlantic_route_ok(world_map: WorldMap, frm: str, to: str, frigates_only: bool) -> bool:
    """Rule 6.11: from an edge sea area to an edge sea area of the other map;
    a group of frigates only may name any sea area of the other map."""
    if not world_map.sea_areas[frm].atlantic_edge:
        return False
    return frigates_only or world_map.sea_areas[to].atlantic_edge


def can_sail(world_map: WorldMap, loc: Location, to: str, frigates_only: bool) -> bool:
    """Whether one sea-area move from ``loc`` to ``to`` is possible (6.2, 6.4, 6.11)."""
    if to not in world_map.sea_areas:
        return False
    if isinstance(loc, InPort):
        return to in world_map.ports[loc.port].reachable_sea_areas
    if isinstance(loc, AtSea):
        if world_map.borders(loc.area, to):
            return True
        return crosses_atlantic(world_map, loc.area, to) and atlantic_route_ok(
            world_map, loc.area, to, frigates_only
        )
    return False


def course_of(world_map: WorldMap, loc: Location, to: str) -> Direction:
    """The course of a possible sea-area move."""
    if isinstance(loc, InPort):
        return exit_course(world_map, loc.port, to)
    assert isinstance(loc, AtSea)
    direct = sea_course(world_map, loc.area, to)
    return direct if direct is not None else atlantic_course(world_map, loc.area)


def sea_distance(world_map: WorldMap, a: str, b: str, atlantic: int) -> int:
    """Fewest sea-area moves from ``a`` to ``b``; crossing the Atlantic counts
    ``atlantic`` moves (used by rules 2.8 and 6.12).  Unreachable: 10**6."""
    areas = world_map.sea_areas
    best: dict[str, int] = {a: 0}
    heap: list[tuple[int, str]] = [(0, a)]
    while heap:
        d, area = heapq.heappop(heap)
        if area == b:
            return d
        if d > best.get(area, d):
            continue
        steps = [(n, 1) for n in areas[area].adjacent if n in areas]
        if areas[area].atlantic_edge:
            steps += [(c, atlantic) for c, s in areas.items() if s.map != areas[area].map and s.atlantic_edge]
        for nxt, w in sorted(steps):
            if d + w < best.get(nxt, 10**6):
                best[nxt] = d + w
                heapq.heappush(heap, (d + w, nxt))
    return 10**6


def place_area(world_map: WorldMap, loc: Location) -> str | None:
    """The sea area used to measure distances to a location."""
    if isinstance(loc, InAtlantic):
        return loc.destination
    return sea_area_of(world_map, loc)
