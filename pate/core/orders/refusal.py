"""Who is ordering, and how the desk says no.

A :class:`Refusal` names the field of the order form it objects to (a path
such as ``movement.sea_areas[1]``), the rule it enforces, a sentence the player
can act on, and a status code the service maps onto gRPC:

* ``not_found``: the ship (or a ship the order names) does not exist;
* ``permission_denied``: the player may not order this ship, or not this order;
* ``failed_precondition``: the order is well formed, but the situation forbids
  it now (ship crossing or inactive, enemies present, target elsewhere...);
* ``invalid_argument``: the order itself is malformed, out of range,
  contradictory, or asks for a route the map does not allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pate.core.orders.effective import Author
from pate.core.world.ships import Ship
from pate.core.world.state import Player, Role

RefusalCode = Literal["invalid_argument", "permission_denied", "failed_precondition", "not_found"]

INVALID: RefusalCode = "invalid_argument"
DENIED: RefusalCode = "permission_denied"
PRECONDITION: RefusalCode = "failed_precondition"
NOT_FOUND: RefusalCode = "not_found"


@dataclass(frozen=True, slots=True)
class Refusal:
    field: str  # path into the order: "movement.sea_areas[1]", "admin[0].amount"
    rule: str  # rule number enforced: "6.2", "4.4"
    message: str
    code: RefusalCode

    def __str__(self) -> str:
        return f"{self.field}: {self.message} (rule {self.rule})"


@dataclass(frozen=True, slots=True)
class Actor:
    """The player sending an order, as authenticated by the service."""

    player: str
    state: str | None = None
    roles: frozenset[Role] = frozenset()

    @classmethod
    def of(cls, player: Player) -> Actor:
        return cls(player=player.id, state=player.state, roles=player.roles)

    @property
    def admin(self) -> bool:
        return Role.ADMIN in self.roles

    def minister_of(self, state: str) -> bool:
        return Role.NAVAL_MINISTER in self.roles and self.state == state


def authority(actor: Actor, ship: Ship) -> Author | None:
    """In which capacity the actor may order the ship (rules 2.3, 4.1), or None.

    The commander and deputy are named on the ship (2.3).  The naval minister
    of the ship's state assigns both, so may also order it, with the
    commander's weight; so may a game administrator.  A player holding several
    capacities is given the weightiest: commander, minister, administrator,
    then deputy.
    """
    if ship.commander is not None and ship.commander == actor.player:
        return Author.COMMANDER
    if actor.minister_of(ship.state):
        return Author.MINISTER
    if actor.admin:
        return Author.ADMIN
    if ship.deputy is not None and ship.deputy == actor.player:
        return Author.DEPUTY
    return None
