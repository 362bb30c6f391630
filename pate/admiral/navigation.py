"""Courses with the winds (rules 6.1 to 6.6, 6.11).

A way is chosen by its expected cost: each step between sea areas costs the
turns a ship expects to spend on it, 100 over its chance of sailing (6.6),
with the wind the report gives where the player has ships and the chance
across the wind elsewhere (the wind there is unknown; across is the middle
of the table).  The move line names at most two sea areas and a port last,
entered only from a sea area it lies on (6.2, 6.5), never straight from
another port; and it never leaves the map except by a frigate's crossing.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pate.core.orders.model import Movement
from pate.core.rules.movement.params import MovementRules, kind_of
from pate.core.rules.winds import Heading, heading
from pate.core.world.geography import Direction, WorldMap
from pate.core.world.ships import ShipType
from pate.core.world.state import Wind


@dataclass(frozen=True, slots=True)
class Chart:
    """The map, the sailing chances and the winds the player knows."""

    map: WorldMap
    sailing: MovementRules
    winds: Mapping[str, Wind]

    def course(self, here: str, there: str) -> Direction | None:
        for d, codes in self.map.sea_areas[here].neighbours:
            if there in codes:
                return d
        return None

    def step_cost(self, kind: str, here: str, there: str) -> float:
        course = self.course(here, there)
        wind = self.winds.get(here)
        way = heading(course, wind) if course is not None and wind is not None else Heading.ACROSS
        chance = self.sailing.first[(kind, way)]
        return 100.0 / max(chance, 5)

    def way(self, ship_type: str, start: str, goals: Iterable[str]) -> list[str] | None:
        """The sea areas after ``start`` on the cheapest way to one of
        ``goals`` on the same map (Dijkstra, ties broken by sea area code so
        the same knowledge gives the same way); [] when ``start`` is a goal,
        None when no goal can be reached."""
        targets = set(goals)
        if start in targets:
            return []
        kind = kind_of(ShipType(ship_type))
        home_map = self.map.sea_areas[start].map
        best: dict[str, float] = {start: 0.0}
        came: dict[str, str] = {}
        queue: list[tuple[float, str]] = [(0.0, start)]
        while queue:
            cost, here = heapq.heappop(queue)
            if cost > best.get(here, float("inf")):
                continue
            if here in targets:
                return _back(came, start, here)
            for nxt in sorted(self.map.sea_areas[here].adjacent):
                if self.map.sea_areas[nxt].map != home_map:
                    continue
                c = cost + self.step_cost(kind, here, nxt)
                if c < best.get(nxt, float("inf")):
                    best[nxt] = c
                    came[nxt] = here
                    heapq.heappush(queue, (c, nxt))
        return None

    def distance(self, ship_type: str, start: str, goals: Iterable[str]) -> int | None:
        way = self.way(ship_type, start, goals)
        return None if way is None else len(way)


def _back(came: Mapping[str, str], start: str, end: str) -> list[str]:
    way = [end]
    while came[way[-1]] != start:
        way.append(came[way[-1]])
    return list(reversed(way))


def movement(
    world_map: WorldMap,
    area: str,
    port_here: str | None,
    way: list[str],
    *,
    port: str | None = None,
    harbor: bool = False,
    steps: int = 2,
) -> Movement:
    """The move along ``way`` (sea areas after ``area``), cut to ``steps``
    sea areas (6.1); a ship in a port first sails out to the sea area of the
    way (6.3, 6.4).  ``port`` is entered last, only when the cut way ends
    on a sea area it lies on (6.2)."""
    if port_here is not None:
        exits = world_map.ports[port_here].reachable_sea_areas
        first = way[0] if way and way[0] in exits else area
        way = [first, *way[1:]] if way and way[0] in exits else [area, *way]
        if port is not None and port == port_here and not way[1:]:
            return Movement(port=port, harbor=harbor)  # a shift between harbor and coastal waters (6.1)
    way = way[:steps]
    last = way[-1] if way else (None if port_here is not None else area)
    if port is not None and last is not None and port in world_map.ports_reachable_from(last):
        return Movement(sea_areas=tuple(way), port=port, harbor=harbor)
    return Movement(sea_areas=tuple(way))


def to_port(
    chart: Chart, ship_type: str, area: str, port_here: str | None, port: str, harbor: bool
) -> Movement:
    """Sail for ``port`` (its harbor or coastal waters)."""
    if port_here == port:
        return Movement(port=port, harbor=harbor) if harbor else Movement()
    way = chart.way(ship_type, area, chart.map.ports[port].reachable_sea_areas)
    if way is None:
        return Movement()
    if port_here is not None and not way:
        way = [area]  # out to the sea area the port lies on, then in
    return movement(chart.map, area, port_here, way, port=port, harbor=harbor)


def toward(chart: Chart, ship_type: str, area: str, port_here: str | None, goals: Iterable[str]) -> Movement:
    way = chart.way(ship_type, area, goals)
    if not way:
        if port_here is not None and way == []:
            return Movement(sea_areas=(area,))  # out of the port into the sea area itself
        return Movement()
    return movement(chart.map, area, port_here, way)
