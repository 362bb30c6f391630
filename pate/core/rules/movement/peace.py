"""Peace and truce turns (rules 6.12 and 2.8).

A ship goes to the sea area or port it is ordered to, however far, or, with
the remaining chance, to its base port's harbor to replenish; the chance of
staying on station falls with the distance between station and base.  A ship
with no order keeps its location as its duty station and rotates the same
way; a ship at its base with no order stays there.  Winds still shift; there
are no storms, and no pursuit (nobody fights on these turns).
"""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.ruledata import RuleData
from pate.core.rules.movement.arrival import arrive_at_sea, arrive_in_port
from pate.core.rules.movement.board import Board, Plan
from pate.core.rules.movement.groups import form_groups
from pate.core.rules.movement.routes import place_area, sea_distance
from pate.core.rules.winds import shift_winds
from pate.core.world.ships import AtSea, InAtlantic, InPort, Location, Ship, describe


def destination(plan: Plan, ship: Ship) -> Location:
    """Rule 6.12: the ordered port, else the last ordered sea area, else here."""
    if plan.port is not None:
        return InPort(plan.port, plan.harbor)
    if plan.path:
        return AtSea(plan.path[-1], 0)
    return ship.location


def on_station_percent(board: Board, ship: Ship, dest: Location) -> int:
    if ship.base not in board.map.ports:
        return 100
    base_area = board.map.ports[ship.base].sea_area
    area = place_area(board.map, dest)
    if area is None:
        return 100
    params = board.params.peace
    return params.percent(sea_distance(board.map, base_area, area, params.atlantic_distance))


def _at_base(ship: Ship, loc: Location) -> bool:
    return isinstance(loc, InPort) and loc.port == ship.base


def peace_moves(board: Board, rules: RuleData, rng: Rng) -> None:
    board.winds = shift_winds(board.map, rules, board.winds, rng.fork("shift"))
    movers = []
    for sid in sorted(board.plans):
        ship = board.ships[sid]
        if isinstance(ship.location, InAtlantic):
            continue
        dest = destination(board.plans[sid], ship)
        if _at_base(ship, ship.location) and dest == ship.location:
            continue
        movers.append(sid)
    for group in form_groups(board, movers):
        roll = rng.fork("roll", group.lead).below(100)
        stay: list[str] = []
        home: list[str] = []
        for m in group.members:
            ship = board.ships[m]
            dest = destination(board.plans[m], ship)
            (stay if roll < on_station_percent(board, ship, dest) else home).append(m)
        _go(board, stay, rng.fork("station", group.lead))
        _go_home(board, home, rng.fork("base", group.lead))


def _go(board: Board, members: list[str], rng: Rng) -> None:
    if not members:
        return
    ship = board.ships[members[0]]
    dest = destination(board.plans[members[0]], ship)
    if dest == ship.location:
        return
    came_from = describe(ship.location)
    board.lift(members)
    board.emit("sailed", members, ship.location, (), came_from=came_from, peace=True)
    if isinstance(dest, InPort) and dest.port in board.map.ports:
        course = board.map.ports[dest.port].exit.opposite
        arrive_in_port(board, members, dest.port, dest.harbor, course, rng=rng, came_from=came_from)
    elif isinstance(dest, AtSea) and dest.area in board.map.sea_areas:
        course = board.winds[dest.area].direction.opposite
        arrive_at_sea(board, members, dest.area, course, rng, came_from=came_from)
    else:
        for m in members:
            board.put(m, board.ships[m].location, board.ships[m].station)


def _go_home(board: Board, members: list[str], rng: Rng) -> None:
    """To the base port's harbor (each ship to its own base)."""
    by_base: dict[str, list[str]] = {}
    for m in members:
        by_base.setdefault(board.ships[m].base, []).append(m)
    for base, group in sorted(by_base.items()):
        ids = [m for m in group if not _at_base(board.ships[m], board.ships[m].location)]
        if base not in board.map.ports or not ids:
            continue
        came_from = describe(board.ships[ids[0]].location)
        board.lift(ids)
        board.emit("returned_to_base", ids, came_from, (), base=base)
        course = board.map.ports[base].exit.opposite
        arrive_in_port(board, ids, base, True, course, rng=rng.fork(base), came_from=came_from)
