"""Bot admirals in the headless engine (``pate campaign simulate --bots``).

Each turn the engine hands every bot player his own knowledge, the report
JSON of the turn before (the same bytes a human reads), and takes back his
orders; they are checked by the order desk's own checks as that player
sends them (his actor and authority, rules 2.3 and 4.1), so a refusal here
is a refusal the services would give.  Nothing of the world but the
player's knowledge reaches the admiral.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from pate.admiral.decide import Decision, decide
from pate.admiral.levels import Level, parse_levels
from pate.core.codec import parse_json
from pate.core.orders.effective import SubmittedOrder
from pate.core.orders.model import StoresMove
from pate.core.rules.context import TurnContext
from pate.core.rules.stores import check_stores_move
from pate.core.rules.validation.assign import Assignment, check_assignment
from pate.core.rules.validation.orders import Actor, Refusal, authority, validate_order
from pate.core.world.state import Role, WorldState
from pate.datafiles import data_dir, read_toml

DEFAULT_LEVEL = "bold"


@cache
def load_levels() -> dict[str, Level]:
    """``data/bots.toml``, read and checked once per process."""
    return parse_levels(read_toml(data_dir() / "bots.toml"))


ALL = "ALL"  # every state with players


def parse_bots(text: str, levels: Mapping[str, Level]) -> dict[str, Level]:
    """``BR,FR:cautious``: state codes, each with a level (default bold);
    ``all`` (or ``all:cautious``) for every state."""
    out: dict[str, Level] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        state, _, name = part.partition(":")
        name = name or DEFAULT_LEVEL
        if name not in levels:
            raise ValueError(f"--bots: {name!r} is not a level ({', '.join(sorted(levels))})")
        if not state.isalpha() or len(state) > 3:
            raise ValueError(f"--bots: {state!r} is not a state code (like BR or FR)")
        out[state.upper()] = levels[name]
    return out


def seats(world: WorldState, states: Mapping[str, Level]) -> dict[str, Level]:
    """Every player of the states given, with his state's level."""
    if ALL in states:
        every = sorted({p.state for p in world.players.values() if p.state})
        states = {**dict.fromkeys(every, states[ALL]), **{k: v for k, v in states.items() if k != ALL}}
    unknown = sorted(set(states) - {p.state for p in world.players.values() if p.state})
    if unknown:
        raise ValueError(f"--bots: no player plays {', '.join(unknown)} in this campaign")
    return {pid: states[p.state] for pid, p in sorted(world.players.items()) if p.state and p.state in states}


@dataclass(frozen=True, slots=True)
class BotTurn:
    submitted: tuple[SubmittedOrder, ...] = ()
    stores_moves: tuple[StoresMove, ...] = ()
    assignments: tuple[Assignment, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    decisions: Mapping[str, Decision] = field(default_factory=dict)


def play_bots(
    ctx: TurnContext,
    world: WorldState,
    knowledge: Mapping[str, str],
    players: Mapping[str, Level],
    first_seq: int = 0,
) -> BotTurn:
    """The bot players' orders for the turn ``world`` is about to play, each
    from his own knowledge, checked as the desk checks them.  Commanders
    before naval ministers, as their orders reach a desk (4.1)."""
    order = sorted(players, key=lambda p: (Role.NAVAL_MINISTER in world.players[p].roles, p))
    submitted: list[SubmittedOrder] = []
    moves: list[StoresMove] = []
    officers: list[Assignment] = []
    refusals: list[Refusal] = []
    decisions: dict[str, Decision] = {}
    for pid in order:
        if pid not in knowledge:
            continue
        report = parse_json(knowledge[pid])
        d = decide(
            report,
            ctx.map,
            ctx.rules,
            players[pid],
            world.seed,
            world.kind,
            world.combat_rules,
            world.naval_rules,
        )
        decisions[pid] = d
        actor = Actor.of(world.players[pid])
        for o in d.orders:
            bad = validate_order(o, actor, world, ctx.map, ctx.rules)
            refusals += [_named(pid, o.ship_id, r) for r in bad]
            ship = world.ships.get(o.ship_id)
            author = authority(actor, ship) if ship is not None else None
            if not bad and author is not None:
                submitted.append(SubmittedOrder(o, author, first_seq + len(submitted)))
        refusals += _checked(pid, d.stores_moves, d.assignments, actor, ctx, world, moves, officers)
    return BotTurn(tuple(submitted), tuple(moves), tuple(officers), tuple(refusals), decisions)


def _checked(
    pid: str,
    stores: Sequence[StoresMove],
    assigned: Sequence[Assignment],
    actor: Actor,
    ctx: TurnContext,
    world: WorldState,
    moves: list[StoresMove],
    officers: list[Assignment],
) -> list[Refusal]:
    out: list[Refusal] = []
    for i, m in enumerate(stores):
        bad = (
            check_stores_move(m, world, ctx.map, ctx.rules)
            if actor.minister_of(m.state)
            else [
                Refusal(
                    "state",
                    "3.5",
                    f"only the naval minister of {m.state} moves its stores",
                    "permission_denied",
                )
            ]
        )
        out += [_named(pid, f"stores_moves[{i}]", r) for r in bad]
        if not bad:
            moves.append(m)
    for a in assigned:
        bad = check_assignment(a, actor, world)
        out += [_named(pid, f"assignments.{a.ship_id}", r) for r in bad]
        if not bad:
            officers.append(a)
    return out


def _named(player: str, where: str, r: Refusal) -> Refusal:
    return Refusal(f"{player}:{where}.{r.field}", r.rule, r.message, r.code)
