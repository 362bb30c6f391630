"""The course of a ship that ran out of stores (rule 3.4, "not yet
implemented" in the book): to the nearest same-side or actively allied
harbor, to replenish.

Decisions (docs/rules/turn.md): "nearest" counts sea areas sailed (ports
reached through the strait rule 6.3 included); harbors whose port city has
stores come first, any friendly harbor otherwise; ties go to the sea area met
first in a search that tries neighbours in code order, then to the port name.
The course is a movement order the movement phase understands (6.1, 6.5): up
to two sea areas, and the port when it can be reached after them; a ship too
far sails the first two sea areas of the way and is given a new course next
turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection

from pate.core.orders.model import Movement
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Location, Ship
from pate.core.world.state import WorldState


def course_home(wmap: WorldMap, world: WorldState, ship: Ship) -> Movement:
    friendly = sorted(
        name for name, p in world.ports.items() if world.diplomacy.allied(ship.state, p.controller)
    )
    stocked = [name for name in friendly if world.ports[name].stores > 0]
    loc = ship.location
    for targets in (stocked, friendly):
        if isinstance(loc, InPort) and not loc.harbor and loc.port in targets:
            return Movement(port=loc.port, harbor=True)  # rule 6.1: shift into the harbor
        here = {loc.port} if isinstance(loc, InPort) else set()
        found = _route(wmap, loc, [t for t in targets if t not in here])
        if found is not None:
            return found
    return Movement()


def _route(wmap: WorldMap, loc: Location, targets: Collection[str]) -> Movement | None:
    if not targets:
        return None
    wanted = set(targets)
    if isinstance(loc, AtSea):
        starts: list[tuple[str, tuple[str, ...]]] = [(loc.area, ())]
    elif isinstance(loc, InPort):
        starts = [(a, (a,)) for a in wmap.ports[loc.port].reachable_sea_areas]
    else:
        return None
    seen = {area for area, _ in starts}
    queue = deque(starts)
    while queue:
        area, path = queue.popleft()
        harbors = sorted(p for p in wmap.ports_reachable_from(area) if p in wanted)
        if harbors:
            near = len(path) <= 2
            return Movement(sea_areas=path[:2], port=harbors[0] if near else None, harbor=near)
        for nxt in sorted(wmap.sea_areas[area].adjacent):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, (*path, nxt)))
    return None
