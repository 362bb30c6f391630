"""Rule 3.5 in the reports: the naval minister who moved stores reads what came of it."""

from pate.core.intel.knowledge import knowledge_for
from pate.core.orders.model import StoresMove
from pate.core.rules.turn import resolve_turn
from pate.datafiles import load_scenario
from pate.engine.context import turn_context


def test_rule_3_5_the_minister_sees_his_store_moves_and_nobody_else_does() -> None:
    """3.5: "The Naval Minister can order stores moved from one port to another"."""
    ctx = turn_context()
    world = load_scenario("training").world
    result = resolve_turn(ctx, world, {}, [StoresMove("FR", "Ajaccio", "Bastia", 10)])
    assert any(e.kind == "stores_moved" for e in result.events)

    def kinds(player: str) -> set[str]:
        k = knowledge_for(player, world, result.state, result.events, ctx.map, ctx.rules)
        return {e.kind for e in k.events}

    assert "stores_moved" in kinds("decres")  # the French naval minister
    assert "stores_moved" not in kinds("ganteaume")  # a French commander
    assert "stores_moved" not in kinds("barham")  # the British naval minister
