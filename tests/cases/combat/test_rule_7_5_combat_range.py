"""Rule 7.5 and the mechanics page's "Determining battle positions".

Closing chances with ``data/rules/combat.toml``: 75% with the windward gauge,
25% from leeward, +10% per point of the closers' quality over the enemy's.
"""

from __future__ import annotations

import pytest

from pate.core.orders.model import CombatStance, Range
from pate.core.rng import Rng
from pate.core.rules.combat import ShoreBattery, Where, fight, ship_strength
from pate.core.rules.combat.positions import closing_chance
from pate.core.rules.combat.prepare import prepare
from pate.core.world.ships import Quality, ShipType
from tests.unit.combat.combat_world import RULES, battle, bship, fights, tolerance

ENGAGE = CombatStance.ENGAGE
CLOSE, RANGE = Range.CLOSE, Range.RANGE
N = 1500


def two_sides(a: list[Range], b: list[Range], **kw: object) -> list[object]:
    ships = [bship(f"a{k}", 0, stance=ENGAGE, range=r) for k, r in enumerate(a)]
    ships += [bship(f"b{k}", 1, range=r) for k, r in enumerate(b)]
    return battle(*ships, **kw)  # type: ignore[arg-type, return-value]


def test_rule_7_5_all_ships_close_they_do_so() -> None:
    """7.5: "If all ships on both sides have chosen to fight at close quarters,
    then they do so." (Even 4 against 1.)"""
    r = fight(two_sides([CLOSE] * 4, [CLOSE]), RULES, Rng(1))  # type: ignore[arg-type]
    assert all(r.close)


def test_rule_7_5_no_ship_closes_all_at_range() -> None:
    """7.5: "If no ships on either side have chosen to close, then all ships
    fight at range." """
    r = fight(two_sides([RANGE] * 3, [RANGE] * 3), RULES, Rng(1))  # type: ignore[arg-type]
    assert not any(r.close)


def test_rule_7_5_both_sides_close_with_at_least_half_as_many() -> None:
    """7.5: "If some ships on both sides but not all on both sides have chosen
    to close, and the side with fewer ships closing has at least half the
    number of the side with more ships closing, then all ships that have chosen
    to do so fight at close quarters, and those ships that have not chosen to
    do so fight at range." """
    b = two_sides([CLOSE, CLOSE, RANGE], [CLOSE, RANGE, RANGE])
    for r in fights(b, 50):  # type: ignore[arg-type]
        assert r.close == (True, True, False, True, False, False)


def test_rule_7_5_closing_on_the_whole_enemy_fleet_from_windward() -> None:
    """7.5: "If some or all ships on one side have chosen to close, and fewer
    than half the one side's number of closing ships have chosen to close on
    the other side, then those ships that have chosen to close have a chance to
    succeed in closing on the entire enemy fleet. If they succeed, the ships
    that attempted to close, and all ships on the other side, fight at close
    quarters, and ships on the closing side which did not choose to close,
    fight at range."  Mechanics: "The chance is high if the closing ships have
    windward gauge" (75%)."""
    b = two_sides([CLOSE, CLOSE, RANGE], [RANGE, RANGE], windward=0)
    results = fights(b, N)  # type: ignore[arg-type]
    closed = 0
    for r in results:
        assert r.close in ((True, True, False, True, True), (False, False, False, False, False))
        closed += r.close[0]
    assert abs(closed / N - 0.75) < tolerance(0.75, N)


def test_mechanics_closing_from_leeward_is_unlikely_and_quality_helps() -> None:
    """Mechanics: the chance is "low if they have leeward gauge, and also
    depends on ship quality" (25%, +10% per point)."""
    b = two_sides([CLOSE, CLOSE], [RANGE, RANGE], windward=1)
    closed = sum(r.close[0] for r in fights(b, N))  # type: ignore[arg-type]
    assert abs(closed / N - 0.25) < tolerance(0.25, N)
    good = prepare(
        battle(bship("a", 0, quality=Quality.VERY_GOOD), bship("b", 1, quality=Quality.POOR)), RULES
    )
    assert closing_chance(good, [0], [1], windward=False) == 25 + 10 * 4
    assert closing_chance(good, [1], [0], windward=True) == 75 - 10 * 4


def test_mechanics_fewer_than_half_closing_on_the_other_side() -> None:
    """Mechanics: "otherwise the opponents have the above chance to close with
    the ships fighting at range in addition to those fighting at close
    quarters." Four close against one: on failure the willing still close."""
    b = two_sides([CLOSE] * 4, [CLOSE, RANGE], windward=0)
    seen = set()
    for r in fights(b, 300):  # type: ignore[arg-type]
        seen.add(r.close)
    assert seen == {(True,) * 6, (True,) * 5 + (False,)}


def test_mechanics_harbor_battles_are_always_at_close_quarters() -> None:
    """Mechanics: "Battles in harbors are always at close quarters." """
    r = fight(two_sides([RANGE] * 2, [RANGE] * 2, where=Where.HARBOR), RULES, Rng(2))  # type: ignore[arg-type]
    assert all(r.close)


def test_rule_7_5_against_shore_batteries_alone_the_other_side_fights_at_range() -> None:
    """7.5: "In a battle where one side has only shore batteries, the other side
    fights at range." (The defenders here are transports: no warship.)"""
    b = battle(
        bship("a", 0, stance=ENGAGE, range=CLOSE),
        bship("tr", 1, ShipType.TR, crew=500),
        where=Where.HARBOR,
        battery=ShoreBattery(side=1, defense=3),
    )
    r = fight(b, RULES, Rng(3))
    assert r.fought and not any(r.close)


def test_rule_7_5_ships_that_close_lose_ten_percent() -> None:
    """7.5: "Ships that move to close quarters lose 10% of their effective
    strength (because they must initially engage bows-on to the enemy)"."""
    a = bship("a", 0, stance=ENGAGE, range=CLOSE)
    b = bship("b", 1, range=CLOSE)
    r = fight(battle(a, b, windward=1), RULES, Rng(4))
    assert r.strength[0] == ship_strength(RULES, a, close=True, closed=True)
    assert r.strength[0] == 0.9 * ship_strength(RULES, a, close=True)


def test_rule_7_5_quality_and_experience_doubled_at_close_quarters() -> None:
    """7.5: "Quality and experience modifiers are doubled when battles are
    fought at close quarters." Excellent (+30%), experience 36 (+50%)."""
    a = bship("a", 0, stance=ENGAGE, quality=Quality.EXCELLENT, experience=36, marines=0)
    r_range = fight(battle(a, bship("b", 1), windward=1), RULES, Rng(5))
    assert r_range.strength[0] == pytest.approx(100 * 1.3 * 1.5)
    r_close = fight(battle(a, bship("b", 1), where=Where.HARBOR, windward=1), RULES, Rng(5))
    assert r_close.strength[0] == pytest.approx(100 * 1.6 * 2.0)


def test_rule_7_5_close_quarters_damage_more_on_both_sides() -> None:
    """7.5: ships at close quarters "are more likely to damage enemy ships but
    are more likely to be damaged themselves"; mechanics: "more damage likely
    in close quarters battles"."""

    def mean_damage(r: Range, side: int) -> float:
        b = two_sides([r] * 3, [r] * 3, windward=0)
        runs = fights(b, 600)  # type: ignore[arg-type]
        idx = range(3) if side == 0 else range(3, 6)
        return sum(x.hull[i] + x.rigging[i] for x in runs for i in idx) / len(runs)

    for side in (0, 1):
        assert mean_damage(CLOSE, side) > 1.1 * mean_damage(RANGE, side)


def test_mechanics_the_side_with_the_group_furthest_to_leeward_fights_from_leeward() -> None:
    """Mechanics: "if two groups of French ships and two groups of British ships
    all arrive at a port, it may be that a British group is furthest to
    windward, a French group next furthest, the second British group next, and
    the second French group furthest to leeward. In such a case, whichever side
    has the group furthest to leeward is the one that fights from leeward, and
    the other side fights from windward." """
    from pate.core.rules.combat.phase import windward_side
    from pate.core.rules.context import TurnState
    from tests.unit.combat.combat_world import COASTAL, ship, world

    groups = [
        ship("BR1SL", COASTAL, station=0),
        ship("FR1SL", COASTAL, station=1),
        ship("BR2SL", COASTAL, station=2),
        ship("FR2SL", COASTAL, station=3),
    ]
    ts = TurnState(world=world(*groups), orders={})
    assert windward_side(ts, groups, ("BR",)) == 0
    groups[3] = ship("FR2SL", COASTAL, station=1)
    assert windward_side(ts, groups, ("BR",)) == 1
