"""Whole campaigns played by bot admirals through the headless engine.

Legal: every order a bot sends is accepted by the order desk's
own checks, as its player sends it, in every scenario and under every
combat rule set (``COMBAT_RULESETS``: a rule set added there is played
here with no change).  Deterministic: the same knowledge and seed give
the same orders, and a campaign replays byte for byte.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pate.admiral.decide import decide
from pate.core.codec import canonical_json, to_plain
from pate.core.orders.text import parse_orders
from pate.core.world.state import COMBAT_RULESETS, TurnKind, WorldState
from pate.datafiles import load_scenario
from pate.engine.bots import load_levels, parse_bots, seats
from pate.engine.context import turn_context
from pate.engine.simulate import TurnOutput, simulate

TURNS = {"training": 4, "trafalgar": 3, "grand1805": 2}


def run(
    scenario: str,
    rules: str,
    bots: str,
    turns: int,
    world: WorldState | None = None,
    naval_rules: str = "pate",
) -> list[TurnOutput]:
    sc = load_scenario(scenario)
    start = replace(world or sc.world, combat_rules=rules, naval_rules=naval_rules)
    players = seats(start, parse_bots(bots, load_levels()))
    return list(
        simulate(
            turn_context(),
            start,
            campaign="bots",
            seed=start.seed,
            turns=turns,
            orders={},
            render=False,
            place=sc.placement == "random",
            strict=False,
            bots=players,
        )
    )


@pytest.mark.parametrize("rules", COMBAT_RULESETS)
@pytest.mark.parametrize("scenario", sorted(TURNS))
def test_bots_play_every_seat_with_no_refusal(scenario: str, rules: str) -> None:
    """Bold against cautious, every state a bot: no order refused, and the
    fleets put to sea (a bot that sat in port would refuse nothing)."""
    sides = "all:cautious,BR:bold"
    outs = run(scenario, rules, sides, TURNS[scenario])
    assert [r for o in outs for r in o.refusals] == []
    kinds = {e.kind for o in outs for e in o.events}
    assert "sailed" in kinds
    for o in outs[1:]:
        for text in o.bot_orders.values():
            parse_orders(text)  # what a human could have sent


@pytest.mark.parametrize("scenario", sorted(TURNS))
def test_bots_declare_an_operation_for_every_fleet_under_the_eia_operations_rules(scenario: str) -> None:
    """Under the EiA new naval rules every fleet marker takes one operation a turn: the bots
    declare one for each of their fleets, and the order desk refuses none of them.  They raid
    enemy trade from port, rebase to hunt merchants at sea (raiding commerce there, rule 4.8)
    or to come home, and carry their corps; their fleets carry column orders."""
    outs = run(scenario, "pate", "all:cautious,BR:bold", TURNS[scenario], naval_rules="eia-operations")
    assert [r for o in outs for r in o.refusals] == []
    kinds = {e.kind for o in outs for e in o.events}
    assert "operation_revealed" in kinds
    texts = [t for o in outs[1:] for t in o.bot_orders.values()]
    assert any("operation raid" in t for t in texts)
    assert any("operation rebase to " in t for t in texts)
    assert any("commerce raid" in t for t in texts)
    assert any("operation transport " in t or "operation invasion " in t for t in texts)
    # column orders for the fleets of two ships or more (pate.admiral.columns), none refused
    assert any("column " in t and " plan attack carrying" in t for t in texts)


def test_bot_orders_use_the_whole_order_form() -> None:
    """Trafalgar, three turns: squadrons formed (attach), hunts and evasions
    by the odds, commerce raided, stores taken, transports loaded or landed."""
    text = "\n".join(t for o in run("trafalgar", "pate", "all", 3)[1:] for t in o.bot_orders.values())
    for word in ("attach", "pursue max", "evade", "windward", "commerce raid", "stores 24", "harbor"):
        assert word in text, word
    assert "load units" in text or "unload units" in text


def test_peace_turns_name_one_sea_area_or_one_port() -> None:
    """Rule 6.12: on peace turns the bot's moves are one sea area or one
    port, and the desk accepts them."""
    world = load_scenario("training").world
    peace = replace(world, turn_kinds=(TurnKind.PEACE,) * world.turns, kind=TurnKind.PEACE)
    outs = run("training", "pate", "all", 2, peace)
    assert [r for o in outs for r in o.refusals] == []
    moves = [o for out in outs[1:] for t in out.bot_orders.values() for o in parse_orders(t)]
    assert moves and all(len(o.movement.sea_areas) <= 1 for o in moves)
    assert all(not (o.movement.sea_areas and o.movement.port) for o in moves)


def test_same_knowledge_and_seed_give_the_same_orders_and_the_campaign_replays() -> None:
    first = run("trafalgar", "pate", "BR,FR:cautious", 2)
    second = run("trafalgar", "pate", "BR,FR:cautious", 2)
    for a, b in zip(first, second, strict=True):
        assert a.bot_orders == b.bot_orders
        assert canonical_json(to_plain(a.world)) == canonical_json(to_plain(b.world))
    ctx = turn_context()
    level = load_levels()["bold"]
    report = json.loads(first[1].knowledge["villeneuve"])
    once = decide(report, ctx.map, ctx.rules, level, 7)
    assert decide(json.loads(first[1].knowledge["villeneuve"]), ctx.map, ctx.rules, level, 7) == once
    assert once.orders, "Villeneuve has ships to order"


def test_a_bot_orders_only_ships_of_its_own_report() -> None:
    outs = run("trafalgar", "pate", "all", 1)
    for player, text in outs[1].bot_orders.items():
        own = {s["id"] for s in json.loads(outs[0].knowledge[player])["ships"]}
        assert {o.ship_id for o in parse_orders(text)} <= own


def test_the_bot_players_knowledge_alone_is_the_same_bytes_as_everyones() -> None:
    """A run without reports works out only the bots' knowledge (pate.engine.pipeline)."""
    from pate.engine.pipeline import all_knowledge

    world = run("trafalgar", "pate", "BR", 1)[1].world
    ctx = turn_context()
    every = all_knowledge(ctx, world, world, ())
    some = all_knowledge(ctx, world, world, (), ("barham", "villeneuve"))
    assert some == {p: every[p] for p in ("barham", "villeneuve")}
