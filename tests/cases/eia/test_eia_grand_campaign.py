"""A grand1805 campaign under ``combat_rules = "eia-advanced"`` plays 15 turns
headless (the engine of ``pate campaign simulate``), every warship ordered to
engage in melee so that fleets meet; a replay of any turn from its stored
(encoded) world and the same orders gives the same bytes."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

import pytest

from pate.core.campaign import resolve_submitted
from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import Combat, CombatStance, Line, Range, ShipOrder
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.engine.simulate import simulate

MELEE = Combat(stance=CombatStance.ENGAGE, range=Range.CLOSE, line=Line.BREAK)


class LiveOrders(Mapping[int, Sequence[ShipOrder]]):
    """Each turn's orders, written from the world as it stands when the turn opens."""

    def __init__(self) -> None:
        self.world: WorldState | None = None
        self.given: dict[int, list[ShipOrder]] = {}

    def __getitem__(self, turn: int) -> list[ShipOrder]:
        assert self.world is not None
        ships = sorted(self.world.ships.values(), key=lambda s: s.id)
        orders = [
            ShipOrder(s.id, combat=MELEE)
            for s in ships
            if s.active and s.type.is_warship and not s.attached_to
        ]
        self.given[turn] = orders
        return orders

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, 16))

    def __len__(self) -> int:
        return 15


def play() -> tuple[list[tuple[str, str]], LiveOrders, list[WorldState]]:
    sc = load_scenario("grand1805")
    world = replace(sc.world, combat_rules="eia-advanced")
    live = LiveOrders()
    out: list[tuple[str, str]] = []
    starts: list[WorldState] = []
    for o in simulate(turn_context(), world, campaign="g", seed=1805, turns=15, orders=live, render=False):
        live.world = o.world
        starts.append(o.world)
        out.append((canonical_json(to_plain(o.world)), canonical_json([to_plain(e) for e in o.events])))
    return out, live, starts


@pytest.mark.slow
def test_grand1805_under_eia_plays_15_turns_and_replays_byte_for_byte() -> None:
    first, orders, starts = play()
    assert len(first) == 16  # the start and 15 turns
    battles = [e for _, ev in first for e in json.loads(ev) if e["kind"] == "battle"]
    assert battles and all(b["data"]["rules"] == "eia-advanced" for b in battles)
    assert json.loads(first[-1][0])["combat_rules"] == "eia-advanced"
    # replay: decode each stored world and resolve its turn again from the same orders
    fought = [t for t in range(1, 16) if '"kind":"battle"' in first[t][1]]
    for turn in fought[:3]:
        stored = from_plain(WorldState, json.loads(first[turn - 1][0]))
        submitted = [SubmittedOrder(o, Author.COMMANDER, i) for i, o in enumerate(orders.given[turn])]
        result = resolve_submitted(turn_context(), stored, submitted).result
        assert canonical_json(to_plain(result.state)) == first[turn][0]
        assert canonical_json([to_plain(e) for e in result.events]) == first[turn][1]
    assert starts[-1].turn == 16
