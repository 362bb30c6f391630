"""What the player sending an order can know of other ships (rules 3.11, 5.1).

A player learns of ships only through his reports: his own ships (those he
commands or deputises, and for a naval minister every ship of his state, 2.3)
and the ships their contact lists show.  The reports he holds while the turn
is open were made from the very world his orders are checked against, so that
world gives what he knows.  A refusal that speaks of another ship says
something only of a ship he knows of: for any other it reads exactly as for an
id no ship has (``missing``), so that probing the desk with ship ids tells
nothing the fog of war hides (docs/security.md).  An administrator knows every
ship, and so does the resolver's re-check.
"""

from __future__ import annotations

from pate.core.orders.refusal import INVALID, NOT_FOUND, Actor, Refusal, authority
from pate.core.rules.detection import contact_lists
from pate.core.world.ships import SHIP_ID
from pate.core.world.state import Role, WorldState


def known_ships(actor: Actor, world: WorldState) -> frozenset[str] | None:
    """The ids of the ships the actor's reports show; None: every ship."""
    if actor.admin:
        return None
    own = [sid for sid, s in world.ships.items() if authority(actor, s) is not None]
    lists = contact_lists(world, own)
    return frozenset(own) | frozenset(seen.id for cl in lists.values() for seen in cl.seen)


def knows(actor: Actor, world: WorldState, sid: str) -> bool:
    """Whether ship ``sid`` exists and the actor knows of it.  Worked out
    only when a refusal is about to speak of the ship, which is rare."""
    if sid not in world.ships:
        return False
    known = known_ships(actor, world)
    return known is None or sid in known


def minister(state: str) -> Actor:
    """The naval minister of ``state``, as far as what he knows goes (his
    state's ships and what they see): for orders that name no player, such
    as a store move (3.5)."""
    return Actor(f"minister of {state}", state, frozenset({Role.NAVAL_MINISTER}))


def missing(field: str, rule: str, sid: str) -> Refusal:
    """The refusal for a ship id naming no ship the player knows of."""
    if SHIP_ID.fullmatch(sid):
        return Refusal(field, rule, f"no ship {sid} that you know of", NOT_FOUND)
    return Refusal(field, rule, f"{sid!r} is not a ship id (like BR1FL or NE4TR)", INVALID)
