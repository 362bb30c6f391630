"""Whether ships can sail (rules 6.4, 6.6, 6.7), with the recovered chances."""

from __future__ import annotations

from collections.abc import Sequence

from pate.core.orders.model import Commerce, ShipOrder
from pate.core.rules.movement.params import MovementRules, kind_of
from pate.core.rules.winds import Heading
from pate.core.world.geography import WindStrength
from pate.core.world.ships import Ship
from pate.core.world.state import Wind


def penalty(ship: Ship, order: ShipOrder, params: MovementRules) -> int:
    """Recovered 6.6: 10 per hull point, 20 per rigging point, 50 for commerce."""
    points = params.hull_penalty * ship.hull + params.rigging_penalty * ship.rigging
    if order.commerce in (Commerce.RAID, Commerce.CONVOY):
        points += params.commerce_penalty
    return points


def sail_chance(ship: Ship, order: ShipOrder, way: Heading, second: bool, params: MovementRules) -> int:
    """The chance in percent that the ship can make this move (rule 6.6)."""
    table = params.second if second else params.first
    return table[(kind_of(ship.type), way)] - penalty(ship, order, params)


def stop_chance(ship: Ship, first_way: Heading, params: MovementRules) -> int:
    """Rule 6.6: a ship that moved first may be unable to move again."""
    return params.stop[(kind_of(ship.type), first_way)]


def damaged(ship: Ship, params: MovementRules) -> bool:
    """Rule 6.7 "damaged" (docs/rules/movement.md): any hull or rigging damage."""
    return ship.hull + ship.rigging >= params.damaged_points


def left_behind(ships: Sequence[Ship], params: MovementRules) -> set[str]:
    """Rule 6.7 "the damaged ones may not move": the dismasted members of a
    group that has a ship less damaged aloft never go with it."""
    crippled = {s.id for s in ships if s.rigging >= params.dismasted_rigging}
    return crippled if len(crippled) < len(ships) else set()


def group_chance(chances: Sequence[tuple[Ship, int]], params: MovementRules) -> int:
    """Rule 6.7: one roll for the group, at the chance of its slowest sound
    ship; a group of damaged ships only goes at its slowest ship's chance."""
    sound = [c for s, c in chances if not damaged(s, params)]
    return min(sound) if sound else min(c for _, c in chances)


def group_stop_chance(ships: Sequence[Ship], first_way: Heading, params: MovementRules) -> int:
    """Rule 6.7 applies to the second move too: the group stops together."""
    return max(stop_chance(s, first_way, params) for s in ships)


def port_blocked(way: Heading, wind: Wind, enemies_present: bool) -> str | None:
    """Rule 6.6: no entering or leaving a port upwind into heavy winds, nor
    upwind into any wind with enemy ships present."""
    if way is not Heading.UPWIND:
        return None
    if wind.strength is WindStrength.HEAVY:
        return "upwind_heavy"
    if enemies_present:
        return "upwind_enemy"
    return None
