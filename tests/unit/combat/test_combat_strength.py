"""The strength formula of docs/rules/combat.md, pinned on hand-computed ships.

strength = (base + marine points) x the product of (1 + m); the experience
factor replaces its (1 + m).  Every expected value below is worked out by
hand in the comment beside it.
"""

from __future__ import annotations

import pytest

from pate.core.orders.model import Aim, CombatStance
from pate.core.rules.combat import LineResult, ShoreBattery, battery_strength, ship_strength
from pate.core.rules.combat.strength import crew_factor, experience_factor
from pate.core.world.ships import Quality, ShipType
from tests.unit.combat.combat_world import RULES, bship


def strength(close: bool = False, **kw: object) -> float:
    flags = {k: kw.pop(k) for k in ("windward", "closed", "line") if k in kw}
    return ship_strength(RULES, bship("X", 0, **kw), close=close, **flags)  # type: ignore[arg-type]


def test_plain_ship_of_the_line_at_range() -> None:
    # 100 x experience factor sqrt(0)/10 + 0.9 = 90
    assert strength(type_=ShipType.SL) == pytest.approx(90.0)


def test_plain_ship_of_the_line_at_close_quarters_gets_marines() -> None:
    # (100 + 150/20 = 7.5) x (sqrt(0)/5 + 0.8) = 107.5 x 0.8 = 86
    assert strength(close=True, type_=ShipType.SL) == pytest.approx(86.0)


def test_base_strengths() -> None:
    # experience 1 makes the factor exactly 1 at range
    assert strength(type_=ShipType.FL, experience=1) == pytest.approx(135.0)
    assert strength(type_=ShipType.SL, experience=1) == pytest.approx(100.0)
    assert strength(type_=ShipType.FR, experience=1) == pytest.approx(25.0)
    assert strength(type_=ShipType.TR, experience=1, crew=500) == 0.0
    assert strength(close=True, type_=ShipType.TR, experience=1, crew=500) == 0.0


def test_marines_count_one_point_per_twenty_at_close_quarters_only() -> None:
    # experience 1 at close: sqrt(1)/5 + 0.8 = 1.0
    assert strength(close=True, type_=ShipType.FL, experience=1, marines=200) == pytest.approx(145.0)
    assert strength(close=True, type_=ShipType.SL, experience=1, marines=100) == pytest.approx(105.0)
    assert strength(close=True, type_=ShipType.FR, experience=1, marines=25) == pytest.approx(26.25)
    assert strength(close=False, type_=ShipType.FL, experience=1, marines=200) == pytest.approx(135.0)


def test_flagship_at_close_quarters_with_every_bonus() -> None:
    # (135 + 200/20) = 145; Very Good +20% doubled = x1.4; experience 16:
    # sqrt(16)/5 + 0.8 = 1.6; hull aim x1.1; windward x1.1; closed x0.9;
    # broke the line x1.33 -> 145 x 1.4 x 1.6 x 1.1 x 1.1 x 0.9 x 1.33 = 470.430576
    value = strength(
        close=True,
        type_=ShipType.FL,
        quality=Quality.VERY_GOOD,
        experience=16,
        aim=Aim.HULL,
        windward=True,
        closed=True,
        line=LineResult.BROKE_THROUGH,
    )
    assert value == pytest.approx(470.430576)


def test_damaged_ship_at_range() -> None:
    # Good +10%; experience 9: sqrt(9)/10 + 0.9 = 1.2; hull 2: -20%; rigging 3: -20%
    # 100 x 1.1 x 1.2 x 0.8 x 0.8 = 84.48
    value = strength(type_=ShipType.SL, quality=Quality.GOOD, experience=9, hull=2, rigging=3)
    assert value == pytest.approx(84.48)


@pytest.mark.parametrize(
    ("hull", "rigging", "factor"),
    [
        (1, 0, 0.9),
        (3, 0, 0.6),
        (4, 0, 0.4),
        (0, 1, 0.95),
        (0, 2, 0.9),
        (0, 4, 0.6),
        (0, 5, 0.4),
        (4, 5, 0.16),
    ],
)
def test_damage_modifiers(hull: int, rigging: int, factor: float) -> None:
    assert strength(type_=ShipType.SL, experience=1, hull=hull, rigging=rigging) == pytest.approx(
        100 * factor
    )


def test_under_crewed_ship() -> None:
    # 300 of 600 = 50%: 20 points below 70% -> -50%; close, experience 1, no Marines
    assert strength(close=True, type_=ShipType.SL, experience=1, crew=300, marines=0) == pytest.approx(50.0)
    # 70% exactly: no penalty; 30% and below: worth nothing
    assert strength(type_=ShipType.SL, experience=1, crew=420) == pytest.approx(100.0)
    assert strength(type_=ShipType.FL, experience=1, crew=240) == 0.0
    assert strength(type_=ShipType.SL, experience=1, crew=100) == 0.0
    # frigate 225 max: 135 men = 60% -> -25%
    assert strength(type_=ShipType.FR, experience=1, crew=135) == pytest.approx(18.75)


def test_crew_factor_is_linear_between_70_and_30_percent() -> None:
    assert crew_factor(RULES, bship("X", 0, ShipType.SL, crew=360)) == pytest.approx(0.75)  # 60%
    assert crew_factor(RULES, bship("X", 0, ShipType.SL, crew=240)) == pytest.approx(0.25)  # 40%


@pytest.mark.parametrize(
    ("quality", "at_range", "at_close"),
    [
        (Quality.VERY_POOR, 70.0, 40.0),
        (Quality.POOR, 80.0, 60.0),
        (Quality.FAIR, 90.0, 80.0),
        (Quality.AVERAGE, 100.0, 100.0),
        (Quality.GOOD, 110.0, 120.0),
        (Quality.VERY_GOOD, 120.0, 140.0),
        (Quality.EXCELLENT, 130.0, 160.0),
    ],
)
def test_quality_doubled_at_close_quarters(quality: Quality, at_range: float, at_close: float) -> None:
    assert strength(type_=ShipType.SL, experience=1, quality=quality) == pytest.approx(at_range)
    assert strength(close=True, type_=ShipType.SL, experience=1, quality=quality, marines=0) == pytest.approx(
        at_close
    )


@pytest.mark.parametrize(
    ("experience", "at_range", "at_close"),
    [
        (0, 0.9, 0.8),
        (1, 1.0, 1.0),
        (4, 1.1, 1.2),
        (9, 1.2, 1.4),
        (16, 1.3, 1.6),
        (25, 1.4, 1.8),
        (36, 1.5, 2.0),
    ],
)
def test_experience_factor_examples(experience: int, at_range: float, at_close: float) -> None:
    """Mechanics page: 0 = -10%, 1 = 0%, 4 = +10% ... 36 = +50%, doubled at close."""
    assert experience_factor(RULES, experience, close=False) == pytest.approx(at_range)
    assert experience_factor(RULES, experience, close=True) == pytest.approx(at_close)


def test_situation_modifiers() -> None:
    assert strength(type_=ShipType.SL, experience=1, aim=Aim.HULL) == pytest.approx(110.0)
    assert strength(type_=ShipType.SL, experience=1, windward=True) == pytest.approx(110.0)
    assert strength(close=True, type_=ShipType.SL, experience=1, marines=0, closed=True) == pytest.approx(
        90.0
    )
    assert strength(
        close=True, type_=ShipType.SL, experience=1, marines=0, line=LineResult.LOST_COORDINATION
    ) == pytest.approx(75.0)
    assert strength(close=True, type_=ShipType.SL, experience=1, marines=0, line=LineResult.HELD) == 100.0
    assert strength(close=True, type_=ShipType.SL, experience=1, marines=0, line=LineResult.MELEE) == 100.0
    assert strength(type_=ShipType.SL, experience=1, stance=CombatStance.RUN_PAST) == pytest.approx(33.3)


def test_shore_batteries() -> None:
    # 100 x defense rating; half if damaged; no modifier at all
    assert battery_strength(RULES, ShoreBattery(side=0, defense=3)) == 300.0
    assert battery_strength(RULES, ShoreBattery(side=1, defense=3, damaged=True)) == 150.0
    assert battery_strength(RULES, ShoreBattery(side=0, defense=0)) == 0.0
