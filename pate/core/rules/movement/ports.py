"""Port movement: step one (shifts within a port) and steps two, five and
eight (entering ports) of rule 6.5, with rules 6.4, 6.6 and 6.8.

Decisions (docs/rules/movement.md): entering a port needs no sailing roll,
only the port rules of 6.6 (not upwind into heavy winds, not upwind with
enemies in the port); a ship held at a port in step two tries again in step
five; a ship ordered to evade does not enter a port where enemies lie; "any
port with an enemy ship" is the reachable port with the most enemy ships
(ties by name).
"""

from __future__ import annotations

from collections.abc import Sequence

from pate.core.rng import Rng
from pate.core.rules.movement.arrival import arrive_in_port, evades, settle
from pate.core.rules.movement.board import Board
from pate.core.rules.movement.chances import port_blocked
from pate.core.rules.movement.groups import Group, form_groups
from pate.core.rules.movement.pursuit import Departure, assign_pursuers
from pate.core.rules.movement.routes import entry_course
from pate.core.rules.movement.sailing import follow
from pate.core.rules.winds import heading
from pate.core.world.ships import AtSea, InPort, describe


def shift_step(board: Board, rng: Rng) -> None:
    """Step one: ships shift between harbor and coastal waters of their port
    (6.1), never with enemy ships in the port (6.4, 6.6); the harbor of a port
    held by a hostile state is open when no enemy ship is there (6.8)."""
    shifting = [
        sid
        for sid, plan in sorted(board.plans.items())
        if not plan.done and not plan.path and isinstance(board.ships[sid].location, InPort)
    ]
    for group in form_groups(board, shifting):
        loc = board.ships[group.lead].location
        assert isinstance(loc, InPort)
        want = board.plans[group.lead].harbor
        for m in group.members:
            board.plans[m].done = True
        if loc.harbor == want:
            continue
        states = board.states_of(group.members)
        key = board.port_key(loc.port)
        if board.hostiles(board.here(key, group.members), states):
            board.emit(
                "shift_blocked",
                group.members,
                loc,
                board.witnesses_at(key, group.members),
                reason="enemy_present",
            )
            continue
        course = board.map.ports[loc.port].exit.opposite if want else board.map.ports[loc.port].exit
        board.lift(group.members)
        settle(
            board,
            group.members,
            InPort(loc.port, want),
            course,
            rng.fork("shift", group.lead),
            kind="shifted",
            harbor=want,
        )


def port_step(board: Board, step: int, rng: Rng) -> None:
    """Steps two, five and eight: ships whose sea-area orders are done enter
    their port from the sea area they are in."""
    entering = []
    for sid in sorted(board.plans):
        plan = board.plans[sid]
        if plan.done or plan.pursuing is not None or plan.path or not plan.wants_port:
            continue
        if not isinstance(board.ships[sid].location, AtSea):
            continue
        ready = {2: True, 5: (plan.moved_first and not plan.stopped) or plan.held_port, 8: plan.moved_second}[
            step
        ]
        if ready:
            entering.append(sid)
    departures = []
    for group in form_groups(board, entering):
        d = _try_enter(board, group, step)
        if d is not None:
            departures.append(d)
    departures = assign_pursuers(board, departures)
    for d in departures:
        board.lift([*d.members, *d.pursuers])
    for d in departures:
        _dock(board, d, rng.fork("dock", step, d.lead))


def enemy_port(board: Board, members: Sequence[str], area: str) -> str | None:
    """Rule 4.5 "any port with an enemy ship": the one with the most."""
    states = board.states_of(members)
    best: tuple[int, str] | None = None
    for port in board.map.ports_reachable_from(area):
        n = len(board.hostiles(board.here(board.port_key(port)), states))
        if n and (best is None or (-n, port) < (-best[0], best[1])):
            best = (n, port)
    return best[1] if best else None


def _try_enter(board: Board, group: Group, step: int) -> Departure | None:
    loc = board.ships[group.lead].location
    assert isinstance(loc, AtSea)
    plan = board.plans[group.lead]
    key = ("sea", loc.area, loc.tactical)
    port = plan.port if plan.port is not None else enemy_port(board, group.members, loc.area)
    if port is None:
        _finish(board, group.members)
        board.emit("no_enemy_port", group.members, loc, board.witnesses_at(key, group.members), area=loc.area)
        return None
    if port not in board.map.ports or loc.area not in board.map.ports[port].reachable_sea_areas:
        _finish(board, group.members)
        board.emit("course_impossible", group.members, loc, board.witnesses_at(key, group.members), port=port)
        return None
    wind = board.winds[board.map.ports[port].sea_area]
    course = entry_course(board.map, port, loc.area)
    way = heading(course, wind)
    enemies = board.hostiles(board.here(board.port_key(port)), board.states_of(group.members))
    info = {"port": port, "course": course.value, "heading": way.value, "step": step}
    reason = port_blocked(way, wind, bool(enemies))
    if reason is not None:
        for m in group.members:
            board.plans[m].held_port = step == 2
            board.plans[m].done = step != 2
        board.emit(
            "held_in_port", group.members, loc, board.witnesses_at(key, group.members), reason=reason, **info
        )
        return None
    evaders = [m for m in group.members if evades(board, m, len(enemies))]
    if evaders:
        _finish(board, evaders)
        board.emit("evaded", evaders, loc, (), avoided=port, enemies=len(enemies))
    members = [m for m in group.members if m not in evaders]
    if not members:
        return None
    _finish(board, members)
    return Departure(
        members=members,
        origin=loc,
        key=key,
        course=course,
        to_port=port,
        harbor=plan.harbor,
        witnesses=board.witnesses_at(key, members),
        data=info,
    )


def _finish(board: Board, ids: Sequence[str]) -> None:
    for m in ids:
        board.plans[m].done = True


def _dock(board: Board, d: Departure, rng: Rng) -> None:
    assert d.to_port is not None
    came_from = describe(d.origin)
    board.emit("sailed", d.members, d.origin, d.witnesses, came_from=came_from, **d.data)
    loc = arrive_in_port(board, d.members, d.to_port, d.harbor, d.course, rng=rng, came_from=came_from)
    follow(board, d, loc, d.course, rng)
