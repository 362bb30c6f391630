"""Rules 7.1, 7.5, 7.7 and 6.6: coming in under the batteries
(docs/rules/combat.md, decision 17).

7.1: "If the battle takes places in the harbor, then the shore batteries
defending the harbor will take part"; the mechanics page: "Battles in harbors
are always at close quarters"; 6.6: ships "may not enter or exit a port if they
must sail upwind into heavy winds".

Decision 17: in a harbor battle where a shore battery fights and its side has
warships to close with, each ship of the other side must come in under the
guns.  She grounds with the chance ground_per_defense_pct x the port's defense
rating; afloat, she comes in with close_pct[wind] plus
close_quality_pct_per_point per point of her side's quality edge, and stays out
of the fight (idle) otherwise: in light airs the mechanics page's "low" chance
of closing from leeward, in moderate and heavy winds always.  A grounded ship
fights at grounded_strength_pct, draws grounded_target_factor times her share
of the fire, and, if her side is beaten, cannot get off: she is taken at
max_pct unless she sinks.  If her side wins she is got off.
"""

from __future__ import annotations

from typing import Any

import pytest

from pate.core.orders.model import CombatStance
from pate.core.ruledata import RulesDataError
from pate.core.rules.combat import Outcome, Where
from pate.core.rules.combat.model import Battle, ShoreBattery
from pate.core.rules.combat.params import CombatRules
from pate.core.world.geography import WindStrength
from pate.core.world.ships import Quality, ShipType
from tests.unit.combat.combat_world import RULE_DATA, RULES, battle, bship, fights, tolerance

H = RULES.harbor
ENGAGE = CombatStance.ENGAGE
RUNS = 400


def _harbor(attackers: int, defenders: int, wind: WindStrength, defense: int = 3, **kw: Any) -> Battle:
    ships = [bship(f"a{k}", 0, stance=ENGAGE, **kw) for k in range(attackers)]
    ships += [bship(f"d{k}", 1) for k in range(defenders)]
    return battle(*ships, where=Where.HARBOR, wind=wind, battery=ShoreBattery(side=1, defense=defense))


def _attackers(b: Battle) -> list[int]:
    return [i for i, s in enumerate(b.ships) if s.side == 0]


def test_rule_7_1_in_light_airs_most_attackers_fail_to_come_in() -> None:
    """Decision 17: afloat, a ship comes in with close_pct[light] (the "low"
    chance from leeward) and otherwise stays out of the fight, idle; she grounds
    first with 4% x the port's defense rating."""
    b = _harbor(5, 3, WindStrength.LIGHT, defense=3)
    results = fights(b, RUNS, seed=3)
    n = RUNS * 5
    idle = sum(r.outcome[i] is Outcome.IDLE for r in results for i in _attackers(b))
    grounded = sum(bool(r.grounded) and r.grounded[i] for r in results for i in _attackers(b))
    p_ground = H.ground_per_defense_pct * 3 / 100
    p_idle = (1 - p_ground) * (1 - H.close_pct[WindStrength.LIGHT] / 100)
    assert abs(idle / n - p_idle) < tolerance(p_idle, n)
    assert abs(grounded / n - p_ground) < tolerance(p_ground, n)


def test_rule_7_1_in_moderate_winds_every_attacker_comes_in() -> None:
    """Decision 17: in moderate winds close_pct is 100: nobody stays out, and
    the grounding chance grows with the port's defense rating (4% a point)."""
    for defense in (2, 6):
        b = _harbor(5, 3, WindStrength.MODERATE, defense=defense)
        results = fights(b, RUNS, seed=4)
        assert all(r.outcome[i] is not Outcome.IDLE for r in results for i in _attackers(b))
        n = RUNS * 5
        grounded = sum(bool(r.grounded) and r.grounded[i] for r in results for i in range(5))
        p = H.ground_per_defense_pct * defense / 100
        assert abs(grounded / n - p) < tolerance(p, n)


def test_rule_7_1_a_better_squadron_comes_in_more_often() -> None:
    """Decision 17: +close_quality_pct_per_point per point of the attackers'
    mean quality over the defenders' ships."""
    b = _harbor(5, 3, WindStrength.LIGHT, defense=0, quality=Quality.EXCELLENT)
    results = fights(b, RUNS, seed=5)
    n = RUNS * 5
    came = sum(r.outcome[i] is not Outcome.IDLE for r in results for i in _attackers(b))
    p = (H.close_pct[WindStrength.LIGHT] + 3 * H.close_quality_pct_per_point) / 100
    assert abs(came / n - p) < tolerance(p, n)


def test_rule_7_1_nobody_comes_in_means_no_battle() -> None:
    """Decision 17: with every attacker out of the fight there is no battle:
    no winner, every ship idle."""
    b = _harbor(1, 1, WindStrength.LIGHT, defense=0)
    results = fights(b, RUNS, seed=6)
    quiet = [r for r in results if r.outcome[0] is Outcome.IDLE]
    assert quiet
    assert all(r.winner is None and not r.fought and r.outcome[1] is Outcome.IDLE for r in quiet)


def test_rule_7_1_no_grounding_without_a_battery_or_outside_a_harbor() -> None:
    """Decision 17 is about coming in under the guns: no battery, or coastal
    waters, and every ship fights as ordered."""
    ships = [bship(f"a{k}", 0, stance=ENGAGE) for k in range(4)] + [bship("d", 1)]
    for b in (
        battle(*ships, where=Where.HARBOR, wind=WindStrength.LIGHT),
        battle(*ships, where=Where.COASTAL, wind=WindStrength.LIGHT, battery=ShoreBattery(side=1, defense=6)),
    ):
        for r in fights(b, 100, seed=7):
            assert r.grounded == ()
            assert all(o is not Outcome.IDLE for o in r.outcome)


def test_rule_7_1_against_the_batteries_alone_nobody_grounds() -> None:
    """7.5: against shore batteries alone (the defenders a transport group) the
    ships fight at range, not under the guns: decision 17 does not apply."""
    b = battle(
        *[bship(f"a{k}", 0, stance=ENGAGE) for k in range(4)],
        bship("t", 1, ShipType.TR),
        where=Where.HARBOR,
        wind=WindStrength.LIGHT,
        battery=ShoreBattery(side=1, defense=6),
    )
    for r in fights(b, 50, seed=8):
        assert r.fought and r.grounded == ()
        assert all(r.outcome[i] is not Outcome.IDLE and not r.close[i] for i in range(4))


def test_rule_7_1_a_grounded_ship_fights_at_half_strength() -> None:
    """Decision 17: a grounded ship fights at grounded_strength_pct (-50%)."""
    b = _harbor(6, 3, WindStrength.MODERATE, defense=6)
    seen = 0
    for r in fights(b, 100, seed=9):
        if not r.grounded:
            continue
        afloat = [r.strength[i] for i in range(6) if not r.grounded[i]]
        for i in range(6):
            if r.grounded[i] and afloat:
                assert r.strength[i] == pytest.approx(afloat[0] * (1 + H.grounded_strength_pct / 100))
                seen += 1
    assert seen > 0


def test_rule_7_1_a_grounded_ship_of_a_beaten_side_is_taken_and_of_a_victor_got_off() -> None:
    """Decision 17: beaten, a grounded ship cannot get off: taken at max_pct
    (95%) unless she sinks, hurt or not; victorious, she stays with her side."""
    b = _harbor(3, 3, WindStrength.MODERATE, defense=6, quality=Quality.POOR)
    taken = afloat = 0
    for r in fights(b, RUNS, seed=10):
        for i in range(3):
            if not (r.grounded and r.grounded[i]):
                continue
            if r.winner == 0:
                assert r.outcome[i] in (Outcome.FOUGHT, Outcome.SUNK)
            elif r.outcome[i] is not Outcome.SUNK:
                afloat += 1
                taken += r.outcome[i] is Outcome.CAPTURED
    p = RULES.capture.max_pct / 100
    assert afloat > 50
    assert abs(taken / afloat - p) < tolerance(p, afloat)


def test_rule_7_1_a_grounded_ship_draws_the_batteries_fire() -> None:
    """Decision 17: a grounded ship draws grounded_target_factor (2) times her
    share of the enemy's fire: she ends with more damage than the ships afloat."""
    b = _harbor(6, 3, WindStrength.MODERATE, defense=6)
    aground: list[int] = []
    afloat: list[int] = []
    for r in fights(b, RUNS, seed=11):
        if not r.grounded:
            continue
        for i in range(6):
            (aground if r.grounded[i] else afloat).append(r.hull[i] + r.rigging[i])
    assert sum(aground) / len(aground) > 1.5 * sum(afloat) / len(afloat)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("close_pct", {"light": 120, "moderate": 100, "heavy": 100}),
        ("ground_per_defense_pct", -1),
        ("grounded_strength_pct", 10),
        ("grounded_target_factor", 0.5),
    ],
)
def test_rule_7_1_harbor_numbers_are_validated(key: str, value: Any) -> None:
    """The numbers of decision 17 are data (combat.toml [harbor]), checked on load."""
    section = dict(RULE_DATA.section("combat"))
    section["harbor"] = {**section["harbor"], key: value}
    with pytest.raises(RulesDataError, match=f"combat.harbor.{key}"):
        CombatRules.from_section(
            section, base_strength=RULES.base_strength, max_crew=RULES.max_crew, max_marines=RULES.max_marines
        )
