"""The battle engine as a function: determinism, tiers, invariants, rule data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.core.rng import Rng
from pate.core.ruledata import RulesDataError
from pate.core.rules.combat import CombatRules, Outcome, fight, fight_prepared, parse_spec, prepare
from pate.core.rules.combat.prepare import tiers
from pate.core.world.ships import ShipType
from tests.unit.combat.combat_world import RULE_DATA, RULES, battle, bship, fights

ROOT = Path(__file__).resolve().parents[3]


def trafalgar() -> object:
    raw = json.loads((ROOT / "data" / "battles" / "trafalgar-1805.json").read_text())
    return parse_spec(raw, RULES).battle


def test_same_stream_same_battle_prepared_or_not() -> None:
    b = trafalgar()
    assert fight(b, RULES, Rng(5)) == fight(b, RULES, Rng(5))  # type: ignore[arg-type]
    assert fight(b, RULES, Rng(5)) == fight_prepared(prepare(b, RULES), Rng(5))  # type: ignore[arg-type]
    assert fight(b, RULES, Rng(5)) != fight(b, RULES, Rng(6))  # type: ignore[arg-type]


def test_invariants_over_many_battles() -> None:
    b = trafalgar()
    for r in fights(b, 200):  # type: ignore[arg-type]
        assert r.winner in (0, 1)
        totals = [0.0, 0.0]
        for i, s in enumerate(b.ships):  # type: ignore[attr-defined]
            totals[s.side] += r.strength[i]
            assert 0 <= r.hull[i] <= 5 and 0 <= r.rigging[i] <= 5
            assert r.hull[i] >= s.hull and r.rigging[i] >= s.rigging
            assert 0 <= r.crew_lost[i] <= s.crew and 0 <= r.marines_lost[i] <= s.marines
            assert (r.outcome[i] is Outcome.CAPTURED) == (r.captor[i] is not None)
            if r.outcome[i] is not Outcome.SUNK:
                assert 1 <= r.experience_gained[i] <= 5
        e = r.engagements[0]
        assert e.strength == pytest.approx(tuple(totals))


def test_tiers_at_sea_and_in_harbor() -> None:
    ships = (
        bship("sl", 0),
        bship("fr", 0, ShipType.FR),
        bship("tr0", 0, ShipType.TR, crew=500),
        bship("fr1", 1, ShipType.FR),
        bship("tr1", 1, ShipType.TR, crew=500),
    )
    assert tiers(battle(*ships)) == (("line", (0, 2)), ("frigates", (1, 3, 4)))
    from pate.core.rules.combat import Where

    assert tiers(battle(*ships, where=Where.HARBOR)) == (("all", (0, 1, 2, 3, 4)),)
    # an uncovered convoy facing no enemy frigate falls to the ships of the line
    lone = (bship("sl", 0), bship("tr", 1, ShipType.TR, crew=500))
    assert tiers(battle(*lone)) == (("line", (0, 1)), ("frigates", ()))


def test_rule_data_is_read_once_with_every_problem_named() -> None:
    section = {k: dict(v) for k, v in RULE_DATA.section("combat").items()}
    del section["capture"]["max_pct"]
    section["outcome"]["luck_sigma"] = "high"
    with pytest.raises(RulesDataError) as err:
        CombatRules.from_section(
            section, base_strength=RULES.base_strength, max_crew=RULES.max_crew, max_marines=RULES.max_marines
        )
    assert "combat.capture.max_pct: missing" in err.value.problems
    assert "combat.outcome.luck_sigma: not a number" in err.value.problems


def test_the_data_file_matches_the_fixed_numbers_of_the_texts() -> None:
    s = RULES.strength
    assert (s.marines_per_point, s.crew_threshold_pct, s.crew_penalty_per_pct) == (20, 70, 2.5)
    assert (s.aim_hull_pct, s.windward_pct, s.closing_pct) == (10, 10, -10)
    assert (s.break_success_pct, s.break_failure_pct, s.run_past_pct) == (33, -25, -66.7)
    assert (s.battery_per_defense, s.battery_damaged_pct) == (100, 50)
    line = RULES.line
    assert (line.min_ships, line.lose_coordination_pct, line.break_through_pct) == (3, 30, 60)
    assert (RULES.base_strength[ShipType.FL], RULES.base_strength[ShipType.SL]) == (135, 100)
