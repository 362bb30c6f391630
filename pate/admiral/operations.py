"""The admiral's naval operations under the EiA new naval rules (docs/rules/eia-operations.md).

Under ``naval_rules = "eia-operations"`` each fleet marker (a lead ship and what is attached to
it) takes one operation a turn, and PATE's movement orders are set aside. The admiral chooses
from what his own report shows of his ships and the map alone, so every operation it gives is
one the order desk accepts whatever the world holds:

- a fleet in a port's harbour patrols (cautious) or raids (bold) from it: neither takes a
  destination or money, so neither can be refused;
- a fleet at sea or in coastal waters, which may only choose Naval Superiority or Rebase,
  rebases: home to its base port when that is within the rule's steps and no enemy ship is
  known there, else into the sea area where it lies (always within reach).

Naval Superiority costs money that only the naval minister sees, so the admiral leaves it to
the human player.
"""

from __future__ import annotations

from dataclasses import replace

from pate.admiral.view import OwnShip, View
from pate.core.orders.model import Movement, ShipOrder
from pate.core.orders.operation import Operation, OpKind
from pate.core.rules.eiaops.steps import distance
from pate.core.world.geography import WorldMap

OPERATIONS = "eia-operations"


def with_operations(
    orders: list[ShipOrder], view: View, world_map: WorldMap, rebase_steps: int, bold: bool
) -> list[ShipOrder]:
    """``orders`` with an operation on every fleet marker's lead (a lead without an order of
    its own gets one that holds only the operation), and no movement: under these rules a fleet
    moves by its operation alone."""
    by_ship = {o.ship_id: replace(o, movement=Movement()) for o in orders}
    leads = [s for s in view.ships if view.mine(s) and s.active and s.lead is None]
    for s in sorted(leads, key=lambda s: s.id):
        if s.id in by_ship and by_ship[s.id].attach_to is not None:
            continue  # it joins a squadron this turn: that squadron's lead declares
        op = _operation(s, view, world_map, rebase_steps, bold)
        by_ship[s.id] = replace(by_ship.get(s.id, ShipOrder(s.id)), operation=op)
    return [by_ship[k] for k in sorted(by_ship)]


def _operation(s: OwnShip, view: View, world_map: WorldMap, steps: int, bold: bool) -> Operation:
    if s.port is not None and s.harbor:
        return Operation(OpKind.RAID if bold else OpKind.PATROL)
    place = s.port if s.port is not None else s.area
    home = s.base
    if (
        home in world_map.ports
        and home != place
        and view.enemy_ports.get(home, 0.0) == 0.0
        and distance(world_map, place, home, steps) is not None
        and home in _own_side_ports(view, world_map)
    ):
        return Operation(OpKind.REBASE, to=home)
    return Operation(OpKind.REBASE, to=s.area)


def _own_side_ports(view: View, world_map: WorldMap) -> frozenset[str]:
    """Ports the player's report shows his side holding: the minister's own ports, and the
    ports where his own ships lie in harbour (a ship in harbour lies in a friendly port)."""
    held = set(view.own_ports)
    held |= {s.port for s in view.ships if s.port is not None and s.harbor}
    return frozenset(p for p in held if p in world_map.ports)
