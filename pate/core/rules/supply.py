"""Supply phase (rule 3.4): stores are eaten, loaded and unloaded; then the
naval ministers' store moves between ports (3.5, ``pate.core.rules.stores``);
then the ships that ran out are sent to replenish.

Decisions (docs/rules/turn.md, 3.4):
- a ship with no stores order keeps what it has aboard ("stores unchanged",
  the order format's default), except that one with nothing aboard fills up:
  a ship that ran out sails home "to replenish";
- a transport group keeps room for the units and supplies it is ordered to
  load this turn: the extra stores it may take are counted after them;
- ships load in a port in order of fewest stores aboard first (ties by id),
  at most ``reprovision_per_yard`` x the yard capacity ships per turn; a ship
  that wanted stores and got none is told why (``not_reprovisioned``: the
  yard's places were taken, or the city had none); unloading a surplus back
  to the port is not reprovisioning;
- a ship that can eat neither from a port nor from its hold has run out: at
  sea (or in a neutral or enemy harbor) it loses ``starving_crew_loss_percent``
  of its crew, in a same-side or allied harbor none (it is where the rule
  sends it); either way its orders are replaced by a course to the nearest
  friendly harbor that can replenish it (``pate.core.rules.homing``), chosen
  once the port cities' stores of the turn are settled.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.limits import OrderLimits
from pate.core.orders.model import ShipOrder
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.homing import Home, Room, find_home, home_for_all
from pate.core.rules.ports import in_friendly_harbor
from pate.core.rules.stores import move_stores
from pate.core.rules.transport import SpaceRules, known_space, stores_room
from pate.core.world.ships import InAtlantic, InPort, Location, Ship, ShipType, describe
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
    ts, starving = _consume(ctx, ts, rules)
    ts = _reprovision(ctx, ts, rules)
    ts = move_stores(ctx, ts)
    # last: the course home looks at what the ports have left for next turn
    return _send_home(ctx, ts, rules, starving)


def _consume(ctx: TurnContext, ts: TurnState, rules: SupplyRules) -> tuple[TurnState, dict[str, int]]:
    """Rule 3.4: one store a turn, from the port city in a friendly harbor
    that has one, else from the hold; inactive ships eat nothing (2.6).
    Returns the ships that ran out, with the crew each had before."""
    world = ts.world
    ports = dict(world.ports)
    ships: dict[str, Ship] = {}
    starving: dict[str, int] = {}
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
            ships[ship.id] = _starve(world, ship, rules)
            starving[ship.id] = ship.crew
    new_world = replace(world, ships={**world.ships, **ships}, ports=ports)
    return replace(ts, world=new_world), starving


def _feeding_port(world: WorldState, ports: dict[str, PortState], ship: Ship, need: int) -> PortState | None:
    if not in_friendly_harbor(world, ship):
        return None
    assert isinstance(ship.location, InPort)
    port = ports[ship.location.port]
    return port if port.stores >= need else None


def _starve(world: WorldState, ship: Ship, rules: SupplyRules) -> Ship:
    """Rule 3.4 ("not yet implemented" in the book): crew loss, rounded up.
    Not in a same-side or allied harbor: the loss is for ships that cannot
    reach their stores, and the rule's remedy for them is such a harbor."""
    if in_friendly_harbor(world, ship):
        return replace(ship, stores=0)
    lost = -(-ship.crew * rules.starving_crew_loss_percent // 100)
    return replace(ship, stores=0, crew=max(0, ship.crew - lost))


def _send_home(ctx: TurnContext, ts: TurnState, rules: SupplyRules, starving: Mapping[str, int]) -> TurnState:
    """Rule 3.4: a ship that ran out "stops responding to orders": its order
    becomes the default one (4.11) with a course to the nearest harbor that
    can replenish it.  A ship crossing the Atlantic keeps its course (6.11:
    it cannot be given orders)."""
    world = ts.world
    limits = OrderLimits.from_rules(ctx.rules)
    rooms = _rooms(ctx, world, rules, limits, starving)
    courses: dict[str, Home] = {}
    for group in _together(world, starving):
        courses.update(_courses(ctx, world, group, rooms, rules, limits))
    orders = dict(ts.orders)
    events: list[Event] = []
    for sid in sorted(starving):
        home = courses.get(sid)
        if home is not None:
            orders[sid] = ShipOrder(sid, movement=home.movement)
        homing = home is not None and home.movement.moves
        events.append(_starving_event(world.ships[sid], starving[sid], homing))
    return replace(ts, orders=orders).emit(*events)


def _together(world: WorldState, starving: Collection[str]) -> list[list[Ship]]:
    """The ships that ran out, by the place they lie in (first id first);
    those crossing the Atlantic are left on their course."""
    groups: dict[Location, list[Ship]] = {}
    for sid in sorted(starving):
        ship = world.ships[sid]
        if not isinstance(ship.location, InAtlantic):
            groups.setdefault(ship.location, []).append(ship)
    return list(groups.values())


def _courses(
    ctx: TurnContext,
    world: WorldState,
    group: list[Ship],
    rooms: dict[str, Room],
    rules: SupplyRules,
    limits: OrderLimits,
) -> dict[str, Home]:
    """Ships that ran out in one place keep together when one harbor can
    replenish them all (the squadron is not split over two ports); else
    each goes to the nearest that can replenish it, in id order, each
    ship's claim on a port counted for the next."""
    needs = {s.id: _need(ctx, s, rules, limits) for s in group}
    together = home_for_all(ctx.map, world, group[0], rooms, sum(needs.values()), len(group))
    out: dict[str, Home] = {}
    for ship in group:
        home = together or find_home(ctx.map, world, ship, rooms, needs[ship.id])
        if home.port is not None:
            left = rooms[home.port]
            rooms[home.port] = Room(left.places - 1, left.stores - needs[ship.id])
        out[ship.id] = home
    return out


def _need(ctx: TurnContext, ship: Ship, rules: SupplyRules, limits: OrderLimits) -> int:
    """The stores a ship that ran out takes to replenish: a full load, and the
    store it eats in the harbor on the turn it loads."""
    return stores_room(ship, ctx.rules, limits) + rules.stores_per_turn


def _rooms(
    ctx: TurnContext, world: WorldState, rules: SupplyRules, limits: OrderLimits, leaving: Collection[str]
) -> dict[str, Room]:
    """Each port's reprovisioning places (2 x yard) and stores, less those
    the ships already waiting empty in its harbor will take next turn (they
    load first: fewest stores first)."""
    waiting: dict[str, list[Ship]] = {}
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        if ship.active and ship.stores == 0 and ship.id not in leaving and in_friendly_harbor(world, ship):
            assert isinstance(ship.location, InPort)
            waiting.setdefault(ship.location.port, []).append(ship)
    rooms: dict[str, Room] = {}
    for name, port in world.ports.items():
        spec = ctx.map.ports.get(name)
        queue = waiting.get(name, [])
        places = rules.reprovision_per_yard * (spec.yard if spec is not None else 0) - len(queue)
        rooms[name] = Room(places, port.stores - sum(_need(ctx, s, rules, limits) for s in queue))
    return rooms


def _starving_event(ship: Ship, crew_before: int, homing: bool) -> Event:
    data = {"crew_lost": crew_before - ship.crew, "crew": ship.crew, "homing": homing}
    return Event(Phase.SUPPLY, "out_of_stores", (ship.id,), describe(ship.location), data=data)


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
            elif ship.stores < target:
                events.append(_not_reprovisioned(ship, limit, port.stores))
    return replace(ts, world=replace(world.with_ships(changed), ports=ports)).emit(*events)


def _not_reprovisioned(ship: Ship, places: int, stores: int) -> Event:
    """Why a ship that wanted stores got none: the city had none left, or the
    yard's places (rule 3.4: 2 x yard ships a turn) were taken."""
    reason = "no_stores" if stores <= 0 else "yard_full"
    return Event(
        Phase.SUPPLY,
        "not_reprovisioned",
        (ship.id,),
        describe(ship.location),
        data={"reason": reason, "places": places},
    )


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
