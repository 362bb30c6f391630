"""Initial and final amphibious phases (rules 3.6, 3.9; lost section 9).

Transport groups begin loading or unloading GITM units and supplies in the
initial amphibious phase and complete it in the final one.  Nothing changes
hands at the beginning: the ``transfer_begun`` event is the record the final
phase completes (and the GITM bridge delivers after the turn is committed).

Decisions (docs/rules/turn.md, section 9):
- a transfer is lost (completed as cancelled) when its transport group is
  gone, has fought a battle in the combat phase, or is no longer in the port
  where it began (harbor or coastal waters of it);
- unloading comes before loading; each unit is taken or refused on its own,
  in the order the order names them; supplies as many as fit;
- loading only in a same-side or actively allied port, only units of the
  group's own state in the port's garrison whose size PATE knows, not a unit
  another group (lower id first) already takes; supplies from the port's, only
  in a port of the group's own state (an ally's city stock is the ally's depot);
- unloading in a friendly port or in one held by an enemy (a landing), not
  in a neutral one; loose supplies only in a friendly one (an enemy city's
  stock is the enemy's depot); units go into the port's garrison (on-GITM-map ports:
  they are back in GITM, which the bridge tells; off-GITM-map ports: they are
  the garrison, rule 1.5), supplies into the port's supplies;
- then combat in off-GITM-map ports (``pate.core.rules.garrison``), rule 2.6
  for inactive ships, and the end-of-turn administrative step
  (``pate.core.rules.groups``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.limits import OrderLimits
from pate.core.orders.model import Amphibious
from pate.core.rng import Rng
from pate.core.rules.commerce import commerce_step
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.detection import contact_list
from pate.core.rules.garrison import inactive_ships_burnt, land_captures, port_combat
from pate.core.rules.groups import end_of_turn
from pate.core.rules.landsaga import DEFERRED
from pate.core.rules.seatime import sea_experience
from pate.core.rules.transport import SpaceRules, free_space, unit_space
from pate.core.world.diplomacy import Relation
from pate.core.world.ships import Cargo, InPort, Ship, ShipType, describe
from pate.core.world.state import TurnKind, WorldState

BEGUN = "transfer_begun"
COMPLETED = "transfer_completed"
REFUSED = "transfer_refused"
LOAD, UNLOAD = "load", "unload"
OWN_STOCK = "supplies are loaded only from a city of the group's own state ({port} is held by {holder})"
NOT_TO_ENEMY = (
    "supplies are landed only in a city of the group's side or an ally ({port} is held by {holder})"
)


def transfer_id(world: WorldState, transport: str, n: int) -> str:
    """Deterministic, so that the GITM side can ignore a repeated call."""
    return f"{world.campaign}:{world.turn}:{transport}:{n}"


def transfer_turn(transfer: str) -> int | None:
    """The turn a transfer id (:func:`transfer_id`) was begun in; None for an id of another form."""
    parts = transfer.split(":")
    return int(parts[1]) if len(parts) == 4 and parts[1].isdigit() else None


@dataclass
class _Claims:
    """What transports earlier in id order already take from each port."""

    units: set[str] = field(default_factory=set)
    supplies: dict[str, int] = field(default_factory=dict)


@dataclass
class _Plan:
    """One direction of one group's transfer, as begun (or refused)."""

    direction: str
    port: str
    gitm: bool
    units: list[str] = field(default_factory=list)
    supplies: int = 0
    space: int = 0
    refused: list[dict[str, str]] = field(default_factory=list)

    def refuse_all(self, order_units: tuple[str, ...], supplies: int, why: str) -> _Plan:
        self.refused += [{"item": u, "reason": why} for u in order_units]
        if supplies:
            self.refused.append({"item": "supplies", "reason": why})
        return self

    @property
    def begins(self) -> bool:
        return bool(self.units or self.supplies)

    def data(self) -> dict[str, Any]:
        return {
            "direction": self.direction,
            "port": self.port,
            "gitm": self.gitm,
            "units": list(self.units),
            "supplies": self.supplies,
            "space": self.space,
            "refused": list(self.refused),
        }


def initial_amphibious_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    """Rule 3.6: transports begin loading or unloading, once the ports GITM reports taken on land
    have changed hands (a load or landing then meets the port's new holder)."""
    ts = land_captures(ctx, ts, rng)
    claims = _Claims()
    events: list[Event] = []
    for ship in sorted(ts.world.ships.values(), key=lambda s: s.id):
        if not ship.active or ship.type is not ShipType.TR:
            continue
        order = ts.order(ship.id).amphibious
        if order.empty:
            continue
        n = 0
        for plan in _plans(ctx, ts.world, ship, order, claims):
            data = plan.data()
            if plan.begins:
                n += 1
                data = {"transfer": transfer_id(ts.world, ship.id, n), **data}
                events.append(_event(ts.world, BEGUN, ship, data, Phase.INITIAL_AMPHIBIOUS))
            if plan.refused:
                events.append(_event(ts.world, REFUSED, ship, data, Phase.INITIAL_AMPHIBIOUS))
    return ts.emit(*events)


def _plans(
    ctx: TurnContext, world: WorldState, ship: Ship, order: Amphibious, claims: _Claims
) -> list[_Plan]:
    loc = ship.location
    if not isinstance(loc, InPort):
        why = "units and supplies are loaded and unloaded only in a port"
        units = (*order.unload_units, *order.load_units)
        return [_Plan("", "", False).refuse_all(units, order.unload_supplies + order.load_supplies, why)]
    space = SpaceRules.of(ctx.rules)
    gitm = ctx.map.ports[loc.port].on_gitm_map
    if gitm and not ctx.gitm_answered:  # docs/gitm.md: deferred, not carried over
        units = (*order.unload_units, *order.load_units)
        return [
            _Plan("", loc.port, gitm).refuse_all(units, order.unload_supplies + order.load_supplies, DEFERRED)
        ]
    relation = world.diplomacy.relation(ship.state, world.ports[loc.port].controller)
    plans: list[_Plan] = []
    freed = 0
    if order.unload_units or order.unload_supplies:
        plans.append(_unloading(world, ship, order, relation, space, _Plan(UNLOAD, loc.port, gitm)))
        freed = plans[-1].space
    if order.load_units or order.load_supplies:
        room = free_space(ship, ctx.rules, OrderLimits.from_rules(ctx.rules)) + freed
        plan = _Plan(LOAD, loc.port, gitm)
        plans.append(_loading(world, ship, order, relation, space, room, claims, plan))
    return plans


def _unloading(
    world: WorldState, ship: Ship, order: Amphibious, relation: Relation, space: SpaceRules, plan: _Plan
) -> _Plan:
    if relation is Relation.PEACE:
        why = "units land only in a port held by the group's side or by an enemy"
        return plan.refuse_all(order.unload_units, order.unload_supplies, why)
    aboard = ship.cargo
    plan.units = [u for u in order.unload_units if u in aboard.units]
    plan.refused = [{"item": u, "reason": "not aboard"} for u in order.unload_units if u not in aboard.units]
    plan.supplies = min(order.unload_supplies, aboard.supplies)
    if order.unload_supplies and relation is Relation.WAR:
        # section 9 (decision): landed supplies join the city's stock, its holder's depot; a corps
        # headquarters' own supplies land with it, loose ones would feed the enemy
        port = world.ports[plan.port]
        why = NOT_TO_ENEMY.format(port=port.name, holder=port.controller)
        plan.refused.append({"item": "supplies", "reason": why})
        plan.supplies = 0
    elif plan.supplies < order.unload_supplies:
        plan.refused.append({"item": "supplies", "reason": f"only {aboard.supplies} aboard"})
    size = sum(unit_space(world.land_units[u], space) for u in plan.units if u in world.land_units)
    plan.space = size + plan.supplies * space.per_supply
    return plan


def _loading(
    world: WorldState,
    ship: Ship,
    order: Amphibious,
    relation: Relation,
    space: SpaceRules,
    room: int,
    claims: _Claims,
    plan: _Plan,
) -> _Plan:
    if relation not in (Relation.SAME, Relation.ALLIED):
        msg = "units and supplies are loaded only in a same-side or allied port"
        return plan.refuse_all(order.load_units, order.load_supplies, msg)
    port = world.ports[plan.port]
    for u in order.load_units:
        why = _cannot_load(world, ship, u, port.garrison, claims)
        size = unit_space(world.land_units[u], space) if why is None else 0
        if why is None and plan.space + size > room:
            why = f"needs {size} spaces, {room - plan.space} free"
        if why is not None:
            plan.refused.append({"item": u, "reason": why})
            continue
        plan.units.append(u)
        claims.units.add(u)
        plan.space += size
    if order.load_supplies and relation is not Relation.SAME:
        # section 9 (decision): a city's stock is its holder's depot; an ally's is not the group's
        why = OWN_STOCK.format(port=port.name, holder=port.controller)
        plan.refused.append({"item": "supplies", "reason": why})
        return plan
    available = port.supplies - claims.supplies.get(plan.port, 0)
    plan.supplies = max(0, min(order.load_supplies, available, (room - plan.space) // space.per_supply))
    if plan.supplies < order.load_supplies:
        short = f"{plan.supplies} of {order.load_supplies} loaded (the port holds {available})"
        plan.refused.append({"item": "supplies", "reason": short})
    claims.supplies[plan.port] = claims.supplies.get(plan.port, 0) + plan.supplies
    plan.space += plan.supplies * space.per_supply
    return plan


def _cannot_load(
    world: WorldState, ship: Ship, unit: str, garrison: tuple[str, ...], claims: _Claims
) -> str | None:
    if unit not in garrison:
        return "not in the port's garrison"
    known = world.land_units.get(unit)
    if known is None:
        return "its size is not known (GITM has not reported it)"
    if known.state != ship.state:
        return f"a unit of {known.state}, not of {ship.state}"
    if unit in claims.units:
        return "another transport group takes it"
    return None


def _event(world: WorldState, kind: str, ship: Ship, data: Mapping[str, Any], phase: Phase) -> Event:
    seen = tuple(s.id for s in contact_list(world, ship).seen)
    return Event(phase, kind, (ship.id,), describe(ship.location), seen, {"transport": ship.id, **data})


def final_amphibious_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    """Rule 3.9: loading and unloading complete; combat in off-GITM-map ports;
    then rule 2.6 for inactive ships and the end-of-turn administrative step."""
    fought = {sid for e in ts.events if e.phase is Phase.COMBAT and e.kind == "battle" for sid in e.ships}
    for begun in [e for e in ts.events if e.kind == BEGUN]:
        ts = _complete(ctx, ts, begun, fought)
    ts = port_combat(ctx, ts, rng)
    ts = inactive_ships_burnt(ctx, ts)
    ts = sea_experience(ctx, ts)  # rule 2.2
    if ts.world.kind is not TurnKind.PEACE:
        ts = commerce_step(ctx, ts, rng.fork("commerce"))  # rule 4.8
    return end_of_turn(ctx, ts)


def _complete(ctx: TurnContext, ts: TurnState, begun: Event, fought: set[str]) -> TurnState:
    d = begun.data
    ship = ts.world.ships.get(d["transport"])
    detail = {k: d[k] for k in ("transfer", "direction", "port", "units", "supplies", "gitm")}
    why = _lost(ship, d["port"], fought)
    if ship is None or why is not None:
        event = Event(
            Phase.FINAL_AMPHIBIOUS,
            COMPLETED,
            begun.ships,
            begun.location,
            begun.witnesses,
            {"transport": d["transport"], **detail, "cancelled": True, "reason": why},
        )
        return ts.emit(event)
    world = _apply(ctx, ts.world, ship, d)
    event = _event(
        world, COMPLETED, world.ships[ship.id], {**detail, "cancelled": False}, Phase.FINAL_AMPHIBIOUS
    )
    return replace(ts, world=world).emit(event)


def _lost(ship: Ship | None, port: str, fought: set[str]) -> str | None:
    if ship is None:
        return "the transport group is gone"
    if ship.id in fought:
        return "the transport group fought a battle"
    if not isinstance(ship.location, InPort) or ship.location.port != port:
        return "the transport group sailed away"
    return None


def _apply(ctx: TurnContext, world: WorldState, ship: Ship, d: Mapping[str, Any]) -> WorldState:
    units, supplies, space = tuple(d["units"]), int(d["supplies"]), int(d["space"])
    port = world.ports[d["port"]]
    cargo = ship.cargo
    if d["direction"] == UNLOAD:
        kept = tuple(u for u in cargo.units if u not in units)
        left = cargo.supplies - supplies
        cargo = Cargo(kept, left, max(0, cargo.space - space) if kept or left else 0)
        port = replace(port, garrison=port.garrison + units, supplies=port.supplies + supplies)
    else:
        present = tuple(u for u in units if u in port.garrison)
        cargo = Cargo(cargo.units + present, cargo.supplies + supplies, cargo.space + space)
        garrison = tuple(u for u in port.garrison if u not in present)
        port = replace(port, garrison=garrison, supplies=port.supplies - supplies)
    return replace(
        world.with_ships({ship.id: replace(ship, cargo=cargo)}), ports={**world.ports, port.name: port}
    )


def begin_transfer(
    ctx: TurnContext, world: WorldState, ship: Ship, order: Amphibious, phase: Phase
) -> list[Event]:
    """A transfer begun outside the initial amphibious phase: a Transport or
    Invasion operation of the EiA new naval rules lands its corps where the
    operation took it (docs/rules/eia-operations.md).  The final amphibious
    phase completes it, and the GITM bridge delivers it, like any other; its
    transfer number 0 is never one the initial phase gives."""
    events: list[Event] = []
    for plan in _plans(ctx, world, ship, order, _Claims()):
        data = plan.data()
        if plan.begins:
            data = {"transfer": transfer_id(world, ship.id, 0), **data}
            events.append(_event(world, BEGUN, ship, data, phase))
        if plan.refused:
            events.append(_event(world, REFUSED, ship, data, phase))
    return events
