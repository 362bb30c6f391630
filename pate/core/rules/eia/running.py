"""Blockade running (rule 12.2.9 of the EiA advanced naval rules).

docs/rules/eia.md: ships in a harbor ordered to sail out with the combat order
"Run Past" while enemy ships hold the port's coastal waters (the blockade box)
try to slip past: one die, a 1 or less succeeds (12.2.9.1), less 1 when a
covering force of the same side at least as large comes out to start a
blockade battle (ships in the harbor ordered to Engage, 12.2.9.2).  The
runners that slip past are at sea in the port's sea area and go on with their
moves (the first move, to that sea area, is made); those that fail are in the
coastal waters and fight the blockade battle with the covering force.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.orders.model import CombatStance
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia.params import EiaRules
from pate.core.world.ships import AtSea, InPort, Ship, describe


def _in(ts: TurnState, ids: tuple[str, ...], harbor: bool, port: str) -> list[Ship]:
    w = ts.world
    return [w.ships[i] for i in ids if i in w.ships and w.ships[i].location == InPort(port, harbor=harbor)]


def run_blockades(
    ctx: TurnContext, ts: TurnState, rules: EiaRules, port: str, ids: tuple[str, ...], rng: Rng
) -> TurnState:
    world = ts.world
    state = world.ports.get(port)
    if state is None:
        return ts
    blockaders = [
        s for s in _in(ts, ids, False, port) if not world.diplomacy.allied(s.state, state.controller)
    ]
    if not blockaders:
        return ts
    inside = [s for s in _in(ts, ids, True, port) if world.diplomacy.allied(s.state, state.controller)]
    hostile = [s for s in inside if any(world.diplomacy.hostile(s.state, b.state) for b in blockaders)]
    runners = [s for s in hostile if _runs(ts, s)]
    if not runners:
        return ts
    covering = [
        s for s in hostile if ts.order(s.id).combat.stance is CombatStance.ENGAGE and s not in runners
    ]
    covered = len([s for s in covering if s.type.is_warship]) >= len(runners)
    roll = rng.randint(1, 6)
    modified = roll + (rules.running_covering if covered else 0)
    slipped = modified <= rules.running_slips_upto
    area = ctx.map.ports[port].sea_area
    changed: dict[str, Ship] = {}
    orders = dict(ts.orders)
    for s in runners:
        if slipped:
            changed[s.id] = replace(s, location=AtSea(area, _tactical(ctx, area, rng.fork(s.id))))
            mv = ts.order(s.id).movement
            if mv.sea_areas and mv.sea_areas[0] == area:
                orders[s.id] = replace(ts.order(s.id), movement=replace(mv, sea_areas=mv.sea_areas[1:]))
        else:
            changed[s.id] = replace(s, location=InPort(port, harbor=False))
    kind = "ran_blockade" if slipped else "blockade_run_failed"
    data = {"roll": roll, "covering_force": covered, "modified": modified, "rule": "12.2.9"}
    seen = tuple(i for i in ids if i not in changed)
    event = Event(Phase.COMBAT, kind, tuple(s.id for s in runners), describe(InPort(port, True)), seen, data)
    return replace(ts, world=world.with_ships(changed), orders=orders).emit(event)


def _runs(ts: TurnState, ship: Ship) -> bool:
    order = ts.order(ship.id)
    return ship.active and order.combat.stance is CombatStance.RUN_PAST and bool(order.movement.sea_areas)


def _tactical(ctx: TurnContext, area: str, rng: Rng) -> int:
    return 1 + rng.below(max(1, ctx.map.sea_areas[area].tactical_areas))
