"""What GITM's own land rules did to units, cities and stocks PATE relies on (edition 4 of
gitm.v1, docs/gitm.md "Land events"; docs/rules/turn.md "Land events at the close"), applied
at the start of the turn that reads them, before any transfer begins.

The resolver reads GITM's feed at each close, after the last sequence it applied, and gives the
events here as data, stored with the turn's land word so a replay sees the same:

- a unit destroyed or captured leaves PATE's world wherever PATE has it: aboard the transport
  that was loading it (the load fails for that unit, its space is free again), or ashore where
  the landing that reserved it put it (the landing fails for that unit); the player whose
  transport it was reads why (``land_event``);
- a city taken: its stock is the captor's depot from now on, so PATE's figure of loadable
  supplies there drops to 0 (the port's holder changes through ``PortHolders``, edition 3);
- a stock lost: the city's loadable supplies drop by that many, never below 0.

An event at or below the last sequence applied is ignored: the feed is idempotent by sequence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.rules.transport import SpaceRules, unit_space
from pate.core.world.ships import Cargo, InPort
from pate.core.world.state import WorldState

HIT = "land_event"
UNIT_DESTROYED, UNIT_CAPTURED = "unit_destroyed", "unit_captured"
CITY_TAKEN, STOCK_LOST = "city_taken", "stock_lost"
KINDS = (UNIT_DESTROYED, UNIT_CAPTURED, CITY_TAKEN, STOCK_LOST)


@dataclass(frozen=True, slots=True)
class LandEvent:
    """One event of GITM's feed, as PATE keeps it (``gitm.v1.LandEvent``)."""

    sequence: int
    kind: str  # one of KINDS
    unit: str = ""
    transfer: str = ""  # the open transfer that reserved the unit, when one did
    city: str = ""
    captor: str = ""
    supplies: int = 0
    reason: str = ""  # GITM's line for the player


def transfer_transport(transfer: str) -> str:
    """The transport of one of PATE's transfer ids (``<campaign>:<turn>:<transport>:<n>``); ""
    for an id of another form.  PATE reads only the ids it made itself."""
    parts = transfer.split(":")
    return parts[2] if len(parts) == 4 else ""


def apply_land_events(
    world: WorldState, events: Iterable[LandEvent], after: int = 0, space: SpaceRules | None = None
) -> tuple[WorldState, list[Event]]:
    """The events above ``after``, in sequence order, each applied once."""
    out: list[Event] = []
    seen = after
    for e in sorted(events, key=lambda e: e.sequence):
        if e.sequence <= seen or e.kind not in KINDS:
            continue
        seen = e.sequence
        if e.kind in (UNIT_DESTROYED, UNIT_CAPTURED):
            world, event = _unit_hit(world, e, space)
        else:
            world, event = _city_hit(world, e)
        if event is not None:
            out.append(event)
    return world, out


def _data(e: LandEvent, **more: Any) -> dict[str, Any]:
    return {
        "event": e.kind,
        "sequence": e.sequence,
        "unit": e.unit,
        "transfer": e.transfer,
        "captor": e.captor,
        "reason": e.reason,
        **more,
    }


def _unit_hit(world: WorldState, e: LandEvent, space: SpaceRules | None) -> tuple[WorldState, Event | None]:
    aboard = next(
        (s for s in sorted(world.ships.values(), key=lambda s: s.id) if e.unit in s.cargo.units), None
    )
    if aboard is not None:
        unit = world.land_units.get(e.unit)
        size = unit_space(unit, space) if unit is not None and space is not None else 0
        kept = tuple(u for u in aboard.cargo.units if u != e.unit)
        left = max(0, aboard.cargo.space - size) if kept or aboard.cargo.supplies else 0
        ship = replace(aboard, cargo=Cargo(kept, aboard.cargo.supplies, left))
        world = _without_unit(world.with_ships({ship.id: ship}), e.unit)
        port = aboard.location.port if isinstance(aboard.location, InPort) else e.city
        data = _data(e, port=port, aboard=True)
        return world, Event(Phase.INITIAL_AMPHIBIOUS, HIT, (ship.id,), port or "at sea", (), data)
    ashore = next((p for p in sorted(world.ports) if e.unit in world.ports[p].garrison), None)
    ashore = ashore or next(
        (p for p in sorted(world.ports) if e.unit in world.ports[p].strategic_units), None
    )
    if ashore is None:
        return _without_unit(world, e.unit), None  # nothing of PATE's: GITM's land alone
    place = world.ports[ashore]
    garrison = tuple(u for u in place.garrison if u != e.unit)
    near = tuple(u for u in place.strategic_units if u != e.unit)
    world = replace(
        world, ports={**world.ports, ashore: replace(place, garrison=garrison, strategic_units=near)}
    )
    world = _without_unit(world, e.unit)
    transport = transfer_transport(e.transfer)
    ships = (transport,) if transport else ()
    data = _data(e, port=ashore, aboard=False)
    return world, Event(Phase.INITIAL_AMPHIBIOUS, HIT, ships, ashore, _in_port(world, ashore, ships), data)


def _without_unit(world: WorldState, unit: str) -> WorldState:
    if unit not in world.land_units:
        return world
    return replace(world, land_units={k: v for k, v in world.land_units.items() if k != unit})


def _in_port(world: WorldState, port: str, but: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(
        sorted(
            s.id
            for s in world.ships.values()
            if isinstance(s.location, InPort) and s.location.port == port and s.id not in but
        )
    )


def _city_hit(world: WorldState, e: LandEvent) -> tuple[WorldState, Event | None]:
    port = world.ports.get(e.city)
    if port is None:
        return world, None
    lost = port.supplies if e.kind == CITY_TAKEN else min(port.supplies, max(0, e.supplies))
    world = replace(world, ports={**world.ports, e.city: replace(port, supplies=port.supplies - lost)})
    ships = _in_port(world, e.city)
    data = _data(e, port=e.city, aboard=False, supplies=lost, holder=port.controller)
    return world, Event(Phase.INITIAL_AMPHIBIOUS, HIT, ships, e.city, (), data)
