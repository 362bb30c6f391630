"""Store moves between ports ordered by the naval minister (rule 3.5).

A move needs a route: overland between ports within 10 strategic squares
that are in contact (GITM rule 10.2; the qualifying pairs are listed in
``data/rules/supply.toml``, the GITM map not being part of PATE), or by sea
between ports connected to the same or adjacent sea areas with no hostile
ship in either port or in the connected sea areas.  Stores move only from the
port where they began the turn, and no port sends off more than 60 a turn.

:func:`check_stores_move` is the one check, used by the order desk against
the start of the turn and by :func:`move_stores` (the last step of the supply
phase) against the world as it then stands.  Decisions (docs/rules/turn.md):
the origin must be controlled by the minister's state, the destination by it
or an active ally; "hostile ships" are warships and transport groups of a
state at war with the minister's; moves run in the order given, each limited
by what its origin still holds from the start of the step, and arrive only
after every move has left, so no store moves twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.model import StoresMove
from pate.core.orders.refusal import INVALID, NOT_FOUND, PRECONDITION, Refusal
from pate.core.ruledata import RuleData
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.validation.sight import known_ships, minister
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import WorldState


@dataclass(frozen=True, slots=True)
class StoresMoveRules:
    max_per_port: int
    land_routes: frozenset[frozenset[str]]

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> StoresMoveRules:
        pairs = d.get("land_routes", [])
        return cls(
            max_per_port=int(d.get("max_per_port", 60)),
            land_routes=frozenset(frozenset(str(p) for p in pair) for pair in pairs),
        )


def _rules(rules: RuleData) -> StoresMoveRules:
    return StoresMoveRules.from_section(rules.section("supply").get("stores_moves", {}))


def check_stores_move(
    move: StoresMove, world: WorldState, wmap: WorldMap, rules: RuleData, *, truth: bool = False
) -> list[Refusal]:
    """Every reason the move cannot be made now (rule 3.5).  The 60-a-port
    limit is checked for this move alone here; the supply phase adds up a
    port's moves.  At the desk (``truth`` false) only hostile ships the
    minister knows of stop a move, so that the refusal tells him nothing his
    reports do not (pate.core.rules.validation.sight); the supply phase checks against
    every ship."""
    r = _rules(rules)
    out: list[Refusal] = []
    for name in ("origin", "destination"):
        port = getattr(move, name)
        if port not in wmap.ports or port not in world.ports:
            out.append(Refusal(name, "3.5", f"no port {port!r}", NOT_FOUND))
    if out:
        return out
    if move.origin == move.destination:
        out.append(Refusal("destination", "3.5", "stores move from one port to another", INVALID))
    if not 1 <= move.amount <= r.max_per_port:
        out.append(Refusal("amount", "3.5", f"move 1 to {r.max_per_port} stores from a port", INVALID))
    origin, dest = world.ports[move.origin], world.ports[move.destination]
    if origin.controller != move.state:
        out.append(Refusal("origin", "3.5", f"{move.origin} is not controlled by {move.state}", PRECONDITION))
    if not world.diplomacy.allied(move.state, dest.controller):
        msg = f"{move.destination} is held by neither {move.state} nor an active ally"
        out.append(Refusal("destination", "3.5", msg, PRECONDITION))
    if origin.stores < move.amount:
        msg = f"{move.origin} holds {origin.stores} stores"
        out.append(Refusal("amount", "3.5", msg, PRECONDITION))
    return out + _route(move, world, wmap, r, truth)


def _route(
    move: StoresMove, world: WorldState, wmap: WorldMap, r: StoresMoveRules, truth: bool
) -> list[Refusal]:
    if frozenset((move.origin, move.destination)) in r.land_routes:
        return []
    a, b = wmap.ports[move.origin].sea_area, wmap.ports[move.destination].sea_area
    if a != b and not wmap.borders(a, b):
        msg = (
            f"{move.origin} and {move.destination} are neither in contact overland"
            " nor on the same or adjacent sea areas"
        )
        return [Refusal("destination", "3.5", msg, PRECONDITION)]
    places = {move.origin, move.destination}
    known = None if truth else known_ships(minister(move.state), world)
    for ship in world.ships.values():
        if known is not None and ship.id not in known:
            continue
        loc = ship.location
        there = (isinstance(loc, InPort) and loc.port in places) or (
            isinstance(loc, AtSea) and loc.area in {a, b}
        )
        if ship.active and there and world.diplomacy.hostile(move.state, ship.state):
            msg = f"hostile ships are in {move.origin}, {move.destination} or their sea areas"
            return [Refusal("destination", "3.5", msg, PRECONDITION)]
    return []


def move_stores(ctx: TurnContext, ts: TurnState) -> TurnState:
    """The last step of the supply phase: every move of the turn, in order."""
    r = _rules(ctx.rules)
    world = ts.world
    ports = dict(world.ports)
    sent: dict[str, int] = {}
    arriving: dict[str, int] = {}
    events: list[Event] = []
    for move in ts.stores_moves:
        already = sent.get(move.origin, 0)
        held = replace(world.ports[move.origin], stores=world.ports[move.origin].stores - already)
        refusals = check_stores_move(
            move, replace(world, ports={**world.ports, move.origin: held}), ctx.map, ctx.rules, truth=True
        )
        if already + move.amount > r.max_per_port:
            msg = f"{move.origin} has sent {already} stores this turn; at most {r.max_per_port}"
            refusals.append(Refusal("amount", "3.5", msg, PRECONDITION))
        if refusals:
            reasons = [{"rule": f.rule, "message": f.message} for f in refusals]
            events.append(_event("stores_move_refused", move, reasons=reasons))
            continue
        sent[move.origin] = already + move.amount
        arriving[move.destination] = arriving.get(move.destination, 0) + move.amount
        events.append(_event("stores_moved", move))
    for name in sorted(set(sent) | set(arriving)):
        port = ports[name]
        ports[name] = replace(port, stores=port.stores - sent.get(name, 0) + arriving.get(name, 0))
    return replace(ts, world=replace(world, ports=ports)).emit(*events)


def _event(kind: str, move: StoresMove, **data: Any) -> Event:
    detail = {
        "state": move.state,
        "origin": move.origin,
        "destination": move.destination,
        "amount": move.amount,
    }
    return Event(Phase.SUPPLY, kind, (), move.origin, data={**detail, **data})
