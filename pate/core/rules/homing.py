"""The course of a ship that ran out of stores (rule 3.4, "not yet
implemented" in the book): to the nearest same-side or actively allied
harbor, to replenish.

Decisions (docs/rules/turn.md, "Course home"): a harbor that cannot
replenish the ship is no place "to replenish" it, so the harbors are tried
in tiers, each searched nearest first:

1. those that can reprovision it: a reprovisioning place left (2 x yard, rule
   3.4) and the stores for a full load and the store eaten on arrival, after
   the ships waiting empty in its harbor and those sent there before it this
   turn (``Room``, counted by the supply phase);
2. those whose port city has stores (the crew eats from the city, 3.4);
3. any friendly harbor.

Ships that ran out in one place sail together to the nearest harbor that can
reprovision them all (``home_for_all``) when there is one, so a squadron is
not split between a small port and a large one equally near.

"Nearest" counts sea areas sailed (ports reached through the strait rule 6.3
included); ties go to the sea area met first in a search that tries
neighbours in code order, then to the port name.  The course is a movement
order the movement phase understands (6.1, 6.5): up to two sea areas, and the
port when it can be reached after them; a ship too far sails the first two
sea areas of the way and is given a new course next turn.  A ship already in
the harbor of the best port stays; in its coastal waters, it shifts in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from pate.core.orders.model import Movement
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Location, Ship
from pate.core.world.state import WorldState


@dataclass(frozen=True, slots=True)
class Room:
    """What a port can still give the ships sent to it to replenish: its
    reprovisioning places left and its stores left."""

    places: int
    stores: int


@dataclass(frozen=True, slots=True)
class Home:
    """A course home and the port it leads to (None: no friendly port)."""

    movement: Movement
    port: str | None


def course_home(
    wmap: WorldMap, world: WorldState, ship: Ship, rooms: Mapping[str, Room] | None = None, need: int = 0
) -> Movement:
    """The course alone; without ``rooms`` every port city's stores count in
    full and no yard is looked at."""
    return find_home(wmap, world, ship, rooms, need).movement


def find_home(
    wmap: WorldMap, world: WorldState, ship: Ship, rooms: Mapping[str, Room] | None, need: int
) -> Home:
    """The course to the nearest harbor of the best tier (module docstring);
    ``need`` is the stores the ship takes to replenish."""
    friendly = _friendly(world, ship)
    room = rooms if rooms is not None else {n: Room(1, world.ports[n].stores) for n in friendly}
    stocked = [n for n in friendly if n in room and room[n].stores > 0]
    tiers: list[list[str]] = [stocked, friendly]
    if rooms is not None:
        tiers.insert(0, able_ports(world, ship, rooms, need))
    for targets in tiers:
        found = _toward(wmap, ship.location, targets)
        if found is not None:
            return found
    return Home(Movement(), None)


def home_for_all(
    wmap: WorldMap, world: WorldState, ship: Ship, rooms: Mapping[str, Room], need: int, ships: int
) -> Home | None:
    """The course to the nearest harbor that can replenish ``ships`` ships
    lying where ``ship`` is, needing ``need`` stores together; None if none can."""
    return _toward(wmap, ship.location, able_ports(world, ship, rooms, need, ships))


def able_ports(
    world: WorldState, ship: Ship, rooms: Mapping[str, Room], need: int, ships: int = 1
) -> list[str]:
    """Friendly ports with ``ships`` reprovisioning places and ``need`` stores left."""
    return [
        n
        for n in _friendly(world, ship)
        if n in rooms and rooms[n].places >= ships and rooms[n].stores >= max(1, need)
    ]


def _friendly(world: WorldState, ship: Ship) -> list[str]:
    return sorted(name for name, p in world.ports.items() if world.diplomacy.allied(ship.state, p.controller))


def _toward(wmap: WorldMap, loc: Location, targets: Collection[str]) -> Home | None:
    if isinstance(loc, InPort) and loc.port in targets:
        # already there: stay in the harbor, or shift into it (rule 6.1)
        return Home(Movement() if loc.harbor else Movement(port=loc.port, harbor=True), loc.port)
    return _route(wmap, loc, targets)


def _route(wmap: WorldMap, loc: Location, targets: Collection[str]) -> Home | None:
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
            course = Movement(sea_areas=path[:2], port=harbors[0] if near else None, harbor=near)
            return Home(course, harbors[0])
        for nxt in sorted(wmap.sea_areas[area].adjacent):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, (*path, nxt)))
    return None
