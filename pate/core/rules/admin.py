"""Carrying out the administrative orders the order desk accepts.

Crew transfers (2.7), scuttling (4.10 recovered), inactivation and the order
to reactivate (2.6) act at the start of the turn, as a pre-step of the repair
phase (:func:`start_of_turn`).  Combining and dividing transport groups (2.5)
and the return of reactivated ships act at the end of the turn, as a
post-step of the final amphibious phase
(:func:`pate.core.rules.groups.end_of_turn`): 2.5 combines groups that "finish a turn in
contact", and a new group or a recommissioned ship can take orders from the
next turn on.

Every order is checked again when carried out, with the desk's own checks
(``pate.core.rules.validation.admin.check_admin``) against the world as it then stands,
because other orders of the same turn may have changed it (two transfers to
one ship, the friendly ship that had to stay being scuttled first).  Orders
are carried out in ship id order; one that no longer holds is dropped with an
``admin_refused`` event naming the rule and the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.limits import OrderLimits
from pate.core.orders.model import AdminKind, AdminOrder, ShipOrder
from pate.core.orders.refusal import Actor, Refusal
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia.hulks import refit as refit_hulk
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.validation.admin import AdminCheck, check_admin, friends_in_area, staying
from pate.core.world.ships import AtSea, InPort, Ship, describe
from pate.core.world.state import Role, TurnKind, WorldState

# The resolver re-checks orders with the weight of an administrator: who gave
# them was settled at the desk.
RESOLVER = Actor("resolver", None, frozenset({Role.ADMIN}))

# rule 2.7 before 4.10: a transfer may strip a ship that is "immediately
# scuttled"; laying up and recommissioning come last.
START_KINDS = (AdminKind.TRANSFER_CREW, AdminKind.SCUTTLE, AdminKind.INACTIVATE, AdminKind.REACTIVATE)


@dataclass(frozen=True, slots=True)
class AdminRules:
    reactivation_campaign_turns: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> AdminRules:
        return cls(reactivation_campaign_turns=int(d.get("reactivation_campaign_turns", 4)))


Apply = Callable[[TurnContext, TurnState, Ship, AdminOrder], TurnState]


def start_of_turn(ctx: TurnContext, ts: TurnState) -> TurnState:
    for kind in START_KINDS:
        ts = carry_out(ctx, ts, kind, _START[kind], Phase.REPAIR)
    return ts


def carry_out(ctx: TurnContext, ts: TurnState, kind: AdminKind, apply: Apply, phase: Phase) -> TurnState:
    """Every order of one kind, in ship id order, each re-checked first.

    An order taken from the turn by an earlier one (the group absorbed by a
    combination, rule 2.5; a ship scuttled or laid up) lapses with its ship:
    the loop walks the ids as they were, so it looks each order up afresh."""
    for sid in sorted(ts.orders):
        order = ts.orders.get(sid)
        if order is None:
            continue
        for i, adm in enumerate(order.admin):
            ship = ts.world.ships.get(sid)
            if adm.kind is not kind or ship is None:
                continue
            refusals = recheck(ctx, ts.world, ship, order, i, ts.orders)
            ts = ts.emit(refused(ship, adm, refusals, phase)) if refusals else apply(ctx, ts, ship, adm)
    return ts


def recheck(
    ctx: TurnContext,
    world: WorldState,
    ship: Ship,
    order: ShipOrder,
    index: int,
    orders: Mapping[str, ShipOrder] | None = None,
) -> list[Refusal]:
    """The desk's checks of administrative order ``index`` against ``world``,
    alone, and against the turn's ``orders`` of the other ships (a friend
    ordered away does not stay, 4.10).  A crew transfer may leave a ship
    short only if its scuttling would now be allowed (2.7 "unless the ship
    is immediately scuttled")."""
    adm = order.admin[index]
    items: tuple[AdminOrder, ...] = (adm,)
    if adm.kind is AdminKind.TRANSFER_CREW and any(a.kind is AdminKind.SCUTTLE for a in order.admin):
        with_scuttle = (adm, AdminOrder(AdminKind.SCUTTLE))
        if not _refusals(ctx, world, ship, with_scuttle, 1, orders):
            items = with_scuttle
    return _refusals(ctx, world, ship, items, 0, orders)


def _refusals(
    ctx: TurnContext,
    world: WorldState,
    ship: Ship,
    items: tuple[AdminOrder, ...],
    index: int,
    orders: Mapping[str, ShipOrder] | None,
) -> list[Refusal]:
    limits = OrderLimits.from_rules(ctx.rules)
    mine = ShipOrder(ship.id, admin=items)
    check = AdminCheck(mine, ship, RESOLVER, world, ctx.map, ctx.rules, limits, orders)
    prefix = f"admin[{index}]"
    return [r for r in check_admin(check) if r.field == prefix or r.field.startswith(prefix + ".")]


def refused(ship: Ship, adm: AdminOrder, refusals: list[Refusal], phase: Phase) -> Event:
    reasons = [{"rule": r.rule, "message": r.message} for r in refusals]
    return admin_event("admin_refused", ship, order=adm.kind.value, reasons=reasons, phase=phase)


def admin_event(kind: str, ship: Ship, *others: str, phase: Phase = Phase.REPAIR, **data: Any) -> Event:
    return Event(phase, kind, (ship.id, *others), describe(ship.location), data=data)


def _transfer_crew(ctx: TurnContext, ts: TurnState, ship: Ship, adm: AdminOrder) -> TurnState:
    """Rule 2.7."""
    other = ts.world.ships[adm.target or ""]
    changed = {
        ship.id: replace(ship, crew=ship.crew - adm.amount),
        other.id: replace(other, crew=other.crew + adm.amount),
    }
    event = admin_event("crew_transferred", ship, other.id, crew=adm.amount, to=other.id)
    return replace(ts, world=ts.world.with_ships(changed)).emit(event)


def _scuttle(ctx: TurnContext, ts: TurnState, ship: Ship, adm: AdminOrder) -> TurnState:
    """Rule 4.10 (recovered): the crew returns to the state's manpower pool at
    the end of the season (there is no pool in PATE: the event records it);
    units and supplies aboard are lost.  In a sea area the crew and Marines
    are taken aboard a friend that stays (``aboard``, who sees it done)."""
    world = ts.world
    lost = list(ship.cargo.units)
    units = {u: v for u, v in world.land_units.items() if u not in lost}
    changed = {s.id: replace(s, attached_to=None) for s in world.ships.values() if s.attached_to == ship.id}
    rescuer = _rescuer(ts, ship)
    world = replace(world.with_ships(changed, (ship.id,)), land_units=units)
    orders = {sid: o for sid, o in ts.orders.items() if sid != ship.id}
    data: dict[str, Any] = {
        "crew": ship.crew,
        "marines": ship.marines,
        "units": lost,
        "supplies": ship.cargo.supplies,
    }
    if rescuer is not None:
        data["aboard"] = rescuer
    witnesses = (rescuer,) if rescuer is not None else ()
    event = Event(Phase.REPAIR, "scuttled", (ship.id,), describe(ship.location), witnesses, data)
    return replace(ts, world=world, orders=orders).emit(event)


def _rescuer(ts: TurnState, ship: Ship) -> str | None:
    """The friend that takes the crew of a ship scuttled at sea aboard: one
    that stays (4.10), in the same tactical area first, then of the same
    state, then by id.  Friends ordered to be scuttled too come after: first
    one whose scuttling was already refused (scuttling runs in ship id
    order, so she is still here), else the last of them to be scuttled,
    whose own scuttling is refused when no other friend stays."""
    if not isinstance(ship.location, AtSea):
        return None
    friends = staying(friends_in_area(ts.world, ship), ts.orders)
    scuttling = {s.id for s in friends if any(a.kind is AdminKind.SCUTTLE for a in ts.order(s.id).admin)}
    kept = [s for s in friends if s.id not in scuttling] or [s for s in friends if s.id < ship.id]
    if kept:
        return min(kept, key=lambda s: (s.location != ship.location, s.state != ship.state, s.id)).id
    return max(scuttling, default=None)


def _inactivate(ctx: TurnContext, ts: TurnState, ship: Ship, adm: AdminOrder) -> TurnState:
    """Rule 2.6: the ship is laid up in the harbor, off the map; ships
    attached to it are detached."""
    assert isinstance(ship.location, InPort)
    laid_up = replace(
        ship, active=False, location=InPort(ship.location.port, True), attached_to=None, reactivates_turn=None
    )
    changed = {
        s.id: replace(s, attached_to=None) for s in ts.world.ships.values() if s.attached_to == ship.id
    }
    changed[ship.id] = laid_up
    orders = {sid: o for sid, o in ts.orders.items() if sid != ship.id}
    event = admin_event("inactivated", ship)
    return replace(ts, world=ts.world.with_ships(changed), orders=orders).emit(event)


def _reactivate(ctx: TurnContext, ts: TurnState, ship: Ship, adm: AdminOrder) -> TurnState:
    """Rule 2.6: four campaign turns, this one included; the ship is on the
    map again from the start of the turn after them."""
    if ship.hulk:  # EiA rule 12.2.8.3: a hulk is refitted instead (docs/rules/eia.md)
        turns = EiaRules.from_rules(ctx.rules).refit_turns
        return refit_hulk(ctx, ts, ship, ready_turn(ts.world, turns), Phase.REPAIR)
    rules = AdminRules.from_section(ctx.rules.section("admin"))
    ready = ready_turn(ts.world, rules.reactivation_campaign_turns)
    ship2 = replace(ship, reactivates_turn=ready)
    event = admin_event("reactivation_begun", ship, ready_turn=ready)
    return replace(ts, world=ts.world.with_ships({ship.id: ship2})).emit(event)


def ready_turn(world: WorldState, campaign_turns: int) -> int:
    """The first turn after ``campaign_turns`` campaign turns counted from
    this one (peace and truce turns, 6.12, do not count)."""
    turn, counted = world.turn, 0
    while counted < campaign_turns:
        if kind_of(world, turn) is TurnKind.CAMPAIGN:
            counted += 1
        turn += 1
    return turn


def kind_of(world: WorldState, turn: int) -> TurnKind:
    if turn == world.turn:
        return world.kind
    kinds = world.turn_kinds
    return kinds[turn - 1] if 0 < turn <= len(kinds) else TurnKind.CAMPAIGN


_START: dict[AdminKind, Apply] = {
    AdminKind.TRANSFER_CREW: _transfer_crew,
    AdminKind.SCUTTLE: _scuttle,
    AdminKind.INACTIVATE: _inactivate,
    AdminKind.REACTIVATE: _reactivate,
}
