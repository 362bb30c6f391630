"""Departures and pursuit (rules 6.3, 6.10 with the contact numbers of 4.6).

Rule 6.10: a ship ordered to pursue that sees an enemy in its tactical
location sail abandons its own orders and follows; the pursuers succeed or
fail with the pursued for the rest of the phase, stop in the coastal waters
if the pursued enter a harbor, and may decline to follow into a port at all
(``Contact.pursue_into_ports``).  Decisions (docs/rules/movement.md): the
number compared with the pursuer's minimum and maximum is the number of ships
sailing away together; pursuit stops at the Atlantic (no encounters there,
6.11); only ships sailing on their own orders set off a new pursuit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pate.core.orders.model import ContactMode
from pate.core.rules.movement.board import Board, Key
from pate.core.world.geography import Direction
from pate.core.world.ships import InPort, Location, Ship, contact_key


@dataclass(slots=True)
class Departure:
    """A group leaving its location in one step, and who follows it."""

    members: list[str]
    origin: Location
    key: Key
    course: Direction
    to_area: str | None = None  # a sea-area move
    to_port: str | None = None  # entering a port
    harbor: bool = False
    atlantic: bool = False
    strait: str | None = None  # strait port passed through (6.3)
    witnesses: list[str] = field(default_factory=list)
    pursuers: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def lead(self) -> str:
        return self.members[0]


def _follows(board: Board, ship: Ship, d: Departure, departing: frozenset[str] = frozenset()) -> bool:
    """Whether a ship not yet pursuing takes up the pursuit of ``d``; ``departing``: the ships
    setting out on their own orders in this step, whose move the pursuit replaces."""
    contact = board.order(ship.id).contact
    if contact.mode is not ContactMode.PURSUE or ship.id in d.members or d.atlantic:
        return False
    plan = board.plans.get(ship.id)
    if plan is not None and plan.stopped and ship.id not in departing:
        return False  # rule 6.6: stopped after an earlier move, she cannot move again to chase
    if d.to_port is not None and not contact.pursue_into_ports:
        return False
    if not can_keep_up(board, ship, d):
        return False
    return board.hostile_to(ship, board.states_of(d.members)) and contact.acts_on(len(d.members))


def can_keep_up(board: Board, ship: Ship, d: Departure) -> bool:
    """Rule 6.7 read with 6.10 (docs/rules/movement.md, "Pursuit"): a
    dismasted ship never keeps up with ships less damaged aloft, so she does
    not chase them; the rest of her group pursues without her."""
    if ship.rigging < board.params.dismasted_rigging:
        return True
    return all(board.ships[m].rigging >= board.params.dismasted_rigging for m in d.members)


def same_tactical_location(ship: Ship, d: Departure) -> bool:
    """Rule 6.10 "in the same tactical location": in a port the harbor and
    the coastal waters are two (rule 1.2), though the whole port is one
    contact (5.1); at sea the contact key is already the tactical area."""
    return ship.location == d.origin


def _abandon(board: Board, ship: Ship, reason: str) -> None:
    board.plans[ship.id].pursuing = None
    board.plans[ship.id].done = True
    witnesses = board.witnesses_at(contact_key(ship.location))
    board.emit("pursuit_abandoned", (ship.id,), ship.location, witnesses, reason=reason)


def assign_pursuers(board: Board, departures: list[Departure]) -> list[Departure]:
    """Attach pursuers to the departures of one step (before anyone is
    lifted), take them out of their own groups, and drop emptied groups."""
    by_key: dict[Key, list[Departure]] = {}
    for d in departures:
        by_key.setdefault(d.key, []).append(d)
    taken: set[str] = set()
    departing = frozenset(m for d in departures for m in d.members)
    for key, here in sorted(by_key.items()):
        ranked = sorted(here, key=lambda d: (-len(d.members), d.lead))
        for ship in board.here(key):
            plan = board.plans.get(ship.id)
            if plan is None:
                continue
            if plan.pursuing is not None:
                _keep_chasing(board, ship, here, taken)
                continue
            for d in ranked:
                if same_tactical_location(ship, d) and _follows(board, ship, d, departing):
                    _take(board, ship, d, taken)
                    break
    kept = []
    for d in departures:
        d.members = [m for m in d.members if m not in taken]
        if d.members:
            kept.append(d)
    return kept


def _keep_chasing(board: Board, ship: Ship, here: list[Departure], taken: set[str]) -> None:
    target = board.plans[ship.id].pursuing
    for d in here:
        if target not in d.members:
            continue
        if d.atlantic:
            _abandon(board, ship, "atlantic")
        elif d.to_port is not None and not board.order(ship.id).contact.pursue_into_ports:
            _abandon(board, ship, "port")
        else:
            d.pursuers.append(ship.id)
            taken.add(ship.id)
        return


def _take(board: Board, ship: Ship, d: Departure, taken: set[str]) -> None:
    plan = board.plans[ship.id]
    plan.pursuing = d.lead
    plan.stopped = False  # a stop rolled for the own move she gives up binds nobody: 6.10 rules her now
    plan.path = []
    plan.port = None
    plan.any_enemy_port = False
    d.pursuers.append(ship.id)
    taken.add(ship.id)


def strait_pursuers(board: Board, d: Departure) -> list[str]:
    """Rule 6.3: ships passing a strait are seen in the port's coastal waters
    and may be pursued from there."""
    assert d.strait is not None
    found: list[str] = []
    for ship in board.here(board.port_key(d.strait), exclude=d.members):
        if isinstance(ship.location, InPort) and ship.location.harbor:
            continue
        plan = board.plans.get(ship.id)
        if plan is None or plan.pursuing is not None:
            continue
        if _follows(board, ship, d):
            _take(board, ship, d, set())
            found.append(ship.id)
    return found
