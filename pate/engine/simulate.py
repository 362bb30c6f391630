"""``pate campaign simulate``: a whole campaign in one process.

The same functions the services run, stage by stage, without the bus and the
database: start the campaign, then for each turn take the orders, resolve,
work out each player's knowledge and render their reports.  A campaign may
also be taken up from a saved turn (:func:`resume`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from pate.admiral.levels import Level
from pate.core.campaign import resolve_submitted, start_campaign
from pate.core.events import Event
from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import ShipOrder, StoresMove
from pate.core.rules.context import TurnContext
from pate.core.rules.landsaga import LandWord
from pate.core.rules.landsync import PortLandReport
from pate.core.rules.stores import check_stores_move
from pate.core.rules.turn import TurnResult
from pate.core.rules.validation.assign import apply_assignments
from pate.core.rules.validation.orders import Actor, Refusal, validate_order
from pate.core.world.state import Role, Wind, WorldState
from pate.engine.bots import play_bots
from pate.engine.pipeline import all_knowledge, reports_for

ENGINE_ACTOR = Actor(player="engine", state=None, roles=frozenset({Role.ADMIN}))


@dataclass(frozen=True, slots=True)
class TurnOutput:
    turn: int  # 0 = the start of the campaign
    world: WorldState  # at the start of the next turn
    events: tuple[Event, ...]
    knowledge: dict[str, str]  # player -> canonical JSON
    reports: dict[str, dict[str, str]]  # player -> format -> body
    refusals: tuple[Refusal, ...] = ()  # orders the order desk refused, left out of the turn
    bot_orders: dict[str, str] = field(default_factory=dict)  # bot player -> his orders of the turn (text)


class OrdersRefusedError(ValueError):
    def __init__(self, turn: int, refusals: list[Refusal]) -> None:
        lines = [f"turn {turn}: {r.field}: {r.message} (rule {r.rule})" for r in refusals]
        super().__init__("\n".join(lines))
        self.refusals = refusals
        self.turn = turn


def check_orders(ctx: TurnContext, world: WorldState, orders: Sequence[ShipOrder]) -> list[Refusal]:
    out: list[Refusal] = []
    for i, order in enumerate(orders):
        for r in validate_order(order, ENGINE_ACTOR, world, ctx.map, ctx.rules):
            out.append(Refusal(f"{order.ship_id or f'orders[{i}]'}.{r.field}", r.rule, r.message, r.code))
    return out


class LandSide(Protocol):
    """A GITM land side played in process (``pate campaign simulate --gitm``):
    asked before each turn as the resolver asks GITM, told after it as the
    bridge tells GITM (docs/gitm.md)."""

    def before(
        self, ctx: TurnContext, world: WorldState
    ) -> tuple[Sequence[PortLandReport], LandWord | None]: ...

    def after(self, start: WorldState, result: TurnResult) -> None: ...


def simulate(
    ctx: TurnContext,
    world: WorldState,
    *,
    campaign: str,
    seed: int,
    turns: int,
    orders: Mapping[int, Sequence[ShipOrder]],
    render: bool = True,
    place: bool = True,
    winds: Mapping[int, Mapping[str, Wind]] | None = None,
    strict: bool = True,
    compact: bool = False,
    land: LandSide | None = None,
    bots: Mapping[str, Level] | None = None,
    stores_moves: Mapping[int, Sequence[StoresMove]] | None = None,
) -> Iterator[TurnOutput]:
    """The start of the campaign, then ``turns`` turns.

    ``winds`` (turn -> sea area -> wind) replaces the drawn winds of the
    first move of those turns, for the sea areas named (case files set the
    weather a rule case needs, docs/formats/cases.md).  An order the order
    desk refuses stops the run (:class:`OrdersRefusedError`); unless
    ``strict``, it is left out and reported in its turn's ``refusals`` (the
    ship takes its default orders, rule 4.11).  ``bots`` (player ->
    level): players whose orders the bot admiral writes each turn from
    their own knowledge (pate.engine.bots)."""
    if turns < 1:
        raise ValueError("a campaign plays at least one turn")
    winds = winds or {}
    world = _with_winds(start_campaign(ctx, world, campaign, seed, turns, place=place), winds.get(1))
    start = _outputs(ctx, 0, world, world, (), render, compact, bots)
    yield start
    yield from resume(
        ctx,
        world,
        turns=turns,
        orders=orders,
        render=render,
        winds=winds,
        strict=strict,
        compact=compact,
        land=land,
        bots=bots,
        knowledge=start.knowledge,
        stores_moves=stores_moves,
    )


def resume(
    ctx: TurnContext,
    world: WorldState,
    *,
    turns: int,
    orders: Mapping[int, Sequence[ShipOrder]],
    render: bool = True,
    winds: Mapping[int, Mapping[str, Wind]] | None = None,
    strict: bool = True,
    compact: bool = False,
    land: LandSide | None = None,
    bots: Mapping[str, Level] | None = None,
    knowledge: Mapping[str, str] | None = None,
    stores_moves: Mapping[int, Sequence[StoresMove]] | None = None,
) -> Iterator[TurnOutput]:
    """``turns`` turns from ``world``, the state saved after a turn (its
    ``turn`` is the next to play): the same outputs, byte for byte, as the
    run that saved it would have gone on to give.  With ``bots``,
    ``knowledge`` is each player's knowledge of the turn before (the
    report JSON saved with it)."""
    winds = winds or {}
    known: Mapping[str, str] = knowledge or {}
    first = world.turn
    if turns < 1 or first + turns - 1 > world.turns:
        raise ValueError(f"turns {first} to {first + turns - 1}: the campaign has {world.turns} turns")
    for turn in range(first, first + turns):
        world = _with_winds(world, winds.get(turn))  # again for turn 1: the same winds
        given = list(orders.get(turn, ()))
        refusals = check_orders(ctx, world, given)
        given_moves = list((stores_moves or {}).get(turn, ()))
        moves_refused = check_moves(ctx, world, given_moves)
        refusals += moves_refused
        if refusals and strict:
            raise OrdersRefusedError(turn, refusals)
        kept = without_refused(given, refusals)
        kept_moves = [m for i, m in enumerate(given_moves) if not _refused_move(i, moves_refused)]
        submitted = [SubmittedOrder(o, Author.COMMANDER, i) for i, o in enumerate(kept)]
        played = play_bots(ctx, world, known, bots, len(submitted)) if bots else None
        if played is not None:
            if played.refusals and strict:
                raise OrdersRefusedError(turn, list(played.refusals))
            refusals += played.refusals
            submitted += played.submitted
        moves = [*kept_moves, *(played.stores_moves if played is not None else ())]
        reports, word = land.before(ctx, world) if land is not None else ((), None)
        result = resolve_submitted(ctx, world, submitted, moves, reports, word).result
        if land is not None:
            land.after(world, result)
        # rule 2.3: the officers the naval ministers assigned command from the next turn
        after = apply_assignments(result.state, played.assignments) if played is not None else result.state
        out = _outputs(ctx, turn, world, after, result.events, render, compact, bots, known)
        texts = {p: d.orders_text() for p, d in played.decisions.items()} if played is not None else {}
        yield replace(out, refusals=tuple(refusals), bot_orders=texts)
        known = out.knowledge
        world = after


def check_moves(ctx: TurnContext, world: WorldState, moves: Sequence[StoresMove]) -> list[Refusal]:
    """The order desk's checks of the naval ministers' store moves (rule 3.5),
    each refusal's field prefixed with ``stores[i]``."""
    out = []
    for i, move in enumerate(moves):
        for r in check_stores_move(move, world, ctx.map, ctx.rules):
            out.append(Refusal(f"stores[{i}].{r.field}", r.rule, r.message, r.code))
    return out


def _refused_move(i: int, refused: Sequence[Refusal]) -> bool:
    return any(r.field.startswith(f"stores[{i}].") for r in refused)


def refused_ship(r: Refusal) -> str:
    """The ship whose order was refused (``check_orders`` prefixes the field
    with the ship id, or ``orders[i]`` when the order names no ship)."""
    return r.field.split(".", 1)[0]


def refusal_text(r: Refusal) -> str:
    return f"{r.field}: {r.message} (rule {r.rule})"


def without_refused(orders: Sequence[ShipOrder], refused: Sequence[Refusal]) -> list[ShipOrder]:
    """The orders less every order of a ship with a refused one, so that the
    ship takes its defaults (4.11) rather than an earlier order it replaced."""
    bad = {refused_ship(r) for r in refused}
    return [o for i, o in enumerate(orders) if o.ship_id not in bad and f"orders[{i}]" not in bad]


def _with_winds(world: WorldState, winds: Mapping[str, Wind] | None) -> WorldState:
    return replace(world, winds={**world.winds, **winds}) if winds else world


def _outputs(
    ctx: TurnContext,
    turn: int,
    before: WorldState,
    after: WorldState,
    events: tuple[Event, ...],
    render: bool,
    compact: bool = False,
    bots: Mapping[str, Level] | None = None,
    previous: Mapping[str, str] | None = None,
) -> TurnOutput:
    """Without reports, the bot players' knowledge alone is worked out (they read it).
    ``previous``: the knowledge of the turn before, whose pictures are carried forward."""
    if render:
        knowledge = all_knowledge(ctx, before, after, events, previous=previous)
    else:
        knowledge = all_knowledge(ctx, before, after, events, tuple(bots), previous) if bots else {}
    reports = {p: reports_for(ctx, k, compact=compact) for p, k in knowledge.items()} if render else {}
    return TurnOutput(turn=turn, world=after, events=events, knowledge=knowledge, reports=reports)
