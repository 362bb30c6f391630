"""Winds (rule 1.4) and courses relative to them (6.6)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import pytest

from pate.core.rng import Rng
from pate.core.rules.winds import (
    Heading,
    WindRules,
    complete_winds,
    draw_winds,
    heading,
    onshore,
    shift_winds,
    wind_of_port,
)
from pate.core.world.geography import WindTable, WorldMap
from pate.core.world.state import Wind
from tests.unit.movement.maps import HEAVY, LIGHT, MODERATE, RULES, TOY_MAP, E, N, S, W


def _tolerance(p: float, n: int) -> float:
    """Four standard deviations of a proportion measured over n draws."""
    return 4 * math.sqrt(p * (1 - p) / n)


def test_heading_relative_to_the_wind() -> None:
    wind = Wind(W, MODERATE)  # blowing from the west
    assert heading(W, wind) is Heading.UPWIND
    assert heading(E, wind) is Heading.DOWNWIND
    assert heading(N, wind) is Heading.ACROSS
    assert heading(S, wind) is Heading.ACROSS


def test_onshore_wind_blows_from_the_exit_direction() -> None:
    lisbon = TOY_MAP.ports["Lisbon"]  # exits west
    assert onshore(lisbon, Wind(W, LIGHT))
    assert not onshore(lisbon, Wind(E, LIGHT))


def test_rule_1_4_one_wind_per_sea_area_and_ports_share_it() -> None:
    winds = draw_winds(TOY_MAP, RULES, Rng(5))
    assert set(winds) == set(TOY_MAP.sea_areas)
    assert wind_of_port(TOY_MAP, winds, "Gibraltar") == winds["WMD"]  # 6.3: weather of WMD only


def test_rule_1_4_winds_follow_the_sea_area_table() -> None:
    table = WindTable(direction=((N, 70), (E, 30)), strength=((LIGHT, 10), (HEAVY, 90)))
    area = replace(TOY_MAP.sea_areas["SOC"], winds=table)
    one = WorldMap(sea_areas={"SOC": area}, ports={})
    n = 4000
    dirs: Counter[str] = Counter()
    strengths: Counter[str] = Counter()
    for seed in range(n):
        w = draw_winds(one, RULES, Rng(seed))["SOC"]
        dirs[w.direction] += 1
        strengths[w.strength] += 1
    assert set(dirs) == {N, E} and set(strengths) == {LIGHT, HEAVY}
    assert abs(dirs[N] / n - 0.7) < _tolerance(0.7, n)
    assert abs(strengths[HEAVY] / n - 0.9) < _tolerance(0.9, n)


def test_an_area_draws_the_same_wind_whatever_other_areas_exist() -> None:
    alone = WorldMap(sea_areas={"SOC": TOY_MAP.sea_areas["SOC"]}, ports={})
    assert draw_winds(alone, RULES, Rng(9))["SOC"] == draw_winds(TOY_MAP, RULES, Rng(9))["SOC"]


def test_complete_winds_keeps_given_winds_and_fills_the_rest() -> None:
    given = {"SOC": Wind(N, HEAVY)}
    winds = complete_winds(TOY_MAP, RULES, given, Rng(1))
    assert winds["SOC"] == Wind(N, HEAVY) and set(winds) == set(TOY_MAP.sea_areas)


@pytest.mark.parametrize(("percent", "expect_change"), [(0, False), (100, True)])
def test_rule_3_8_winds_may_change(percent: int, expect_change: bool) -> None:
    table = WindTable(direction=((S, 100),), strength=((LIGHT, 100),))
    area = replace(TOY_MAP.sea_areas["SOC"], winds=table)
    one = WorldMap(sea_areas={"SOC": area}, ports={})
    rules = replace(
        RULES,
        sections={
            **RULES.sections,
            "winds": {"shift": {"direction_percent": percent, "strength_percent": percent}},
        },
    )
    shifted = shift_winds(one, rules, {"SOC": Wind(N, HEAVY)}, Rng(3))
    assert (shifted["SOC"] != Wind(N, HEAVY)) is expect_change
    if expect_change:
        assert shifted["SOC"] == Wind(S, LIGHT)


def test_wind_rules_read_the_data_file() -> None:
    params = WindRules.of(RULES)
    assert 0 <= params.direction_shift_percent <= 100
    assert sum(w for _, w in params.default_direction) > 0
