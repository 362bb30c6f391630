"""Combat strength of a ship or a shore battery (rule 7.7, mechanics page).

strength = (base + marine points) x the product of (1 + m) over every
percentage modifier m; the experience factor replaces its (1 + m).  The part
that does not depend on the battle's course is computed once per ship
(:func:`static_strength`); gauge, closing and the line are applied after.
"""

from __future__ import annotations

import math

from pate.core.orders.model import Aim, CombatStance
from pate.core.rules.combat.model import BattleShip, LineResult, ShoreBattery
from pate.core.rules.combat.params import CombatRules


def crew_factor(rules: CombatRules, ship: BattleShip) -> float:
    """Below 70% of the class maximum, -2.5% per 1% short: worth 0 at 30%."""
    top = rules.max_crew[ship.type]
    if top <= 0:
        return 1.0
    s = rules.strength
    short = s.crew_threshold_pct - 100.0 * ship.crew / top
    if short <= 0:
        return 1.0
    return max(0.0, 1.0 - s.crew_penalty_per_pct * short / 100.0)


def experience_factor(rules: CombatRules, experience: int, *, close: bool) -> float:
    a, b = rules.strength.experience_close if close else rules.strength.experience_range
    return a * math.sqrt(max(0, experience)) + b


def static_strength(rules: CombatRules, ship: BattleShip) -> tuple[float, float]:
    """The ship's strength at range and at close quarters before gauge,
    closing and the line: base, Marines, crew, quality, experience, aim,
    pre-existing damage and Run Past."""
    s = rules.strength
    base = rules.base_strength[ship.type]
    if base <= 0:
        return 0.0, 0.0
    common = crew_factor(rules, ship)
    if ship.aim is Aim.HULL:
        common *= 1.0 + s.aim_hull_pct / 100.0
    common *= 1.0 + s.hull_damage_pct[min(ship.hull, len(s.hull_damage_pct) - 1)] / 100.0
    common *= 1.0 + s.rigging_damage_pct[min(ship.rigging, len(s.rigging_damage_pct) - 1)] / 100.0
    if ship.stance is CombatStance.RUN_PAST:
        common *= 1.0 + s.run_past_pct / 100.0
    quality = int(ship.quality) * s.quality_pct_per_point / 100.0
    at_range = base * (1.0 + quality) * experience_factor(rules, ship.experience, close=False)
    marines = ship.marines / s.marines_per_point  # rule 7.7: close quarters only
    at_close = (
        (base + marines)
        * (1.0 + quality * s.close_quality_multiplier)
        * experience_factor(rules, ship.experience, close=True)
    )
    return at_range * common, at_close * common


def situation_factor(
    rules: CombatRules, *, windward: bool, closed: bool, line: LineResult = LineResult.NONE
) -> float:
    """Windward +10%, a ship that closed -10% (7.5), the line +33% / -25% (7.6)."""
    s = rules.strength
    f = 1.0
    if windward:
        f *= 1.0 + s.windward_pct / 100.0
    if closed:
        f *= 1.0 + s.closing_pct / 100.0
    if line is LineResult.BROKE_THROUGH:
        f *= 1.0 + s.break_success_pct / 100.0
    elif line is LineResult.LOST_COORDINATION:
        f *= 1.0 + s.break_failure_pct / 100.0
    return f


def ship_strength(
    rules: CombatRules,
    ship: BattleShip,
    *,
    close: bool,
    windward: bool = False,
    closed: bool = False,
    line: LineResult = LineResult.NONE,
) -> float:
    """The full formula for one ship in one situation."""
    at_range, at_close = static_strength(rules, ship)
    value = at_close if close else at_range
    return value * situation_factor(rules, windward=windward, closed=closed, line=line)


def battery_strength(rules: CombatRules, battery: ShoreBattery) -> float:
    """100 x defense rating, half if damaged, with no further modifier (7.7)."""
    s = rules.strength
    value = s.battery_per_defense * battery.defense
    if battery.damaged:
        value *= s.battery_damaged_pct / 100.0
    return value
