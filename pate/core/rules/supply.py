"""Supply phase (rule 3.4): stores are eaten and loaded.

Decisions (docs/rules.md, 3.4):
- a ship with no stores order fills up to its maximum when it can load;
- ships load in a port in order of fewest stores aboard first (ties by id),
  up to ``reprovision_per_yard`` x the yard capacity ships per turn;
- a ship that starts the phase with nothing aboard and cannot eat from a port
  starves: it loses ``starving_crew_loss_percent`` of its crew and its orders
  are replaced by a course to the nearest same-side or allied harbor.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.model import Movement
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.ports import in_friendly_harbor
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship, ShipType, describe
from pate.core.world.state import PortState, WorldState


@dataclass(frozen=True, slots=True)
class SupplyRules:
    stores_per_turn: int
    reprovision_per_yard: int
    transport_space_per_extra_store: int
    starving_crew_loss_percent: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> SupplyRules:
        return cls(
            stores_per_turn=int(d.get("stores_per_turn", 1)),
            reprovision_per_yard=int(d.get("reprovision_per_yard", 2)),
            transport_space_per_extra_store=int(d.get("transport_space_per_extra_store", 20)),
            starving_crew_loss_percent=int(d.get("starving_crew_loss_percent", 10)),
        )


def supply_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    rules = SupplyRules.from_section(ctx.rules.section("supply"))
    world = ts.world
    ports = dict(world.ports)
    ships: dict[str, Ship] = {}
    orders = dict(ts.orders)
    events: list[Event] = []

    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        if not ship.active:
            continue
        eaten, fed, ports = _eat(world, ship, ports, rules)
        if not eaten:
            fed = _starve(fed, rules)
            orders[ship.id] = replace(ts.order(ship.id), movement=_course_home(ctx.map, world, fed))
            events.append(_event("starving", fed, crew=fed.crew))
        ships[ship.id] = fed

    ships, ports, loaded = _load(ctx, replace(world, ships={**world.ships, **ships}), ports, ts, rules)
    events.extend(loaded)
    new_world = replace(world, ships={**world.ships, **ships}, ports=ports)
    return replace(ts, world=new_world, orders=orders).emit(*events)


def _eat(
    world: WorldState, ship: Ship, ports: dict[str, PortState], rules: SupplyRules
) -> tuple[bool, Ship, dict[str, PortState]]:
    """One turn's stores: from the port city when in a harbor, else aboard."""
    need = rules.stores_per_turn
    loc = ship.location
    if isinstance(loc, InPort) and loc.harbor and ports[loc.port].stores >= need:
        port = ports[loc.port]
        if world.diplomacy.allied(ship.state, port.controller):
            return True, ship, {**ports, loc.port: replace(port, stores=port.stores - need)}
    if ship.stores >= need:
        return True, replace(ship, stores=ship.stores - need), ports
    return False, replace(ship, stores=0), ports


def _starve(ship: Ship, rules: SupplyRules) -> Ship:
    lost = -(-ship.crew * rules.starving_crew_loss_percent // 100)
    return replace(ship, crew=max(0, ship.crew - lost))


def _load(
    ctx: TurnContext,
    world: WorldState,
    ports: dict[str, PortState],
    ts: TurnState,
    rules: SupplyRules,
) -> tuple[dict[str, Ship], dict[str, PortState], list[Event]]:
    by_port: dict[str, list[Ship]] = {}
    for ship in world.ships.values():
        if ship.active and in_friendly_harbor(world, ship):
            assert isinstance(ship.location, InPort)
            by_port.setdefault(ship.location.port, []).append(ship)
    changed: dict[str, Ship] = {}
    events: list[Event] = []
    for port_name, present in sorted(by_port.items()):
        served = 0
        limit = rules.reprovision_per_yard * ctx.map.ports[port_name].yard
        for ship in sorted(present, key=lambda s: (s.stores, s.id)):
            cap = _stores_cap(ctx, ship, rules)
            wanted = ts.order(ship.id).stores
            target = cap if wanted is None else max(0, min(wanted, cap))
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
    return changed, ports, events


def _stores_cap(ctx: TurnContext, ship: Ship, rules: SupplyRules) -> int:
    """24 for every vessel; a transport group can carry more, each extra store
    taking 20 spaces of capacity (rule 3.4) that its cargo does not use."""
    base = ctx.rules.ship_class(ship.type).stores_max
    if ship.type is not ShipType.TR:
        return base
    free = ship.capacity - ship.cargo.space
    return base + max(0, free // rules.transport_space_per_extra_store)


def _course_home(wmap: WorldMap, world: WorldState, ship: Ship) -> Movement:
    """Rule 3.4: a starving ship sails for the nearest friendly harbor."""
    loc = ship.location
    start = (
        loc.area
        if isinstance(loc, AtSea)
        else wmap.ports[loc.port].sea_area
        if isinstance(loc, InPort)
        else None
    )
    if start is None:
        return Movement()
    friendly = {
        name for name, port in world.ports.items() if world.diplomacy.allied(ship.state, port.controller)
    }
    prev: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        area = queue.popleft()
        harbors = sorted(p for p in wmap.ports_reachable_from(area) if p in friendly)
        if harbors:
            path = [area]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])  # type: ignore[arg-type]
            steps = list(reversed(path))[1:]
            reach = len(steps) <= 2
            return Movement(sea_areas=tuple(steps[:2]), port=harbors[0] if reach else None, harbor=reach)
        for nxt in sorted(wmap.sea_areas[area].adjacent):
            if nxt not in prev:
                prev[nxt] = area
                queue.append(nxt)
    return Movement()


def _event(kind: str, ship: Ship, **data: int) -> Event:
    return Event(phase=Phase.SUPPLY, kind=kind, ships=(ship.id,), location=describe(ship.location), data=data)
