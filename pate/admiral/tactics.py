"""Contact and combat orders chosen for the odds (rules 4.6, 4.7, 6.10).

The odds are the squadron's weight against the enemy's known weight.  A
squadron that seeks battle pursues only as many ships as it can beat (4.6's
maximum) and takes the weather gauge; one that must not fight evades any
number it cannot beat (4.6's minimum) and keeps clear of other forces.
"""

from __future__ import annotations

import math

from pate.admiral.levels import Level
from pate.core.orders.model import (
    Aim,
    Combat,
    CombatStance,
    Contact,
    ContactMode,
    FleeTo,
    Gauge,
    Line,
    Range,
)

CONTACT_COUNT_MAX = 999  # well under the desk's limit (data/rules/orders.toml contact_count_max)


def beatable(weight: float, level: Level) -> int:
    """The most enemy ships of the line this weight fights at the level's odds."""
    return max(0, min(CONTACT_COUNT_MAX, math.floor(weight / level.attack_odds)))


def hunting(weight: float, level: Level, *, into_ports: bool = True) -> Contact:
    """Pursue groups up to the number the squadron can beat (4.6, 6.10)."""
    most = beatable(weight, level)
    return Contact(
        mode=ContactMode.PURSUE,
        maximum=most,
        gauge=Gauge.WINDWARD,
        pursue_into_ports=into_ports,
    )


def wary(weight: float, level: Level) -> Contact:
    """Evade any force larger than the squadron can stand up to (4.6: evade
    with a minimum acts on that many ships or more); fight the rest."""
    least = max(1, min(CONTACT_COUNT_MAX, math.floor(weight / level.evade_odds) + 1))
    return Contact(mode=ContactMode.EVADE, minimum=least, join_allies=False)


def fleeing() -> Contact:
    return Contact(mode=ContactMode.EVADE, join_allies=False)


def battle(odds: float, level: Level) -> Combat:
    """Rule 4.7 and the combat mechanics page: close and break the line to
    take prizes when much stronger; fight at range in line ahead when
    roughly even; evade and run for a harbor when weaker."""
    if odds >= level.close_odds:
        return Combat(CombatStance.ENGAGE, Range.CLOSE, Line.BREAK, Aim.HULL, FleeTo.HARBOR)
    if odds >= level.attack_odds:
        return Combat(CombatStance.ENGAGE, Range.RANGE, Line.LINE_AHEAD, Aim.HULL, FleeTo.HARBOR)
    if odds >= level.evade_odds:
        return Combat(CombatStance.ACCEPT, Range.RANGE, Line.LINE_AHEAD, Aim.RIGGING, FleeTo.HARBOR)
    return Combat(CombatStance.EVADE, Range.RANGE, Line.LINE_AHEAD, Aim.RIGGING, FleeTo.HARBOR)


def odds(own: float, enemy: float) -> float:
    return own / enemy if enemy > 0 else math.inf
