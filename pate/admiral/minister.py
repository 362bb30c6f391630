"""The naval minister's own orders: store moves (rule 3.5) and officers (2.3).

**Stores.** A port holding fewer stores than the level's ``port_stores_low``
is topped up from a port of his holding more than ``port_stores_spare``,
at most 60 a move (3.5).  A move by sea needs no hostile ship in either
port or their sea areas; the minister cannot see every ship, so he only
moves stores between ports where his own ships lie in each port or sea area
concerned and see no enemy, and no enemy was sighted or reported there this
turn (his report, 5.2 to 5.4).

**Officers.** A ship of his state with no commander (2.3: a prize just
taken, a ship just built) is given one: the minister himself, so that it is
commanded and its orders weigh as a commander's (4.1).  The report names
players only by name, never by id, so he can name no other officer.
"""

from __future__ import annotations

from pate.admiral.plan import Plan
from pate.core.orders.model import StoresMove
from pate.core.rules.validation.assign import Assignment

STORES_PER_MOVE = 60  # rule 3.5: no port sends off more than 60 a turn


def stores_moves(plan: Plan) -> list[StoresMove]:
    view = plan.view
    if not view.minister:
        return []
    watched = _watched(plan)
    short = sorted(p for p, n in view.own_ports.items() if n < plan.level.port_stores_low)
    spare = dict(sorted((p, n) for p, n in view.own_ports.items() if n > plan.level.port_stores_spare))
    out: list[StoresMove] = []
    for dest in short:
        for origin in sorted(spare, key=lambda p: (-spare[p], p)):
            if spare[origin] <= plan.level.port_stores_spare or not _sea_route(plan, origin, dest, watched):
                continue
            amount = min(STORES_PER_MOVE, spare[origin] - plan.level.port_stores_spare)
            out.append(StoresMove(view.state, origin, dest, amount))
            spare[origin] = -1  # one move a port and turn: the 60 limit holds without adding up
            break
    return out


def _watched(plan: Plan) -> set[str]:
    """Ports and sea areas where the minister's ships lie and see no enemy."""
    clear: set[str] = set()
    seen_enemy: set[str] = set()
    for s in plan.view.ships:
        spot = s.port if s.port is not None else s.area
        (seen_enemy if s.enemies_here_count else clear).add(spot)
    return clear - seen_enemy


def _sea_route(plan: Plan, origin: str, dest: str, watched: set[str]) -> bool:
    areas = plan.view.own_port_areas
    a, b = areas[origin], areas[dest]
    if a != b and not plan.map.borders(a, b):
        return False
    places = {origin, dest, a, b}
    if any(plan.danger(x) > 0 for x in (a, b)) or any(
        plan.view.enemy_ports.get(p, 0) for p in (origin, dest)
    ):
        return False
    return places <= watched


def assignments(plan: Plan) -> list[Assignment]:
    """Rule 2.3: the minister takes command of his state's ships that have
    no officer at all (none to displace)."""
    if not plan.view.minister:
        return []
    return [
        Assignment(s.id, plan.view.player, None)
        for s in plan.view.ships
        if s.commander == "" and s.deputy == ""
    ]
