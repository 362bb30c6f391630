"""What PATE learns from GITM about its earlier transfers, applied before a
turn is resolved (rules 1.5, 3.6, 3.9; docs/gitm.md "Failures").

PATE's world moves units and supplies in the final amphibious phase on the
assumption that GITM accepts the transfer; the bridge tells GITM after the
turn commits.  At the next turn the resolver asks GITM where each earlier
transfer stands (GetTransfer) and gives the answer here, as an input of the
turn stored with the orders (a replay sees the same):

- a transfer GITM refused is undone: the units and supplies of a refused
  load leave the transport and are back in the port (where GITM has them),
  those of a refused unload are back aboard; the player is told
  (``transfer_undone``);
- while any earlier transfer is not yet settled in GITM (GITM unreachable,
  slow, or the bridge not yet through), GITM has not answered: every
  on-GITM-map transfer ordered this turn is refused with the reason
  :data:`DEFERRED` (the order is not carried over; the player gives it again),
  so a new transfer never overtakes an earlier one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.rules.captures import LandCapture
from pate.core.rules.landevents import LandEvent
from pate.core.rules.transport import SpaceRules, unit_space
from pate.core.world.ships import Cargo, describe
from pate.core.world.state import PortState, WorldState

UNDONE = "transfer_undone"
DEFERRED = "the land side (GITM) has not answered in time; the transfer is not made this turn: order it again"


@dataclass(frozen=True, slots=True)
class LandTransfer:
    """A transfer PATE began at an on-GITM-map port (the ``transfer_begun``
    event's data), waiting for GITM's word."""

    transfer: str
    transport: str
    direction: str  # "load" | "unload"
    port: str
    units: tuple[str, ...] = ()
    supplies: int = 0
    space: int = 0
    cancelled: bool = False  # PATE's final phase abandoned it: nothing moved on PATE's side

    @classmethod
    def from_event(cls, data: Mapping[str, Any], cancelled: bool = False) -> LandTransfer:
        return cls(
            transfer=str(data["transfer"]),
            transport=str(data["transport"]),
            direction=str(data["direction"]),
            port=str(data["port"]),
            units=tuple(str(u) for u in data.get("units", ())),
            supplies=int(data.get("supplies", 0)),
            space=int(data.get("space", 0)),
            cancelled=cancelled,
        )


@dataclass(frozen=True, slots=True)
class Refused:
    transfer: LandTransfer
    reason: str


@dataclass(frozen=True, slots=True)
class LandWord:
    """GITM's word for one turn: did it answer, and which earlier transfers it
    refused.  ``pending``: the transfers still unsettled, carried to the next
    turn's question."""

    answered: bool = True
    refused: tuple[Refused, ...] = ()
    pending: tuple[LandTransfer, ...] = field(default=())
    # the ports GITM holds for another state than PATE's world does (docs/gitm.md "Port holders")
    captures: tuple[LandCapture, ...] = field(default=())
    # edition 4: GITM's land events read at this close (docs/gitm.md "Land events"), and the
    # sequence the next close reads after (the highest applied so far, carried when unanswered)
    land_events: tuple[LandEvent, ...] = field(default=())
    events_after: int = 0


def undo_refused(
    world: WorldState, refused: Iterable[Refused], space: SpaceRules | None = None
) -> tuple[WorldState, list[Event]]:
    """Put back what PATE moved and GITM refused.  A refused load's units never
    left the city: they leave whichever group carries them now (the transport,
    or the group a divide gave them to since, rule 2.5), with the supplies that
    went along, and are back in the port.  A refused unload's units come back
    aboard only if still in the port.  When the transport is gone since (sunk,
    foundered or taken), a refused load's loss with it is void (``recovered``);
    a refused unload's units were still aboard: they are lost with it (``lost``;
    the bridge tells GITM as of a cargo lost).  ``space`` sizes the units a
    divided group gives back (rules 2.7, 3.4)."""
    events: list[Event] = []
    for r in refused:
        port = world.ports.get(r.transfer.port)
        if port is None:
            continue
        ship = world.ships.get(r.transfer.transport)
        world, event = _undo(world, r, port) if ship is not None else _undo_gone(world, r, port)
        if r.transfer.direction == "load":
            world, event = _from_divided(world, r, event, space)
        events.append(event)
    return world, events


def _from_divided(
    world: WorldState, r: Refused, event: Event, space: SpaceRules | None
) -> tuple[WorldState, Event]:
    """The refused load's units a divide carried on to other groups: off those groups, into the
    port, with the load's supplies that went along (taken up to what the load carried)."""
    t = r.transfer
    gone = t.transport not in world.ships
    ashore_already = set(event.data["units"]) if not gone else set()
    moved_on = [u for u in t.units if u not in ashore_already]
    holders = sorted(
        (s for s in world.ships.values() if s.id != t.transport and set(s.cargo.units) & set(moved_on)),
        key=lambda s: s.id,
    )
    if not holders:
        return world, event
    # a gone transport's loss is void: _undo_gone gave the port all the load already
    supplies_left = t.supplies if gone else max(0, t.supplies - int(event.data["supplies"]))
    per_supply = space.per_supply if space is not None else 0
    changed = {}
    units, taken_total = list(event.data["units"]), 0
    for ship in holders:
        back = tuple(u for u in ship.cargo.units if u in moved_on)
        size = sum(unit_space(world.land_units[u], space) for u in back if space and u in world.land_units)
        taken = min(supplies_left, ship.cargo.supplies)
        supplies_left -= taken
        taken_total += taken
        kept = tuple(u for u in ship.cargo.units if u not in back)
        rest = ship.cargo.supplies - taken
        left = max(0, ship.cargo.space - size - taken * per_supply) if kept or rest else 0
        changed[ship.id] = replace(ship, cargo=Cargo(kept, rest, left))
        units += [u for u in back if u not in units]
    port = world.ports[t.port]
    garrison = port.garrison + tuple(u for u in units if u not in port.garrison)
    port = replace(port, garrison=garrison, supplies=port.supplies + (0 if gone else taken_total))
    world = replace(world.with_ships(changed), ports={**world.ports, port.name: port})
    supplies = int(event.data["supplies"]) + (0 if gone else taken_total)
    data = {**event.data, "units": units, "supplies": supplies}
    return world, replace(event, data=data, witnesses=tuple(sorted({*event.witnesses, *changed})))


def _undo(world: WorldState, r: Refused, port: PortState) -> tuple[WorldState, Event]:
    t = r.transfer
    ship = world.ships[t.transport]
    cargo = ship.cargo
    if t.direction == "load":
        units = tuple(u for u in t.units if u in cargo.units)
        supplies = min(t.supplies, cargo.supplies)
        kept = tuple(u for u in cargo.units if u not in units)
        space = max(0, cargo.space - t.space) if kept or cargo.supplies - supplies else 0
        cargo = Cargo(kept, cargo.supplies - supplies, space)
        garrison = port.garrison + tuple(u for u in units if u not in port.garrison)
        port = replace(port, garrison=garrison, supplies=port.supplies + supplies)
    else:
        units = tuple(u for u in t.units if u in port.garrison)
        supplies = min(t.supplies, port.supplies)
        cargo = Cargo(cargo.units + units, cargo.supplies + supplies, cargo.space + t.space)
        garrison = tuple(u for u in port.garrison if u not in units)
        port = replace(port, garrison=garrison, supplies=port.supplies - supplies)
    world = replace(
        world.with_ships({ship.id: replace(ship, cargo=cargo)}), ports={**world.ports, port.name: port}
    )
    data = {**_data(r, units, supplies), "recovered": False, "lost": False}
    return world, Event(Phase.INITIAL_AMPHIBIOUS, UNDONE, (ship.id,), describe(ship.location), (), data)


def _undo_gone(world: WorldState, r: Refused, port: PortState) -> tuple[WorldState, Event]:
    t = r.transfer
    if t.direction == "load":
        units = t.units
        garrison = port.garrison + tuple(u for u in units if u not in port.garrison)
        port = replace(port, garrison=garrison, supplies=port.supplies + t.supplies)
        event = Event(
            Phase.INITIAL_AMPHIBIOUS,
            UNDONE,
            (t.transport,),
            port.name,
            (),
            {**_data(r, units, t.supplies), "recovered": True, "lost": False},
        )
        return replace(world, ports={**world.ports, port.name: port}), event
    units = tuple(u for u in t.units if u in port.garrison)
    supplies = min(t.supplies, port.supplies)
    garrison = tuple(u for u in port.garrison if u not in units)
    port = replace(port, garrison=garrison, supplies=port.supplies - supplies)
    data = {**_data(r, units, supplies), "recovered": False, "lost": True}
    event = Event(Phase.INITIAL_AMPHIBIOUS, UNDONE, (t.transport,), port.name, (), data)
    return replace(world, ports={**world.ports, port.name: port}), event


def _data(r: Refused, units: tuple[str, ...], supplies: int) -> dict[str, Any]:
    t = r.transfer
    return {
        "transport": t.transport,
        "transfer": t.transfer,
        "direction": t.direction,
        "port": t.port,
        "units": list(units),
        "supplies": supplies,
        "reason": r.reason,
    }


def pending_after(
    earlier: Sequence[LandTransfer], statuses: Mapping[str, str | None]
) -> tuple[tuple[LandTransfer, ...], tuple[Refused, ...]]:
    """Sort earlier transfers by GITM's word: ``statuses`` maps a transfer id
    to "completed", "cancelled", "refused: <reason>", "begun" or None (GITM
    has never heard of it).  Returns (still pending, refused)."""
    pending: list[LandTransfer] = []
    refused: list[Refused] = []
    for t in earlier:
        word = statuses.get(t.transfer)
        if word is None or word == "begun":
            pending.append(t)
        elif word.startswith("refused") and not t.cancelled:  # nothing of a cancelled one moved
            refused.append(Refused(t, word.partition(": ")[2] or "refused by GITM"))
    return tuple(pending), tuple(refused)
