"""Campaign-level steps of the core: starting a campaign and resolving a turn
from the orders as submitted.  The services and the headless engine both call
these, so there is one implementation of each rule."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pate.core.events import Event
from pate.core.orders.effective import (
    EffectiveOrder,
    SubmittedOrder,
    attachments_after_orders,
    effective_orders,
    end_broken_attachments,
    together,
)
from pate.core.orders.model import StoresMove
from pate.core.orders.whose import mark_orders
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext
from pate.core.rules.landevents import apply_land_events
from pate.core.rules.landsaga import LandWord, undo_refused
from pate.core.rules.landsync import PortLandReport, apply_land_reports
from pate.core.rules.placement import place_at_start
from pate.core.rules.transport import SpaceRules
from pate.core.rules.turn import TurnResult, resolve_turn
from pate.core.rules.winds import draw_winds
from pate.core.world.invariants import check_world
from pate.core.world.state import WorldState


@dataclass(frozen=True, slots=True)
class Resolution:
    effective: dict[str, EffectiveOrder]
    result: TurnResult


def start_campaign(
    ctx: TurnContext, world: WorldState, campaign: str, seed: int, turns: int, *, place: bool = True
) -> WorldState:
    """Turn 1 of a new campaign: ships placed at station or base (rule 2.8)
    unless the scenario keeps its positions, and the first winds drawn, all
    from the campaign seed."""
    world = replace(world, campaign=campaign, seed=seed, turns=turns, turn=1)
    if place:
        world = place_at_start(ctx.map, ctx.rules, world, Rng.for_phase(seed, 0, "placement"))
    winds = draw_winds(ctx.map, ctx.rules, Rng.for_phase(seed, 0, "winds"))
    return replace(world, winds=winds)


def resolve_submitted(
    ctx: TurnContext,
    world: WorldState,
    submitted: Iterable[SubmittedOrder],
    stores_moves: Sequence[StoresMove] = (),
    land_reports: Sequence[PortLandReport] = (),
    land_word: LandWord | None = None,
) -> Resolution:
    """Precedence, attachment copying and defaults (4.1, 4.2, 4.11), then the
    phases of rule 3.2, with the naval ministers' store moves (3.5) and what
    GITM reported of the land units in the ports (section 9)."""
    effective = effective_orders(world.ships, submitted)
    result = resolve_effective(ctx, world, effective, stores_moves, land_reports, land_word)
    return Resolution(effective=effective, result=result)


def resolve_effective(
    ctx: TurnContext,
    world: WorldState,
    effective: Mapping[str, EffectiveOrder],
    stores_moves: Sequence[StoresMove] = (),
    land_reports: Sequence[PortLandReport] = (),
    land_word: LandWord | None = None,
) -> TurnResult:
    """The turn from the effective orders (what the resolver stores, and what a
    replay feeds back): attachments as ordered (4.4), the phases, and the end of
    attachments of ships that finish out of contact (4.2); then the world's
    invariants, the scenario reader's own checks: a turn that
    broke one raises rather than store a world no scenario could describe.
    ``land_word``: GITM's word on earlier transfers (pate.core.rules.landsaga),
    applied first."""
    undone: list[Event] = []
    if land_word is not None:
        space = SpaceRules.of(ctx.rules)
        world, undone = undo_refused(world, land_word.refused, space)
        # what GITM's own rules did on land since (edition 4), before the land reports set the ports
        world, hit = apply_land_events(world, land_word.land_events, 0, space)
        undone += hit
        ctx = replace(ctx, gitm_answered=land_word.answered, land_captures=land_word.captures)
    if land_reports:  # GITM's word on the garrisons, fetched once and stored with the orders
        world = apply_land_reports(ctx.map, world, land_reports)
    world = attachments_after_orders(world, effective)
    result = resolve_turn(ctx, world, {sid: e.order for sid, e in effective.items()}, stores_moves)
    state = check_world(end_broken_attachments(result.state), together)
    return replace(result, state=state, events=(*undone, *mark_orders(result.events, effective)))
