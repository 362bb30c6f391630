"""Rule 2.3: "Commanders and deputy commanders are assigned by the Naval
Minister."

An :class:`Assignment` names the commander and the deputy the naval minister
wants for one of his state's ships.  It is checked when the minister sends it
(``check_assignment``) and takes effect when the turn is resolved
(``apply_assignments``, on the world of the next turn), so that who may order
a ship never changes while its orders for the turn are being written
(decision in docs/rules/orders.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from pate.core.orders.refusal import DENIED, INVALID, NOT_FOUND, Actor, Refusal
from pate.core.rules.validation.sight import knows, missing
from pate.core.world.ships import Ship
from pate.core.world.state import WorldState


@dataclass(frozen=True, slots=True)
class Assignment:
    ship_id: str
    commander: str | None  # None: no commander (the minister orders the ship himself, 4.1)
    deputy: str | None


def check_assignment(a: Assignment, minister: Actor, world: WorldState) -> list[Refusal]:
    """Refusals of one assignment; empty when it may stand."""
    ship = world.ships.get(a.ship_id)
    if ship is None or not (minister.minister_of(ship.state) or knows(minister, world, ship.id)):
        return [missing("ship_id", "2.3", a.ship_id)]  # the fog of war: as for no ship at all
    if not minister.minister_of(ship.state):
        return [
            Refusal("ship_id", "2.3", f"only the naval minister of {ship.state} assigns its officers", DENIED)
        ]
    out: list[Refusal] = []
    for role in ("commander", "deputy"):
        pid = getattr(a, role)
        player = world.players.get(pid) if pid is not None else None
        if pid is not None and (player is None or player.state != ship.state):
            # one answer for a login no one has and one of another state: the
            # desk does not tell who plays elsewhere in the campaign
            out.append(Refusal(role, "2.3", f"no player {pid!r} of {ship.state} in this campaign", NOT_FOUND))
    if a.commander is not None and a.commander == a.deputy:
        out.append(Refusal("deputy", "2.3", "the deputy must be another player than the commander", INVALID))
    return out


def apply_assignments(world: WorldState, assignments: Iterable[Assignment]) -> WorldState:
    """The world with each ship's officers as assigned; the last assignment of
    a ship wins, and ships sunk or taken since are left alone."""
    changed: dict[str, Ship] = {}
    for a in assignments:
        ship = changed.get(a.ship_id) or world.ships.get(a.ship_id)
        if ship is None or not _still_ours(world, ship, a):
            continue
        changed[a.ship_id] = replace(ship, commander=a.commander, deputy=a.deputy)
    return world.with_ships(changed) if changed else world


def _still_ours(world: WorldState, ship: Ship, a: Assignment) -> bool:
    """A ship captured during the turn belongs to another state now: the
    officers assigned for the old one do not follow it."""
    return all(
        pid is None or (pid in world.players and world.players[pid].state == ship.state)
        for pid in (a.commander, a.deputy)
    )
