"""Rule 7.7 and the mechanics page's strength list, through the engine."""

from __future__ import annotations

import pytest

from pate.core.orders.model import Aim, CombatStance
from pate.core.rng import Rng
from pate.core.rules.combat import ShoreBattery, Where, fight
from pate.core.world.ships import Quality, ShipType
from tests.unit.combat.combat_world import RULES, battle, bship, fights

ENGAGE = CombatStance.ENGAGE


def strength_at_range(**kw: object) -> float:
    """Strength of ship "a" at range, to leeward, against one plain enemy."""
    kw.setdefault("stance", ENGAGE)
    a = bship("a", 0, **kw)  # type: ignore[arg-type]
    return fight(battle(a, bship("b", 1), windward=1), RULES, Rng(1)).strength[0]


def test_rule_7_7_base_strength_of_ships_of_the_line_and_flagships() -> None:
    """7.7: "The combat strength of a ship is 100 for ships of the line and 135
    for flagships"; mechanics: "25 for FR, 0 for TR" (experience 1 = no change)."""
    assert strength_at_range(type_=ShipType.SL, experience=1) == pytest.approx(100)
    assert strength_at_range(type_=ShipType.FL, experience=1) == pytest.approx(135)


def test_rule_7_7_crew_below_seventy_percent() -> None:
    """7.7: "Ships with less than 70% crew lose 2.5% of combat strength for
    each 1% of crew below 70%, falling to 0 at 30%." """
    assert strength_at_range(experience=1, crew=360) == pytest.approx(75)  # 60%
    assert strength_at_range(experience=1, crew=180) == 0  # 30%


def test_rule_7_7_marines_at_close_quarters() -> None:
    """7.7: "Ships at close quarters gain 1 point of strength for each 20
    Marines aboard." (A harbor battle is at close quarters.)"""
    a = bship("a", 0, stance=ENGAGE, experience=1, marines=100)
    r = fight(battle(a, bship("b", 1), where=Where.HARBOR, windward=1), RULES, Rng(1))
    assert r.strength[0] == pytest.approx(105)
    assert strength_at_range(experience=1, marines=100) == pytest.approx(100)


def test_rule_7_7_windward_gains_ten_percent() -> None:
    """7.7: "Ships to windward gain +10%." """
    a = bship("a", 0, stance=ENGAGE, experience=1)
    r = fight(battle(a, bship("b", 1), windward=0), RULES, Rng(1))
    assert r.strength[0] == pytest.approx(110)


def test_rule_7_7_no_weather_gauge_in_a_harbor() -> None:
    """7.7: "Ships to windward gain +10%."; decided (docs/rules/combat.md): ships at anchor in a
    harbor have no weather gauge, so neither side gains it there, nor is told it had it."""
    a = bship("a", 0, stance=ENGAGE, experience=1, marines=0)
    r = fight(battle(a, bship("b", 1), where=Where.HARBOR, windward=0), RULES, Rng(1))
    assert r.strength[0] == pytest.approx(100)


def test_rule_7_7_quality_experience_and_damage() -> None:
    """7.7: "Strength is also modified for quality and experience ... and for
    pre-existing damage." Good +10%, experience 9 x1.2, hull 1 -10%, rigging 2 -10%."""
    got = strength_at_range(quality=Quality.GOOD, experience=9, hull=1, rigging=2)
    assert got == pytest.approx(100 * 1.1 * 1.2 * 0.9 * 0.9)


def test_mechanics_aim_at_hulls_and_run_past() -> None:
    """Mechanics: "+10% for aiming hull" and "Run Past orders: -66.7%"."""
    assert strength_at_range(experience=1, aim=Aim.HULL) == pytest.approx(110)
    assert strength_at_range(experience=1, stance=CombatStance.RUN_PAST) == pytest.approx(33.3)


def test_rule_7_7_shore_batteries() -> None:
    """7.7: "each undamaged shore battery has strength equal to 100 times the
    defense rating of the harbor, and each damaged shore battery has strength
    equal to 50 times the defense rating of the harbor." """
    for damaged, value in ((False, 400.0), (True, 200.0)):
        b = battle(
            bship("a", 0, stance=ENGAGE, experience=1, marines=0),
            bship("b", 1, experience=1, marines=0),
            where=Where.HARBOR,
            windward=0,
            battery=ShoreBattery(side=1, defense=4, damaged=damaged),
        )
        r = fight(b, RULES, Rng(1))
        # no weather gauge in a harbor (docs/rules/combat.md): the attacker has no +10%
        assert r.engagements[0].strength == pytest.approx((100.0, 100.0 + value))


def test_mechanics_stronger_side_likelier_to_win_but_not_certain() -> None:
    """Mechanics: "The side with the greater total strength is more likely to
    win, but is not guaranteed to win." Two ships against one."""
    b = battle(bship("a1", 0, stance=ENGAGE), bship("a2", 0), bship("b", 1), windward=0)
    wins = [r.winner for r in fights(b, 1000)]
    assert 0.6 < wins.count(0) / 1000 < 0.99
    assert wins.count(1) > 0


def test_rule_7_7_experience_one_to_five_by_the_odds() -> None:
    """7.7: "All ships engaged in battle gain 1 to 5 points of experience,
    depending on the odds in the battle (more even odds give more points)." """
    even = battle(bship("a", 0, stance=ENGAGE), bship("b", 1), windward=0)  # 99 vs 90
    for r in fights(even, 50):
        assert [g for g, o in zip(r.experience_gained, r.outcome, strict=True) if o.value != "sunk"] in (
            [5, 5],
            [5],
        )
    lopsided = battle(
        *(bship(f"a{k}", 0, stance=ENGAGE, quality=Quality.EXCELLENT) for k in range(6)),
        bship("b", 1, ShipType.FR),
        where=Where.HARBOR,
    )
    for r in fights(lopsided, 50):
        assert all(g == 1 for g, o in zip(r.experience_gained, r.outcome, strict=True) if o.value != "sunk")


def test_rule_7_7_experience_gain_steps() -> None:
    """7.7 with data: 1 + one point per threshold (20/40/60/80%) that the weaker
    side's strength reaches as a share of the stronger's."""
    thresholds = RULES.experience_thresholds_pct
    assert thresholds == (20.0, 40.0, 60.0, 80.0)
    three_to_one = battle(
        *(bship(f"a{k}", 0, stance=ENGAGE) for k in range(3)), bship("b", 1), where=Where.HARBOR
    )
    # 3 x 86 against 86 at close: 33% -> 1 + 1 = 2 points
    gains = {g for r in fights(three_to_one, 20) for g in r.experience_gained if g}
    assert gains == {2}
