"""Who has orders to give in a turn: the players a turn waits for.

One definition for the early close (a turn closes once all of them have
confirmed), the solo campaign's close and civil disorder (only they can
miss a deadline), docs/rules/turn.md "Players with orders to give".
"""

from __future__ import annotations

from pate.core.world.ships import InAtlantic
from pate.core.world.state import Role, WorldState


def players_with_ships(world: WorldState) -> list[str]:
    """The commanders and deputies of active ships not crossing the Atlantic
    (rules 4.1, 1.6: no orders reach a crossing ship), and the naval minister
    of each state (2.3, 3.5: his store moves and officer assignments are
    orders of the turn, and he orders the ships with no commander), sorted."""
    found = {p.id for p in world.players.values() if Role.NAVAL_MINISTER in p.roles and p.state}
    for ship in world.ships.values():
        if ship.active and not isinstance(ship.location, InAtlantic):
            found |= {pid for pid in (ship.commander, ship.deputy) if pid}
    return sorted(found & set(world.players))
