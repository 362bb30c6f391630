"""The end-of-turn administrative step: combining and dividing transport
groups (rule 2.5 and the recovered help page) and ships whose reactivation
(2.6) is complete.  Runs as a post-step of the final amphibious phase: 2.5
combines groups that "finish a turn in contact", and what it makes takes
orders from the next turn on.  Decisions: docs/rules/turn.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pate.core.events import Phase
from pate.core.orders.limits import OrderLimits
from pate.core.orders.model import AdminKind, AdminOrder
from pate.core.orders.refusal import PRECONDITION, Refusal
from pate.core.rules.admin import admin_event, carry_out, refused
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.transport import SpaceRules, free_space, unit_space
from pate.core.world.ships import Cargo, Quality, Ship, ShipType, ship_id

PHASE = Phase.FINAL_AMPHIBIOUS


def end_of_turn(ctx: TurnContext, ts: TurnState) -> TurnState:
    ts = carry_out(ctx, ts, AdminKind.COMBINE, combine, PHASE)
    ts = carry_out(ctx, ts, AdminKind.DIVIDE, divide, PHASE)
    return reactivated(ts)


def combine(ctx: TurnContext, ts: TurnState, ship: Ship, adm: AdminOrder) -> TurnState:
    """Rule 2.5: the group with the lower number goes on, with the sum of
    both capacities, crews, units and supplies; its stores, experience,
    quality, morale and damage are the averages weighted by capacity
    (rounded half up)."""
    a, b = sorted((ship, ts.world.ships[adm.target or ""]), key=lambda s: s.number)
    weights = (a.capacity, b.capacity)

    def mean(x: int, y: int) -> int:
        return _weighted((x, y), weights)

    merged = replace(
        a,
        capacity=a.capacity + b.capacity,
        crew=a.crew + b.crew,
        stores=mean(a.stores, b.stores),
        experience=mean(a.experience, b.experience),
        quality=Quality(mean(a.quality.value, b.quality.value)),
        morale=mean(a.morale, b.morale),
        hull=mean(a.hull, b.hull),
        rigging=mean(a.rigging, b.rigging),
        cargo=Cargo(
            a.cargo.units + b.cargo.units, a.cargo.supplies + b.cargo.supplies, a.cargo.space + b.cargo.space
        ),
    )
    lead = None if a.attached_to is not None else a.id
    changed = {s.id: replace(s, attached_to=lead) for s in ts.world.ships.values() if s.attached_to == b.id}
    changed[a.id] = merged
    orders = {sid: o for sid, o in ts.orders.items() if sid != b.id}
    # the land side must hear where the removed group's cargo went (docs/gitm.md)
    event = admin_event(
        "groups_combined",
        a,
        b.id,
        phase=PHASE,
        capacity=merged.capacity,
        removed=b.id,
        cargo_moves=_moves(b.id, a.id, b.cargo.units, b.cargo.supplies),
    )
    return replace(ts, world=ts.world.with_ships(changed, (b.id,)), orders=orders).emit(event)


def _moves(src: str, dst: str, units: Sequence[str], supplies: int) -> dict[str, object]:
    """The cargo that changed transport group, as the GITM bridge reports it
    (ReportCargoMoves): which units and how many supplies, from and to."""
    return {"from": src, "to": dst, "units": list(units), "supplies": supplies}


def _weighted(values: Sequence[int], weights: Sequence[int]) -> int:
    total = sum(weights)
    return (sum(v * w for v, w in zip(values, weights, strict=True)) * 2 + total) // (2 * total)


def divide(ctx: TurnContext, ts: TurnState, ship: Ship, adm: AdminOrder) -> TurnState:
    """Rule 2.5 (recovered): the new group takes the next number above the
    highest of its state's groups and keeps the commander and deputy; crew
    goes in proportion to capacity; units and supplies stay aboard the old
    group, and those that no longer fit move across (last loaded first) if
    the new group has room, else the order fails."""
    limits = OrderLimits.from_rules(ctx.rules)
    number = 1 + max(
        s.number for s in ts.world.ships.values() if s.state == ship.state and s.type is ShipType.TR
    )
    used = ts.ids_used()
    while ship_id(ship.state, number, ShipType.TR) in used:
        number += 1  # rule 7.8: never an id another ship had earlier this turn
    crew = ship.crew * adm.amount // ship.capacity
    stores_max = ctx.rules.ship_class(ShipType.TR).stores_max
    new = replace(
        ship,
        id=ship_id(ship.state, number, ShipType.TR),
        number=number,
        capacity=adm.amount,
        crew=crew,
        stores=min(ship.stores, stores_max),
        cargo=Cargo(),
        attached_to=None,
    )
    old = replace(ship, capacity=ship.capacity - adm.amount, crew=ship.crew - crew)
    old, new = _rebalance(ctx, ts, old, new, limits)
    if free_space(old, ctx.rules, limits) < 0:
        msg = "the units, supplies and stores aboard do not fit in the two groups"
        return ts.emit(refused(ship, adm, [Refusal("admin", "2.5", msg, PRECONDITION)], PHASE))
    moves = _moves(ship.id, new.id, new.cargo.units, new.cargo.supplies)
    event = admin_event(
        "group_divided", ship, new.id, phase=PHASE, new=new.id, capacity=adm.amount, cargo_moves=moves
    )
    return replace(ts, world=ts.world.with_ships({old.id: old, new.id: new})).emit(event)


def _rebalance(
    ctx: TurnContext, ts: TurnState, old: Ship, new: Ship, limits: OrderLimits
) -> tuple[Ship, Ship]:
    space = SpaceRules.of(ctx.rules)
    for unit_id in reversed(old.cargo.units):
        unit = ts.world.land_units.get(unit_id)
        if free_space(old, ctx.rules, limits) >= 0 or unit is None:
            continue
        size = unit_space(unit, space)
        if size <= free_space(new, ctx.rules, limits):
            old, new = _move_cargo(old, new, (unit_id,), 0, size)
    overflow = -free_space(old, ctx.rules, limits)
    if overflow > 0 and old.cargo.supplies:
        room = max(0, free_space(new, ctx.rules, limits)) // space.per_supply
        moved = min(old.cargo.supplies, room, -(-overflow // space.per_supply))
        old, new = _move_cargo(old, new, (), moved, moved * space.per_supply)
    return old, new


def _move_cargo(src: Ship, dst: Ship, units: tuple[str, ...], supplies: int, space: int) -> tuple[Ship, Ship]:
    left = Cargo(
        tuple(u for u in src.cargo.units if u not in units),
        src.cargo.supplies - supplies,
        src.cargo.space - space,
    )
    right = Cargo(dst.cargo.units + units, dst.cargo.supplies + supplies, dst.cargo.space + space)
    return replace(src, cargo=left), replace(dst, cargo=right)


def reactivated(ts: TurnState) -> TurnState:
    """Rule 2.6: a ship whose four campaign turns are over is on the map (and
    takes orders) from the start of the next turn."""
    nxt = ts.world.turn + 1
    changed: dict[str, Ship] = {}
    events = []
    for ship in sorted(ts.world.ships.values(), key=lambda s: s.id):
        if not ship.active and ship.reactivates_turn is not None and ship.reactivates_turn <= nxt:
            changed[ship.id] = replace(ship, active=True, reactivates_turn=None, hulk=False)
            # EiA rule 12.2.8.3: a refitted hulk "immediately becomes a ship"
            events.append(admin_event("refitted" if ship.hulk else "reactivated", ship, phase=PHASE))
    return replace(ts, world=ts.world.with_ships(changed)).emit(*events)
