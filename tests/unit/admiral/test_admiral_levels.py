"""The bot admirals' levels (data/bots.toml, docs/formats/bots.md)."""

from __future__ import annotations

import pytest

from pate.admiral.levels import LevelsDataError, parse_levels
from pate.engine.bots import load_levels, parse_bots


def test_the_shipped_levels_are_cautious_and_bold_and_bold_takes_worse_odds() -> None:
    levels = load_levels()
    assert {"cautious", "bold"} <= set(levels)
    assert levels["bold"].attack_odds < levels["cautious"].attack_odds
    assert levels["bold"].blockade and not levels["cautious"].blockade


def _table(**changes: object) -> dict[str, object]:
    good: dict[str, object] = {
        "attack_odds": 1.5,
        "close_odds": 2.0,
        "evade_odds": 1.0,
        "home_stores": 8,
        "repair_damage": 2,
        "blockade": False,
        "raid_share": 50,
        "convoy": True,
        "land": False,
        "port_stores_low": 30,
        "port_stores_spare": 120,
        "enemy_quality": 1,
    }
    good.update(changes)
    return {k: v for k, v in good.items() if v is not None}


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"attack_odds": None}, "levels.x.attack_odds: missing"),
        ({"home_stores": 25}, "levels.x.home_stores: give a whole number from 0 to 24"),
        ({"blockade": "yes"}, "levels.x.blockade: give true or false"),
        ({"evade_odds": 0}, "levels.x.evade_odds: give odds above 0, at most 100"),
        ({"evade_odds": 3.0}, "levels.x.evade_odds: must not exceed attack_odds"),
        ({"boldness": 3}, "levels.x.boldness: unknown field"),
    ],
)
def test_a_bad_level_is_refused_naming_the_field(changes: dict[str, object], problem: str) -> None:
    with pytest.raises(LevelsDataError) as err:
        parse_levels({"levels": {"x": _table(**changes)}})
    assert problem in err.value.problems


def test_the_bots_option_names_states_and_levels_and_refuses_unknown_ones() -> None:
    levels = load_levels()
    assert parse_bots("br, FR:cautious", levels) == {"BR": levels["bold"], "FR": levels["cautious"]}
    with pytest.raises(ValueError, match="'clever' is not a level"):
        parse_bots("BR:clever", levels)
    with pytest.raises(ValueError, match="is not a state code"):
        parse_bots("Britain", levels)


def test_a_level_judges_the_eia_rules_battles_for_itself() -> None:
    """data/bots.toml: under eia-advanced the odds wanted grow and the
    blockade is kept from the open sea (no port raid); other rule sets
    play the level as written."""
    bold = load_levels()["bold"]
    eia = bold.under("eia-advanced")
    assert eia.attack_odds == pytest.approx(bold.attack_odds * 1.5) and eia.open_blockade
    assert bold.under("pate") == bold and not bold.open_blockade


def test_a_bad_rule_set_judgement_is_refused_naming_the_field() -> None:
    bad = _table()
    bad["rulesets"] = {"eia-advanced": {"odds_factor": 0, "raid": True}}
    with pytest.raises(LevelsDataError) as err:
        parse_levels({"levels": {"x": bad}})
    assert "levels.x.rulesets.eia-advanced.odds_factor: give a number from 0.1 to 10" in err.value.problems
    assert "levels.x.rulesets.eia-advanced.raid: unknown field" in err.value.problems
