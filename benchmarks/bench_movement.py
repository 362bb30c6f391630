"""Time to resolve one movement phase (rules 3.8, 6.5), per ship.

The 1805 grand scenario when it is shipped, every ship given a random but
possible order (one or two sea areas, sometimes a port, some pursuing or
evading); and a synthetic world of the same fleets copied four times over the
map, to show how the phase grows with the number of ships.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from pate.core.orders.model import Contact, ContactMode, Movement, ShipOrder
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.movement import movement_phase
from pate.core.rules.winds import draw_winds
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship
from pate.core.world.state import WorldState
from pate.datafiles import load_rule_data, load_scenario, load_world_map


def _orders(world: WorldState, world_map: WorldMap, seed: int) -> dict[str, ShipOrder]:
    r = random.Random(seed)
    out: dict[str, ShipOrder] = {}
    for sid in sorted(world.ships):
        loc = world.ships[sid].location
        if isinstance(loc, AtSea):
            here = loc.area
        elif isinstance(loc, InPort):
            here = world_map.ports[loc.port].sea_area
        else:
            continue
        roll = r.random()
        if roll < 0.3:
            continue  # stays put
        first = here if isinstance(loc, InPort) else r.choice(sorted(world_map.sea_areas[here].adjacent))
        areas: tuple[str, ...] = (first,)
        if roll > 0.6:
            areas += (r.choice(sorted(world_map.sea_areas[first].adjacent)),)
        ports = world_map.ports_reachable_from(areas[-1])
        port = r.choice(ports) if ports and roll > 0.85 else None
        mode = r.choice([ContactMode.ACCEPT, ContactMode.ACCEPT, ContactMode.PURSUE, ContactMode.EVADE])
        out[sid] = ShipOrder(
            sid, movement=Movement(areas, port=port, harbor=True), contact=Contact(mode=mode)
        )
    return out


def _copies(world: WorldState, times: int) -> WorldState:
    ships: dict[str, Ship] = {}
    for k in range(times):
        for ship in world.ships.values():
            number = ship.number + 1000 * k
            sid = f"{ship.state}{number}{ship.type.value}"
            ships[sid] = replace(ship, id=sid, number=number, attached_to=None)
    return replace(world, ships=ships)


def _time(ctx: TurnContext, world: WorldState, repeats: int) -> tuple[float, int]:
    orders = _orders(world, ctx.map, 7)
    best = float("inf")
    events = 0
    for i in range(repeats):
        ts = TurnState(world=world, orders=orders)
        start = time.perf_counter()
        out = movement_phase(ctx, ts, Rng.for_phase(world.seed, world.turn, "movement", i))
        best = min(best, time.perf_counter() - start)
        events = len(out.events)
    return best, events


def run() -> list[tuple[str, str]]:
    world_map, rules = load_world_map(), load_rule_data()
    ctx = TurnContext(map=world_map, rules=rules)
    try:
        world = load_scenario("grand1805").world
        label = "grand 1805"
    except (FileNotFoundError, ValueError):
        world = load_scenario("training").world
        label = "training"
    world = replace(world, winds=draw_winds(world_map, rules, Rng(world.seed)))
    rows: list[tuple[str, str]] = []
    for name, w in ((label, world), (f"{label} x4 (synthetic)", _copies(world, 4))):
        best, events = _time(ctx, w, 5)
        n = len(w.ships)
        rows.append(
            (f"movement phase, {name}: {n} ships, {events} events (ms, best of 5)", f"{best * 1000:.1f}")
        )
        rows.append((f"movement phase, {name}: per ship (µs)", f"{best / n * 1e6:.0f}"))
    return rows
