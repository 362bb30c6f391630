"""Real turns through the real engine, for the intel and report tests: the demo
campaign (the training scenario with examples/orders/*.txt) and a few turns
of the Trafalgar scenario under orders that seek battle and keep moving."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pate.core.campaign import resolve_submitted, start_campaign
from pate.core.events import Event
from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import (
    Combat,
    CombatStance,
    Contact,
    ContactMode,
    Gauge,
    Line,
    Movement,
    Range,
    ShipOrder,
)
from pate.core.orders.text import parse_orders
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.engine.simulate import TurnOutput, simulate

ROOT = Path(__file__).resolve().parents[3]  # the repository
DEMO_SEED = 1805


def demo_orders() -> list[ShipOrder]:
    """examples/orders/<player>-<topic>.txt, every file, in name order."""
    orders: list[ShipOrder] = []
    for path in sorted((ROOT / "examples" / "orders").glob("*.txt")):
        orders += parse_orders(path.read_text(encoding="utf-8"))
    return orders


@cache
def demo_turn() -> TurnOutput:
    """Turn 1 of the demo campaign, with every player's reports rendered."""
    ctx = turn_context()
    world = load_scenario("training").world
    outputs = simulate(
        ctx, world, campaign="demo", seed=DEMO_SEED, turns=1, orders={1: demo_orders()}, place=False
    )
    return list(outputs)[1]


@dataclass(frozen=True, slots=True)
class Turn:
    before: WorldState
    after: WorldState
    events: tuple[Event, ...]


def _bold_order(world: WorldState, sid: str, r: random.Random) -> ShipOrder | None:
    """Sail one or two sea areas or into a port, pursue, and close to break the line."""
    ctx = turn_context()
    loc = world.ships[sid].location
    if isinstance(loc, InPort):
        here = ctx.map.ports[loc.port].sea_area
        movement = Movement(sea_areas=(here,)) if r.random() < 0.7 else Movement()
    elif isinstance(loc, AtSea):
        first = r.choice(sorted(ctx.map.sea_areas[loc.area].adjacent))
        ports = ctx.map.connected_ports(loc.area)
        if ports and r.random() < 0.3:
            movement = Movement(port=r.choice(sorted(ports)), harbor=r.random() < 0.5)
        else:
            second = r.choice(sorted(ctx.map.sea_areas[first].adjacent))
            movement = Movement(sea_areas=(first, second))
    else:
        return None
    return ShipOrder(
        sid,
        movement=movement,
        contact=Contact(
            mode=r.choice([ContactMode.PURSUE, ContactMode.ACCEPT, ContactMode.EVADE]),
            gauge=r.choice(list(Gauge)),
        ),
        combat=Combat(stance=CombatStance.ENGAGE, range=Range.CLOSE, line=r.choice(list(Line))),
    )


def bold_turns(scenario: str, *, seed: int, turns: int) -> Iterator[Turn]:
    ctx = turn_context()
    r = random.Random(seed)
    world = start_campaign(ctx, load_scenario(scenario).world, "bold", seed, 15, place=scenario != "training")
    for _ in range(turns):
        orders = [o for sid in sorted(world.ships) if (o := _bold_order(world, sid, r)) is not None]
        submitted = [SubmittedOrder(o, Author.COMMANDER, i) for i, o in enumerate(orders)]
        result = resolve_submitted(ctx, world, submitted).result
        yield Turn(world, result.state, result.events)
        world = result.state


@cache
def engine_turns() -> tuple[Turn, ...]:
    """The demo turn and a few bold turns of the training and Trafalgar scenarios."""
    demo = demo_turn()
    ctx = turn_context()
    start = start_campaign(ctx, load_scenario("training").world, "demo", DEMO_SEED, 1, place=False)
    return (
        Turn(start, demo.world, demo.events),
        *bold_turns("training", seed=3, turns=3),
        *bold_turns("trafalgar", seed=0, turns=3),
    )
