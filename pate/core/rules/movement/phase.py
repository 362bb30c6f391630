"""The movement phase (rules 3.8, 6.5): the eight steps, in order.

1. ships in ports shift between harbor and coastal waters;
2. ships in sea areas enter ports reachable from where they are;
3. ships sail to their first sea area;
4. winds shift and storms strike;
5. ships that moved enter ports reachable from their new sea areas;
6. ships sail to their second sea area;
7. ships completing an Atlantic crossing arrive on the map;
8. ships that moved in step six enter ports.

On peace and truce turns rule 6.12 replaces all of this.  The winds standing
at the end of the phase are the state's winds for the next turn.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.movement.atlantic import arrivals_step
from pate.core.rules.movement.board import Board, Plan
from pate.core.rules.movement.peace import peace_moves
from pate.core.rules.movement.ports import port_step, shift_step
from pate.core.rules.movement.sailing import sail_step
from pate.core.rules.movement.weather import weather_step
from pate.core.rules.winds import complete_winds
from pate.core.world.ships import AtSea, InAtlantic, InPort, Location, Ship, contact_key
from pate.core.world.state import TurnKind, WorldState


def movement_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    winds = complete_winds(ctx.map, ctx.rules, ts.world.winds, rng.fork("winds"))
    board = Board.build(ctx, ts.world, ts.orders, winds)
    campaign = ts.world.kind is not TurnKind.PEACE
    make_plans(board, campaign=campaign)
    if campaign:
        shift_step(board, rng.fork("step", 1))
        port_step(board, 2, rng.fork("step", 2))
        sail_step(board, 3, rng.fork("step", 3))
        weather_step(board, ctx.rules, rng.fork("step", 4))
        port_step(board, 5, rng.fork("step", 5))
        sail_step(board, 6, rng.fork("step", 6))
        arrivals_step(board, rng.fork("step", 7))
        port_step(board, 8, rng.fork("step", 8))
    else:
        peace_moves(board, ctx.rules, rng.fork("peace"))
        arrivals_step(board, rng.fork("step", 7))
    return replace(ts, world=finish(board)).emit(*board.events)


def make_plans(board: Board, *, campaign: bool) -> None:
    """What each active ship means to do, from its movement order (6.1)."""
    for sid in sorted(board.ships):
        ship = board.ships[sid]
        if not ship.active:
            continue
        mv = board.order(sid).movement
        path = _path(ship.location, mv.sea_areas)
        plan = Plan(path, mv.port, mv.any_enemy_port and mv.port is None, mv.harbor, mv.sail_alone)
        board.plans[sid] = plan
        loc = ship.location
        if isinstance(loc, InAtlantic) or not (path or plan.wants_port):
            plan.done = True
        elif campaign and isinstance(loc, InPort) and not path and mv.port != loc.port:
            # rule 6.5: no sailing directly from one port to another
            plan.done = True
            key = contact_key(loc)
            board.emit("course_impossible", (sid,), loc, board.witnesses_at(key, (sid,)), port=mv.port)


def _path(loc: Location, sea_areas: tuple[str, ...]) -> list[str]:
    """At most two sea areas (6.1); naming the sea area a ship is already in,
    or the same one twice, is not a move."""
    path: list[str] = []
    here = loc.area if isinstance(loc, AtSea) else None
    for area in sea_areas[:2]:
        if area != here and (not path or path[-1] != area):
            path.append(area)
    return path


def finish(board: Board) -> WorldState:
    """The world after the phase: stations ranked 0.. at each location, sunk
    ships gone (with attachments to them ended), and the standing winds."""
    gone = set(board.sunk)
    ships = {sid: s for sid, s in board.ships.items() if sid not in gone}
    ships.update(_ranked(ships))
    for sid, ship in list(ships.items()):
        if ship.attached_to in gone:
            ships[sid] = replace(ship, attached_to=None)
    return replace(board.world, ships=ships, winds=board.winds)


def _ranked(ships: dict[str, Ship]) -> dict[str, Ship]:
    by_loc: dict[Location, list[Ship]] = {}
    for ship in ships.values():
        if isinstance(ship.location, AtSea | InPort):
            by_loc.setdefault(ship.location, []).append(ship)
    changed: dict[str, Ship] = {}
    for present in by_loc.values():
        rank = {st: i for i, st in enumerate(sorted({s.station for s in present}))}
        for ship in present:
            if rank[ship.station] != ship.station:
                changed[ship.id] = replace(ship, station=rank[ship.station])
    return changed
