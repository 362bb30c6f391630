"""The bot is fair: it sees only what its player sees (docs/bots.md).

Two worlds that differ only in what the player cannot see (the crews,
stores, quality and experience of enemy ships, and where enemy ships out of
sight of his side lie) must give the same orders.  The worlds go through the
engine's own path: each player's knowledge is worked out from the world as
the intel stage does, and the engine hands it to the bot (pate.engine.bots);
the test would fail if anything of the world but that knowledge reached
the decisions.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pate.core.world.ships import AtSea, Quality, Ship, contact_key
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.bots import load_levels, play_bots
from pate.engine.context import turn_context
from pate.engine.pipeline import all_knowledge
from pate.engine.simulate import simulate


@cache
def start() -> WorldState:
    sc = load_scenario("trafalgar")
    return next(
        iter(simulate(turn_context(), sc.world, campaign="fair", seed=5, turns=1, orders={}, render=False))
    ).world


PLAYERS = sorted(p for p, pl in start().players.items() if pl.state)


def hidden_changes(world: WorldState, player: str, data: st.DataObject) -> WorldState:
    state = world.players[player].state
    assert state is not None
    side = {s for s in {p.state for p in world.players.values()} if s and world.diplomacy.allied(state, s)}
    side.add(state)
    watched = {
        s.location.area for s in world.ships.values() if s.state in side and isinstance(s.location, AtSea)
    }
    watched |= {world_map_area(world, s) for s in world.ships.values() if s.state in side}
    seen = {contact_key(s.location) for s in world.ships.values() if s.state in side}
    quiet = sorted(a for a in turn_context().map.sea_areas if a not in watched)
    changed: dict[str, Ship] = {}
    for sid, ship in sorted(world.ships.items()):
        if not world.diplomacy.hostile(state, ship.state):
            continue
        new = replace(
            ship,
            crew=data.draw(st.integers(0, 900), label=f"{sid}.crew"),
            marines=data.draw(st.integers(0, 200), label=f"{sid}.marines"),
            stores=data.draw(st.integers(0, 24), label=f"{sid}.stores"),
            experience=data.draw(st.integers(0, 40), label=f"{sid}.experience"),
            quality=data.draw(st.sampled_from(list(Quality)), label=f"{sid}.quality"),
        )
        unseen = contact_key(ship.location) not in seen and ship.attached_to is None and not ship.crossing
        free = unseen and quiet and not any(o.attached_to == sid for o in world.ships.values())
        if free and data.draw(st.booleans(), label=f"{sid}.moved"):
            new = replace(new, location=AtSea(data.draw(st.sampled_from(quiet), label=f"{sid}.area"), 1))
        changed[sid] = new
    return world.with_ships(changed)


def world_map_area(world: WorldState, ship: Ship) -> str:
    loc = ship.location
    if isinstance(loc, AtSea):
        return loc.area
    port = getattr(loc, "port", None)
    return turn_context().map.ports[port].sea_area if port in turn_context().map.ports else ""


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(player=st.sampled_from(PLAYERS), level=st.sampled_from(["cautious", "bold"]), data=st.data())
def test_worlds_that_differ_only_in_what_the_player_cannot_see_give_the_same_orders(
    player: str, level: str, data: st.DataObject
) -> None:
    ctx = turn_context()
    one = start()
    two = hidden_changes(one, player, data)
    k1 = all_knowledge(ctx, one, one, ())[player]
    k2 = all_knowledge(ctx, two, two, ())[player]
    assert k1 == k2, "the changes were meant to be out of the player's sight"
    seat = {player: load_levels()[level]}
    d1 = play_bots(ctx, one, {player: k1}, seat).decisions[player]
    d2 = play_bots(ctx, two, {player: k2}, seat).decisions[player]
    assert d1 == d2
    assert d1.orders or not any(s.commander == player for s in one.ships.values())
