"""A grand1805 campaign under ``naval_rules = "eia-operations"`` plays 15 turns
headless (the engine of ``pate campaign simulate``), every fleet marker
declaring an operation a bot draws from its legal ones; the world invariants
hold every turn (no ship in two places, no unit both ashore and aboard, money
never negative: checked by the turn runner), and a replay of a turn from its
stored (encoded) world and the same orders gives the same bytes."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

import pytest

from pate.core.campaign import resolve_submitted
from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import ShipOrder
from pate.core.rules.eiaops.choices import bot_operations
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.invariants import world_problems
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.engine.simulate import simulate

CTX = turn_context()
OPS = OpsRules.from_rules(CTX.rules)


class BotOrders(Mapping[int, Sequence[ShipOrder]]):
    """Each turn's operations, drawn from the world as it stands when the turn opens."""

    def __init__(self) -> None:
        self.world: WorldState | None = None
        self.given: dict[int, list[ShipOrder]] = {}

    def __getitem__(self, turn: int) -> list[ShipOrder]:
        assert self.world is not None
        ops = bot_operations(CTX.map, self.world, OPS, self.world.seed)
        self.given[turn] = [ShipOrder(sid, operation=op) for sid, op in sorted(ops.items())]
        return self.given[turn]

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, 16))

    def __len__(self) -> int:
        return 15


def play() -> tuple[list[tuple[str, str]], BotOrders]:
    world = replace(load_scenario("grand1805").world, naval_rules="eia-operations")
    bot = BotOrders()
    out: list[tuple[str, str]] = []
    for o in simulate(CTX, world, campaign="g", seed=1805, turns=15, orders=bot, render=False, strict=True):
        bot.world = o.world
        assert world_problems(o.world, lambda a, b: True) == []
        assert all(v >= 0 for v in o.world.treasury.values())
        out.append((canonical_json(to_plain(o.world)), canonical_json([to_plain(e) for e in o.events])))
    return out, bot


@pytest.mark.slow
def test_grand1805_under_operations_plays_15_turns_and_replays_byte_for_byte() -> None:
    first, bot = play()
    assert len(first) == 16
    kinds = Counter(e["kind"] for _, ev in first for e in json.loads(ev))
    assert kinds["operation_revealed"] > 15 * 40 and kinds["interception"] and kinds["column_battle"]
    assert json.loads(first[-1][0])["naval_rules"] == "eia-operations"
    for turn in (1, 7, 15):
        stored = from_plain(WorldState, json.loads(first[turn - 1][0]))
        submitted = [SubmittedOrder(o, Author.COMMANDER, i) for i, o in enumerate(bot.given[turn])]
        result = resolve_submitted(CTX, stored, submitted).result
        assert canonical_json(to_plain(result.state)) == first[turn][0]
        assert canonical_json([to_plain(e) for e in result.events]) == first[turn][1]
