"""Resolve one turn: the phases of rule 3.2, in order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from pate.core.events import Event, Phase
from pate.core.orders.model import ShipOrder, StoresMove
from pate.core.rng import Rng
from pate.core.rules import amphibious, intelligence, movement, repair, rulesets, supply
from pate.core.rules.cargo import settle_cargo
from pate.core.rules.context import PhaseFn, TurnContext, TurnState, phase_rng
from pate.core.rules.eiaops.phase import prepare_orders
from pate.core.rules.eiaops.returns import return_to_base
from pate.core.world.state import TurnKind, WorldState


def _final_amphibious(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    """Rule 3.9; then, under the EiA new naval rules, the fleets whose
    Transport or Invasion order said ``return`` sail home, their landing done."""
    return return_to_base(ctx, amphibious.final_amphibious_phase(ctx, ts, rng))


# rule 3.2: repair, supply, initial amphibious, combat, movement, final
# amphibious, intelligence.
PHASES: tuple[tuple[Phase, PhaseFn], ...] = (
    (Phase.REPAIR, repair.repair_phase),
    (Phase.SUPPLY, supply.supply_phase),
    (Phase.INITIAL_AMPHIBIOUS, amphibious.initial_amphibious_phase),
    (Phase.COMBAT, rulesets.combat_phase),  # PATE's or EiA's, by the campaign
    (Phase.MOVEMENT, movement.movement_phase),
    (Phase.FINAL_AMPHIBIOUS, _final_amphibious),
    (Phase.INTELLIGENCE, intelligence.intelligence_phase),
)


@dataclass(frozen=True, slots=True)
class TurnResult:
    state: WorldState  # the world at the start of the next turn
    events: tuple[Event, ...]


def resolve_turn(
    ctx: TurnContext,
    world: WorldState,
    orders: Mapping[str, ShipOrder],
    stores_moves: Sequence[StoresMove] = (),
) -> TurnResult:
    """A pure function of (map, rules, world state, effective orders, the naval
    ministers' store moves of rule 3.5): the same inputs give the same result,
    byte for byte, on any worker."""
    orders = prepare_orders(world, dict(orders))  # the operations rules move fleets by operation only
    ts = TurnState(world=world, orders=dict(orders), start=world, stores_moves=tuple(stores_moves))
    for phase, run in PHASES:
        before, was = len(ts.events), ts.world
        ts = run(ctx, ts, phase_rng(world, phase).with_fixed(ctx.dice_fixed(world.turn)))
        ts = settle_cargo(ctx, ts, was, before)  # lost section 9: cargo goes with its transport
        numbered = tuple(replace(e, step=before + i) for i, e in enumerate(ts.events[before:]))
        ts = replace(ts, events=ts.events[:before] + numbered)
    return TurnResult(state=_advance(ts.world), events=ts.events)


def _advance(world: WorldState) -> WorldState:
    nxt = world.turn + 1
    kind = world.turn_kinds[nxt - 1] if 0 < nxt <= len(world.turn_kinds) else TurnKind.CAMPAIGN
    return replace(world, turn=nxt, kind=kind)
