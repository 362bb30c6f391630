"""Choosing the rule set in a scenario (docs/formats/scenario.md) and naming admirals."""

from __future__ import annotations

import tomllib

import pytest

from pate.core.scenario.parse import parse_scenario
from pate.core.world.fields import DataError
from pate.core.world.state import AdmiralFate
from pate.datafiles import data_dir, load_nations, load_rule_data, load_scenario, load_world_map


def _raw(**header: object) -> dict:  # type: ignore[type-arg]
    raw = tomllib.loads((data_dir() / "scenarios" / "training.toml").read_text())
    raw["scenario"].update(header)
    return raw


def _parse(raw: dict) -> object:  # type: ignore[type-arg]
    return parse_scenario(raw, load_world_map(), load_rule_data(), load_nations())


def test_pate_is_the_default_rule_set() -> None:
    assert load_scenario("training").world.combat_rules == "pate"


def test_a_scenario_may_choose_the_eia_rules() -> None:
    sc = _parse(_raw(combat_rules="eia-advanced"))
    assert sc.world.combat_rules == "eia-advanced"  # type: ignore[attr-defined]


def test_unknown_rule_sets_are_refused_listing_the_known_ones() -> None:
    with pytest.raises(DataError) as err:
        _parse(_raw(combat_rules="eia-basic"))
    assert "scenario.combat_rules" in str(err.value) and "eia-advanced, eia-advanced-revolution, pate" in str(
        err.value
    )


def test_nelson_is_a_named_admiral_of_the_shipped_scenarios() -> None:
    for name in ("trafalgar", "grand1805"):
        admiral = load_scenario(name).world.admirals["nelson"]
        assert admiral.nelson and admiral.fate is AdmiralFate.ACTIVE


def test_an_admiral_must_be_a_player_of_a_state() -> None:
    raw = _raw()
    raw["admirals"] = {"nobody": {"nelson": True}}
    with pytest.raises(DataError) as err:
        _parse(raw)
    assert "admirals.nobody" in str(err.value)


def test_nelson_s_player_may_choose_1_or_2_for_the_closing_roll() -> None:
    """12.2.6.1.4.2: "may subtract 1 or 2 ... at the option of the controlling player"."""
    raw = _raw()
    raw["admirals"] = {"cornwallis": {"nelson": True, "closing_shift": 1}}
    assert _parse(raw).world.admirals["cornwallis"].closing_shift == 1  # type: ignore[attr-defined]
    raw["admirals"] = {"cornwallis": {"nelson": True, "closing_shift": 3}}
    with pytest.raises(DataError) as err:
        _parse(raw)
    assert "admirals.cornwallis.closing_shift" in str(err.value)
