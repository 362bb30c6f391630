"""Rules 3.1 and 3.2 through the headless engine the services use."""

from __future__ import annotations

from pate.core.events import PHASE_ORDER, Phase
from pate.core.rules.turn import PHASES, resolve_turn
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.engine.simulate import simulate


def test_rule_3_2_the_phases_run_in_the_order_of_the_book() -> None:
    """3.2: "Each turn is divided into a series of phases; the repair phase, supply phase,
    initial amphibious phase, combat phase, movement phase, final amphibious phase, and
    intelligence phase." """
    assert [p for p, _ in PHASES] == [
        Phase.REPAIR,
        Phase.SUPPLY,
        Phase.INITIAL_AMPHIBIOUS,
        Phase.COMBAT,
        Phase.MOVEMENT,
        Phase.FINAL_AMPHIBIOUS,
        Phase.INTELLIGENCE,
    ]
    assert list(PHASE_ORDER) == [p for p, _ in PHASES]


def test_rule_3_2_events_come_out_in_phase_order() -> None:
    """3.2: the phases follow one another; no event of a later phase precedes an earlier one."""
    ctx = turn_context()
    world = load_scenario("training").world
    result = resolve_turn(ctx, world, {})
    order = [PHASE_ORDER.index(e.phase) for e in result.events]
    assert order == sorted(order)
    assert result.state.turn == world.turn + 1


def test_rule_3_1_a_campaign_is_a_sequence_of_turns() -> None:
    """3.1: "PATE is played as a sequence of turns. A campaign consists of 15 turns unless the
    campaign ends earlier through negotiation." """
    scenario = load_scenario("training")
    assert scenario.world.turns == 15
    outputs = list(
        simulate(
            turn_context(),
            scenario.world,
            campaign="t",
            seed=7,
            turns=3,
            orders={},
            render=False,
            place=False,
        )
    )
    assert [o.turn for o in outputs] == [0, 1, 2, 3]
    assert [o.world.turn for o in outputs] == [1, 2, 3, 4]


def test_the_same_inputs_resolve_to_the_same_bytes() -> None:
    """Determinism: same state + orders + seed gives the same result, byte for byte."""
    from pate.core.codec import canonical_json, to_plain

    ctx = turn_context()
    world = load_scenario("trafalgar").world

    def run() -> str:
        r = resolve_turn(ctx, world, {})
        return canonical_json([to_plain(r.state), [to_plain(e) for e in r.events]])

    assert run() == run()
