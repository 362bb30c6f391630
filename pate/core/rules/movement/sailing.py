"""Sea-area moves: steps three and six of rule 6.5, with rules 6.3, 6.6, 6.7.

Decisions (docs/rules/movement.md): a ship leaving a port rolls the sailing
chance of its course out of the port, after the port rules of 6.4 and 6.6; a
ship held in step three tries its first sea area again in step six with the
second-move chance (the recovered "held in harbor keeps its second move",
extended to ships at sea) and gives up its second sea area; a group stops
after its first move on one roll, at the chance of its most affected ship.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pate.core.rng import Rng
from pate.core.rules.movement.arrival import arrive_at_sea, settle
from pate.core.rules.movement.atlantic import enter_atlantic
from pate.core.rules.movement.board import Board
from pate.core.rules.movement.chances import (
    group_chance,
    group_stop_chance,
    left_behind,
    port_blocked,
    sail_chance,
)
from pate.core.rules.movement.groups import Group, alliance_parts, form_groups
from pate.core.rules.movement.pursuit import Departure, assign_pursuers, strait_pursuers
from pate.core.rules.movement.routes import can_sail, course_of, crosses_atlantic
from pate.core.rules.winds import Heading, describe_wind, heading
from pate.core.world.geography import Direction
from pate.core.world.ships import AtSea, InPort, Location, Ship, ShipType, contact_key, describe
from pate.core.world.state import Wind


def sail_step(board: Board, step: int, rng: Rng) -> None:
    """Step three (first sea area) or step six (second sea area)."""
    second = step == 6
    movers = []
    for sid in sorted(board.plans):
        plan = board.plans[sid]
        if plan.done or plan.pursuing is not None or not plan.path:
            continue
        if second:
            if plan.stopped or not (plan.moved_first or plan.held_first):
                continue
            if plan.held_first:
                plan.path = plan.path[:1]  # the retried first move is the last
        movers.append(sid)
    departures = []
    for group in form_groups(board, movers):
        d = _try_sail(board, group, step, rng.fork("sail", step, group.lead))
        if d is not None:
            departures.append(d)
    land_all(board, assign_pursuers(board, departures), step, rng)


def land_all(board: Board, departures: list[Departure], step: int, rng: Rng) -> None:
    """Everyone leaves at once, then each group arrives in turn, so ships
    leaving a place are never met there by ships arriving in the same step."""
    for d in departures:
        board.lift([*d.members, *d.pursuers])
    for d in departures:
        land(board, d, step, rng.fork("land", step, d.lead))


def _try_sail(board: Board, group: Group, step: int, rng: Rng) -> Departure | None:
    lead = board.ships[group.lead]
    loc = lead.location
    to = board.plans[group.lead].path[0]
    frigates_only = all(board.ships[m].type is ShipType.FR for m in group.members)
    key = contact_key(loc)
    assert key is not None
    if not can_sail(board.map, loc, to, frigates_only):
        for m in group.members:
            board.plans[m].done = True
        board.emit("course_impossible", group.members, loc, board.witnesses_at(key, group.members), to=to)
        return None
    wind = board.wind_at(loc)
    course = course_of(board.map, loc, to)
    way = heading(course, wind)
    info: dict[str, object] = {
        "to": to,
        "course": course.value,
        "heading": way.value,
        "wind": describe_wind(wind),
        "step": step,
    }
    if isinstance(loc, InPort):
        reason = _leaving_blocked(board, group.members, loc, way, wind)
        if reason is not None:
            _held(board, group.members, loc, "held_in_port", {**info, "reason": reason})
            return None
    chances = _chances(board, group.members, way, step, loc)
    behind = left_behind([s for s, _ in chances], board.params)
    # rule 6.7: a dismasted member never goes with the group, so she does not set its pace either
    chance = group_chance([(s, c) for s, c in chances if s.id not in behind], board.params)
    roll = rng.below(100)
    # each ship's own chance, for her own player's "why" (docs/rules/intel.md: no one else's)
    info.update(chance=chance, roll=roll, ship_chances={s.id: c for s, c in chances})
    gone = [s.id for s, c in chances if roll < chance and roll < c and s.id not in behind]
    left = [m for m in group.members if m not in gone]
    if left:
        _held(board, left, loc, "held_by_damage" if gone else "held_by_wind", info)
    if not gone:
        return None
    atlantic = isinstance(loc, AtSea) and crosses_atlantic(board.map, loc.area, to)
    _mark_moved(board, gone, step, way, atlantic=atlantic, rng=rng)
    strait = None
    if isinstance(loc, AtSea) and not atlantic:
        strait = board.map.strait_between(loc.area, to)
    return Departure(
        members=gone,
        origin=loc,
        key=key,
        course=course,
        to_area=to,
        atlantic=atlantic,
        strait=strait,
        witnesses=board.witnesses_at(key, gone),
        data=info,
    )


def _chances(
    board: Board, members: Sequence[str], way: Heading, step: int, loc: Location
) -> list[tuple[Ship, int]]:
    penalty = 0
    if step == 6 and _in_storm(board, loc):
        penalty = board.storm_rules.second_move_penalty
    return [
        (board.ships[m], sail_chance(board.ships[m], board.order(m), way, step == 6, board.params) - penalty)
        for m in members
    ]


def _in_storm(board: Board, loc: Location) -> bool:
    if isinstance(loc, AtSea):
        return loc.area in board.storms
    if isinstance(loc, InPort):
        return board.map.ports[loc.port].sea_area in board.storms
    return False


def _leaving_blocked(
    board: Board, members: Sequence[str], loc: InPort, way: Heading, wind: Wind
) -> str | None:
    """Rule 6.4: not out of the harbor past hostile ships off the coast; rule
    6.6: not out upwind into heavy winds, nor upwind with enemies present."""
    enemies = board.hostiles(board.here(board.port_key(loc.port), members), board.states_of(members))
    if loc.harbor and any(isinstance(s.location, InPort) and not s.location.harbor for s in enemies):
        return "enemy_off_coast"
    return port_blocked(way, wind, bool(enemies))


def _held(board: Board, ids: Sequence[str], loc: Location, kind: str, info: Mapping[str, object]) -> None:
    for m in ids:
        plan = board.plans[m]
        if info["step"] == 3:
            plan.held_first = True
        else:
            plan.done = True
    board.emit(kind, ids, loc, board.witnesses_at(contact_key(loc), ids), **info)


def _mark_moved(
    board: Board, ids: Sequence[str], step: int, way: Heading, *, atlantic: bool, rng: Rng
) -> None:
    """Rule 6.6: a ship that made its first move may be unable to move again."""
    stop = False
    if step == 3 and not atlantic:
        stop = rng.below(100) < group_stop_chance([board.ships[m] for m in ids], way, board.params)
    for m in ids:
        plan = board.plans[m]
        plan.path.pop(0)
        plan.held_first = False
        if step == 3:
            plan.moved_first = True
            plan.first_way = way
            plan.stopped = stop
        else:
            plan.moved_second = True


def land(board: Board, d: Departure, step: int, rng: Rng) -> None:
    """The group arrives (sea area, strait, or the Atlantic); pursuers follow."""
    came_from = describe(d.origin)
    board.emit("sailed", d.members, d.origin, d.witnesses, came_from=came_from, **d.data)
    if d.atlantic:
        enter_atlantic(board, d, rng)
        return
    assert d.to_area is not None
    if d.strait is not None:
        _pass_strait(board, d)
    where = arrive_at_sea(board, d.members, d.to_area, d.course, rng, came_from=came_from)
    follow(board, d, where[d.lead], d.course, rng)
    for m in d.members:
        plan = board.plans[m]
        if plan.stopped and step == 3 and (plan.path or plan.wants_port):
            plan.done = True
            here = board.ships[m].location
            board.emit(
                "stopped", (m,), here, board.witnesses_at(contact_key(here), (m,)), reason="cannot_move_again"
            )


def _pass_strait(board: Board, d: Departure) -> None:
    """Rule 6.3: through the strait port's coastal waters, seen by all there."""
    assert d.strait is not None
    chasers = strait_pursuers(board, d)
    seen = board.witnesses_at(board.port_key(d.strait), d.members)
    board.emit("passed_strait", d.members, InPort(d.strait, False), seen, to=d.to_area, pursuers=chasers)
    board.lift(chasers)


def follow(board: Board, d: Departure, target: Location, course: Direction, rng: Rng) -> None:
    """Rule 6.10: pursuers arrive where the pursued lead arrived; never into a
    harbor, where they stay in the coastal waters."""
    if not d.pursuers:
        return
    if isinstance(target, InPort) and target.harbor:
        target = InPort(target.port, False)
    for part in alliance_parts(board, d.pursuers):
        settle(
            board,
            part.members,
            target,
            course,
            rng.fork("follow", part.lead),
            kind="pursued",
            join=False,
            target=d.lead,
            pursued=sorted(d.members),
        )
