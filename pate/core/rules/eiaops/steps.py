"""Steps: the distances of the EiA new naval rules on PATE's map.

A step is one move between two nodes: a sea area and a sea area it borders,
or a port and a sea area it opens on (rules 1.3, 6.3).  A port's blockade box
(its coastal waters) is at the port's own distance.  Crossing the Atlantic
(6.11) is not a step: the two maps are apart.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pate.core.world.geography import WorldMap


def neighbours(world_map: WorldMap, node: str) -> tuple[str, ...]:
    if node in world_map.ports:
        return world_map.ports[node].reachable_sea_areas
    area = world_map.sea_areas[node]
    return tuple(sorted(area.adjacent)) + world_map.ports_reachable_from(node)


def distances(world_map: WorldMap, start: str, limit: int) -> dict[str, int]:
    """Every node within ``limit`` steps of ``start``, with its distance."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        node = todo.popleft()
        d = seen[node]
        if d >= limit:
            continue
        for nxt in neighbours(world_map, node):
            if nxt not in seen:
                seen[nxt] = d + 1
                todo.append(nxt)
    return seen


def distance(world_map: WorldMap, a: str, b: str, limit: int) -> int | None:
    """Steps from ``a`` to ``b``, or None when more than ``limit``."""
    return distances(world_map, a, limit).get(b)


@dataclass(frozen=True, slots=True)
class Reach:
    """One search from ``start`` answering every question of distance from
    there: a fleet's candidate operations all measure from its own place, and
    a search for each one cost the desk most of its time."""

    start: str
    limit: int
    steps: Mapping[str, int]  # every node within ``limit`` steps of ``start``

    @classmethod
    def search(cls, world_map: WorldMap, start: str, limit: int) -> Reach:
        return cls(start, limit, distances(world_map, start, limit))

    def distance(self, world_map: WorldMap, a: str, b: str, limit: int) -> int | None:
        """As ``distance``; a question this search cannot answer gets a search of its own."""
        if a != self.start or limit > self.limit:
            return distance(world_map, a, b, limit)
        d = self.steps.get(b)
        return d if d is not None and d <= limit else None


def nearest(world_map: WorldMap, a: Iterable[str], b: Iterable[str], limit: int) -> int | None:
    """The fewest steps between any node of ``a`` and any of ``b``."""
    targets = set(b)
    best: int | None = None
    for start in a:
        for node, d in distances(world_map, start, limit).items():
            if node in targets and (best is None or d < best):
                best = d
    return best


def shortest_path(world_map: WorldMap, start: str, goal: set[str], limit: int) -> tuple[str, ...] | None:
    """The nodes of one shortest path from ``start`` to any node of ``goal``
    (neighbours taken in sorted order, so the path is the same on every worker)."""
    back: dict[str, str | None] = {start: None}
    todo = deque([(start, 0)])
    while todo:
        node, d = todo.popleft()
        if node in goal:
            path = [node]
            while (prev := back[path[-1]]) is not None:
                path.append(prev)
            return tuple(reversed(path))
        if d >= limit:
            continue
        for nxt in neighbours(world_map, node):
            if nxt not in back:
                back[nxt] = node
                todo.append((nxt, d + 1))
    return None
