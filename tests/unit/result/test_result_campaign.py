"""A whole campaign of 15 turns played by bot admirals through the headless engine,
then its final account (docs/rules/result.md): the account adds up."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from pate.core.result import TYPES, CampaignResult, campaign_result
from pate.datafiles import load_rule_data, load_scenario
from pate.engine.bots import load_levels, parse_bots, seats
from pate.engine.context import turn_context
from pate.engine.simulate import TurnOutput, simulate


def _play(scenario: str, bots: str, combat: str = "pate", naval: str = "pate") -> list[TurnOutput]:
    sc = load_scenario(scenario)
    start = replace(sc.world, combat_rules=combat, naval_rules=naval)
    players = seats(start, parse_bots(bots, load_levels()))
    return list(
        simulate(
            turn_context(),
            start,
            campaign="result",
            seed=start.seed,
            turns=15,
            orders={},
            render=False,
            place=sc.placement == "random",
            strict=False,
            bots=players,
        )
    )


def _result(outs: list[TurnOutput]) -> CampaignResult:
    events = {o.turn: o.events for o in outs if o.turn > 0}
    return campaign_result(outs[0].world, outs[-1].world, events, load_rule_data().result_scoring())


@pytest.fixture(scope="module")
def trafalgar() -> tuple[list[TurnOutput], CampaignResult]:
    outs = _play("trafalgar", "all:bold")
    return outs, _result(outs)


def test_a_15_turn_campaign_s_account_adds_up(trafalgar: tuple[list[TurnOutput], CampaignResult]) -> None:
    """Decision (result.md): "every ship that left a navy did so by an event the account
    reads": each side's end count by type is the world's, and is its start count less its
    losses plus its prizes (transport groups combined and divided apart)."""
    outs, result = trafalgar
    assert [o.turn for o in outs][-1] == 15
    final = outs[-1].world
    for a in result.sides:
        counted = Counter(s.type.value for s in final.ships.values() if s.state in a.states)
        assert a.ships_end == {t: counted[t] for t in TYPES}
        assert a.unrecorded == dict.fromkeys(TYPES, 0), a.side
    assert sum(sum(a.ships_end.values()) for a in result.sides) == len(final.ships)


def test_one_side_s_losses_are_the_other_s_sinkings_and_prizes(
    trafalgar: tuple[list[TurnOutput], CampaignResult],
) -> None:
    """With two sides at war: ships lost to the enemy by one side's account are the ships
    sunk and taken in the other's, type by type; so are the merchants."""
    _outs, result = trafalgar
    navies = [a for a in result.sides if sum(a.ships_start.values())]
    assert len(navies) == 2
    one, two = navies
    assert sum(sum(a.taken.values()) + sum(a.sunk.values()) for a in navies) > 0, "no battle: nothing checked"
    for mine, theirs in ((one, two), (two, one)):
        assert mine.sunk == theirs.sank and mine.taken == theirs.prizes
        assert mine.merchants_lost == theirs.merchants_taken
    assert one.won + two.won + one.lost + two.lost == result.verdict.in_play


def test_the_result_is_deterministic(trafalgar: tuple[list[TurnOutput], CampaignResult]) -> None:
    """The same campaign gives the same account and the same result sentence."""
    _outs, result = trafalgar
    again = _result(_play("trafalgar", "all:bold"))
    assert again == result
    assert result.verdict.sentence.split(" by the account")[0] in (
        "Draw",
        f"Marginal victory of the {result.sides[0].name}",
        f"Decisive victory of the {result.sides[0].name}",
        f"Marginal victory of the {result.sides[1].name}",
        f"Decisive victory of the {result.sides[1].name}",
    )


@pytest.mark.parametrize(
    ("combat", "naval"),
    [("eia-advanced", "pate"), ("eia-advanced-revolution", "pate"), ("pate", "eia-operations")],
)
def test_the_account_adds_up_under_every_rule_set(combat: str, naval: str) -> None:
    """The EiA rules take prizes with no captor ship and lose disabled ships en route
    (12.2.6.1.9), the EiA operations take trade ships: the account still adds up."""
    outs = _play("trafalgar", "all:bold", combat, naval)
    result = _result(outs)
    one, two = (a for a in result.sides if sum(a.ships_start.values()))
    for mine, theirs in ((one, two), (two, one)):
        assert mine.unrecorded == dict.fromkeys(TYPES, 0)
        assert mine.sunk == theirs.sank and mine.taken == theirs.prizes
        assert mine.merchants_lost == theirs.merchants_taken
