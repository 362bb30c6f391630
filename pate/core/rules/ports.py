"""Small questions about ports that several phases ask."""

from __future__ import annotations

from pate.core.orders.model import ShipOrder
from pate.core.world.ships import InPort, Ship
from pate.core.world.state import WorldState


def in_friendly_harbor(world: WorldState, ship: Ship) -> bool:
    """In the harbor of a same-side or actively allied port (rules 3.3, 3.4)."""
    loc = ship.location
    if not isinstance(loc, InPort) or not loc.harbor:
        return False
    port = world.ports.get(loc.port)
    return port is not None and world.diplomacy.allied(ship.state, port.controller)


def sails_out(ship: Ship, order: ShipOrder) -> bool:
    """Whether the order takes the ship out of the port it is in (rule 3.3)."""
    loc = ship.location
    mv = order.movement
    if not isinstance(loc, InPort):
        return mv.moves
    if mv.sea_areas or mv.any_enemy_port:
        return True
    return mv.port is not None and mv.port != loc.port
