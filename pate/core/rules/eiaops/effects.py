"""What a revealed operation does to the world when it resolves."""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.orders.model import Amphibious
from pate.core.orders.operation import OpKind
from pate.core.rules.amphibious import begin_transfer
from pate.core.rules.context import TurnContext
from pate.core.rules.eiaops.declare import carrier
from pate.core.rules.eiaops.model import Declared
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.trade import friendly_port_on
from pate.core.world.ships import AtSea, InPort, Location, Ship, ShipType
from pate.core.world.state import WorldState


def _move(world: WorldState, d: Declared, to: Location) -> WorldState:
    changed = {s: replace(world.ships[s], location=to) for s in d.fleet.ships if s in world.ships}
    return world.with_ships(changed)


def _destination(ctx: TurnContext, d: Declared) -> Location:
    to = d.op.to or d.fleet.place
    if to in ctx.map.sea_areas:
        return AtSea(to, 1)
    return InPort(to, harbor=not d.op.blockade)


def resolve_effect(
    ctx: TurnContext, world: WorldState, d: Declared, rules: OpsRules
) -> tuple[WorldState, list[Event]]:
    kind = d.op.kind
    if kind is OpKind.NAVAL_SUPERIORITY and not d.fleet.at_sea:
        # "Use your whole fleet to control major operations in the sea area":
        # the fleet leaves port for its sea area, and is based there
        return _move(world, d, AtSea(ctx.map.ports[d.fleet.place].sea_area, 1)), []
    if kind is OpKind.REBASE:
        return _move(world, d, _destination(ctx, d)), []
    if kind is OpKind.TRANSPORT:
        return _land(ctx, _move(world, d, InPort(d.op.to or "", harbor=True)), d)
    if kind is OpKind.INVASION:
        # the corps is carried to the sea zone of the port and lands there:
        # the fleet lies in the port's coastal waters (its blockade box)
        return _land(ctx, _move(world, d, InPort(d.op.to or "", harbor=False)), d)
    if kind is OpKind.SUPPLY:
        return world, [_supply(ctx, world, d)]
    return world, []


def _land(ctx: TurnContext, world: WorldState, d: Declared) -> tuple[WorldState, list[Event]]:
    """The corps lands through PATE's amphibious code and the GITM bridge
    (docs/gitm.md): the unloading begins now, the final amphibious phase
    completes it exactly once."""
    ship: Ship | None = carrier(world, d.fleet, d.op.corps or "")
    if ship is None:
        return world, []
    order = Amphibious(unload_units=(d.op.corps or "",))
    return world, begin_transfer(ctx, world, ship, order, Phase.COMBAT)


def _supply(ctx: TurnContext, world: WorldState, d: Declared) -> Event:
    """ "The supply may reach a land zone bordering a sea zone if there is a
    friendly fleet with at least one transport present": the ports opening
    on the chain's zones, where a friendly transport group lies."""
    reached = []
    for area in d.op.chain:
        for port in ctx.map.ports_reachable_from(area):
            if _transport_at(world, d.fleet.state, area, port):
                reached.append(port)
    friendly = [a for a in d.op.chain if friendly_port_on(ctx.map, world, a, d.fleet.state)]
    ships = tuple(s for s in d.fleet.ships if s in world.ships)
    data = {
        "fleet": d.fleet.lead,
        "chain": list(d.op.chain),
        "reached": sorted(set(reached)),
        "friendly_ports_on": friendly,
    }
    return Event(Phase.COMBAT, "supply_traced", ships, d.fleet.place, (), data)


def _transport_at(world: WorldState, state: str, area: str, port: str) -> bool:
    for ship in world.ships.values():
        if ship.type is not ShipType.TR or not world.diplomacy.allied(state, ship.state):
            continue
        loc = ship.location
        if (isinstance(loc, AtSea) and loc.area == area) or (isinstance(loc, InPort) and loc.port == port):
            return True
    return False
