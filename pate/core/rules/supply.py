"""Supply phase (rule 3.4): stores are eaten, loaded and unloaded; then the
naval ministers' store moves between ports (3.5, ``pate.core.rules.stores``).

Decisions (docs/rules/turn.md, 3.4):
- a ship with no stores order keeps what it has aboard ("stores unchanged",
  the order format's default), except that one with nothing aboard fills up:
  a ship that ran out sails home "to replenish";
- a transport group keeps room for the units and supplies it is ordered to
  load this turn: the extra stores it may take are counted after them;
- ships load in a port in order of fewest stores aboard first (ties by id),
  at most ``reprovision_per_yard`` x the yard capacity ships per turn;
  unloading a surplus back to the port is not reprovisioning;
- a ship that can eat neither from a port nor from its hold starves: it loses
  ``starving_crew_loss_percent`` of its crew, and its orders are replaced by
  a course to the nearest same-side or allied harbor (``pate.core.rules.homing``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.limits import OrderLimits
from pate.core.orders.model import ShipOrder
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.homing import course_home
from pate.core.rules.ports import in_friendly_harbor
from pate.core.rules.stores import move_stores
from pate.core.rules.transport import SpaceRules, known_space, stores_room
from pate.core.world.ships import InAtlantic, InPort, Ship, ShipType, describe
from pate.core.world.state import PortState, WorldState


@dataclass(frozen=True, slots=True)
class SupplyRules:
    stores_per_turn: int
    reprovision_per_yard: int
    starving_crew_loss_percent: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> SupplyRules:
        return cls(
            stores_per_turn=int(d.get("stores_per_turn", 1)),
            reprovision_per_yard=int(d.get("reprovision_per_yard", 2)),
            starving_crew_loss_percent=int(d.get("starving_crew_loss_percent", 10)),
        )


def supply_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    rules = SupplyRules.from_section(ctx.rules.section("supply"))
    ts = _consume(ctx, ts, rules)
    ts = _reprovision(ctx, ts, rules)
    return move_stores(ctx, ts)


def _consume(ctx: TurnContext, ts: TurnState, rules: SupplyRules) -> TurnState:
    """Rule 3.4: one store a turn, from the port city in a friendly harbor
    that has one, else from the hold; inactive ships eat nothing (2.6)."""
    world = ts.world
    ports = dict(world.ports)
    ships: dict[str, Ship] = {}
    orders = dict(ts.orders)
    events: list[Event] = []
    need = rules.stores_per_turn
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        if not ship.active:
            continue
        port = _feeding_port(world, ports, ship, need)
        if port is not None:
            ports[port.name] = replace(port, stores=port.stores - need)
        elif ship.stores >= need:
            ships[ship.id] = replace(ship, stores=ship.stores - need)
        else:
            starved, order = _starve(ctx, world, ship, rules)
            ships[ship.id] = starved
            if order is not None:
                orders[ship.id] = order
            course = order.movement if order is not None else None
            events.append(_starving_event(ship, starved, course is not None and course.moves))
    new_world = replace(world, ships={**world.ships, **ships}, ports=ports)
    return replace(ts, world=new_world, orders=orders).emit(*events)


def _feeding_port(world: WorldState, ports: dict[str, PortState], ship: Ship, need: int) -> PortState | None:
    if not in_friendly_harbor(world, ship):
        return None
    assert isinstance(ship.location, InPort)
    port = ports[ship.location.port]
    return port if port.stores >= need else None


def _starve(
    ctx: TurnContext, world: WorldState, ship: Ship, rules: SupplyRules
) -> tuple[Ship, ShipOrder | None]:
    """Rule 3.4 ("not yet implemented" in the book): crew loss, rounded up,
    and the ship "stops responding to orders": its order becomes the default
    one (4.11) with a course to the nearest friendly harbor.  A ship crossing
    the Atlantic keeps its course (6.11: it cannot be given orders)."""
    lost = -(-ship.crew * rules.starving_crew_loss_percent // 100)
    starved = replace(ship, stores=0, crew=max(0, ship.crew - lost))
    if isinstance(ship.location, InAtlantic):
        return starved, None
    return starved, ShipOrder(ship.id, movement=course_home(ctx.map, world, ship))


def _starving_event(before: Ship, after: Ship, homing: bool) -> Event:
    data = {"crew_lost": before.crew - after.crew, "crew": after.crew, "homing": homing}
    return Event(Phase.SUPPLY, "out_of_stores", (before.id,), describe(before.location), data=data)


def _reprovision(ctx: TurnContext, ts: TurnState, rules: SupplyRules) -> TurnState:
    """Rule 3.4: loading up to what the order asks (24 at most; transports
    more), at most 2 x yard ships a port; a surplus goes back ashore."""
    world = ts.world
    limits = OrderLimits.from_rules(ctx.rules)
    by_port: dict[str, list[Ship]] = {}
    for ship in world.ships.values():
        if ship.active and in_friendly_harbor(world, ship):
            assert isinstance(ship.location, InPort)
            by_port.setdefault(ship.location.port, []).append(ship)
    ports = dict(world.ports)
    changed: dict[str, Ship] = {}
    events: list[Event] = []
    for port_name, present in sorted(by_port.items()):
        served = 0
        limit = rules.reprovision_per_yard * ctx.map.ports[port_name].yard
        for ship in sorted(present, key=lambda s: (s.stores, s.id)):
            target = _target(ctx, ts, ship, limits)
            port = ports[port_name]
            if ship.stores > target:  # rule 3.4: the rest goes back ashore
                ports[port_name] = replace(port, stores=port.stores + ship.stores - target)
                changed[ship.id] = replace(ship, stores=target)
                events.append(_event("unloaded_stores", ship, stores=ship.stores - target))
            elif ship.stores < target and served < limit and port.stores > 0:
                take = min(target - ship.stores, port.stores)
                served += 1
                ports[port_name] = replace(port, stores=port.stores - take)
                changed[ship.id] = replace(ship, stores=ship.stores + take)
                events.append(_event("loaded_stores", ship, stores=take))
    return replace(ts, world=replace(world.with_ships(changed), ports=ports)).emit(*events)


def _target(ctx: TurnContext, ts: TurnState, ship: Ship, limits: OrderLimits) -> int:
    order = ts.order(ship.id)
    room = stores_room(ship, ctx.rules, limits, _reserved(ctx, ts, ship, order))
    if order.stores is None:
        return room if ship.stores == 0 else ship.stores
    return max(0, min(order.stores, room))


def _reserved(ctx: TurnContext, ts: TurnState, ship: Ship, order: ShipOrder) -> int:
    """Space a transport group keeps for the cargo it is ordered to load,
    less what it is ordered to unload (sizes PATE knows only)."""
    if ship.type is not ShipType.TR or order.amphibious.empty:
        return 0
    a = order.amphibious
    space = SpaceRules.of(ctx.rules)
    loads = known_space(ts.world, a.load_units, space) + a.load_supplies * space.per_supply
    unloads = known_space(ts.world, a.unload_units, space) + a.unload_supplies * space.per_supply
    return max(0, loads - unloads)


def _event(kind: str, ship: Ship, **data: int) -> Event:
    return Event(phase=Phase.SUPPLY, kind=kind, ships=(ship.id,), location=describe(ship.location), data=data)
