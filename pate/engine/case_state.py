"""Statements of a case file about the world after a turn (``[[expect]]``,
docs/formats/cases.md): a ship (where it is, its attributes, or that it is
gone; ships made in play found by what they came from), a port, and the
text of a player's report."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pate.core.world.ships import AtSea, InAtlantic, InPort, Location, Ship
from pate.core.world.state import PortState, WorldState
from pate.engine.case_checks import Run, same, show, where

# -- a ship: where it is and its attributes -------------------------------------
INT_ATTRIBUTES = (
    "hull",
    "rigging",
    "stores",
    "crew",
    "marines",
    "station",
    "experience",
    "morale",
    "capacity",
)
NAME_ATTRIBUTES = ("attached_to", "commander", "deputy")  # "" means none
SHIP_ATTRIBUTES = (*INT_ATTRIBUTES, "active", "quality", *NAME_ATTRIBUTES, "cargo_units", "cargo_supplies")


def ship_value(ship: Ship, key: str) -> object:
    if key == "cargo_units":
        return sorted(ship.cargo.units)
    if key == "cargo_supplies":
        return ship.cargo.supplies
    if key == "quality":
        return ship.quality.label
    value = getattr(ship, key)
    return "" if key in NAME_ATTRIBUTES and value is None else value


@dataclass(frozen=True, slots=True)
class ShipCheck:
    ship: str
    at: str | None = None  # sea area
    tactical: int | None = None
    port: str | None = None
    harbor: bool | None = None
    atlantic: str | None = None  # crossing to this sea area
    with_ship: str | None = None  # exactly where that ship is
    near: str | None = None  # in the same sea area or port as that ship
    exists: bool | None = None
    attributes: Mapping[str, Any] = field(default_factory=dict)
    negated: bool = False  # ``not = true``: the ship is afloat and the statement is false
    made_from: tuple[str, str] | None = None  # ("prize_of" or "divided_from", the ship it came from)

    def says(self) -> str:
        text = self._says()
        return f"not ({text})" if self.negated else text

    def _says(self) -> str:
        parts = []
        if self.exists is False:
            parts.append("is gone")
        if self.at is not None:
            parts.append(f"at {self.at}" + (f" tactical area {self.tactical}" if self.tactical else ""))
        if self.port is not None:
            part = {None: "", True: " harbor", False: " coastal waters"}[self.harbor]
            parts.append(f"in {self.port}{part}")
        if self.atlantic is not None:
            parts.append(f"crossing the Atlantic to {self.atlantic}")
        if self.with_ship is not None:
            parts.append(f"with {self.with_ship}")
        if self.near is not None:
            parts.append(f"near {self.near} (same sea area or port)")
        parts += [f"{k} = {show(v)}" for k, v in self.attributes.items()]
        return f"{self.ship} " + ", ".join(parts or ["exists"])

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        world = run.worlds[turn]
        sid, name = self.ship, self.ship
        if self.made_from is not None:
            how, original = self.made_from
            made = made_ship(run, turn, how, original)
            if made is None:
                return (
                    False,
                    f"{original} was not {'taken' if how == 'prize_of' else 'divided'} by turn {turn}",
                )
            sid, name = made, f"{made} ({self.ship})"
        ship = world.ships.get(sid)
        if ship is None:
            return self.exists is False and not self.negated, f"{name} is gone"
        if self.exists is False:
            return self.negated, f"{name} is still afloat, at {where(ship.location)}"
        wrong = self._location_wrong(world, ship) + [
            f"{k} = {show(ship_value(ship, k))}"
            for k, v in self.attributes.items()
            if not same(ship_value(ship, k), v)
        ]
        if self.negated:
            found = [where(ship.location)] + [f"{k} = {show(ship_value(ship, k))}" for k in self.attributes]
            return bool(wrong), f"{name} " + "; ".join(found)
        return not wrong, f"{name} " + "; ".join(wrong or [where(ship.location)])

    def _location_wrong(self, world: WorldState, ship: Ship) -> list[str]:
        loc = ship.location
        ok = True
        if self.at is not None:
            ok = isinstance(loc, AtSea) and loc.area == self.at
            ok = ok and (self.tactical is None or (isinstance(loc, AtSea) and loc.tactical == self.tactical))
        if self.port is not None:
            ok = ok and isinstance(loc, InPort) and loc.port == self.port
            ok = ok and (self.harbor is None or (isinstance(loc, InPort) and loc.harbor == self.harbor))
        if self.atlantic is not None:
            ok = ok and isinstance(loc, InAtlantic) and loc.destination == self.atlantic
        if not ok:
            return [f"at {where(loc)}"]
        for other_id, together in ((self.with_ship, _same_place), (self.near, _same_area)):
            if other_id is None:
                continue
            other = world.ships.get(other_id)
            if other is None:
                return [f"at {where(loc)}, and {other_id} is gone"]
            if not together(other.location, loc):
                return [f"at {where(loc)}, {other_id} at {where(other.location)}"]
        return []


# How a ship made in play is found: the events that make it, and the key of
# their data naming it (rule 7.8 prizes, 5.3 inactive ships taken in port,
# rule 2.5 divided groups).
MADE_BY = {
    "prize_of": (frozenset({"captured", "inactive_captured"}), "prize"),
    "divided_from": (frozenset({"group_divided"}), "new"),
}


def made_ship(run: Run, turn: int, how: str, original: str) -> str | None:
    """The id of the ship ``original`` became (a prize) or split off (a
    divided group) during turns 1 to ``turn`` of the run, if it did."""
    kinds, key = MADE_BY[how]
    for events in run.events[1 : turn + 1]:
        for e in events:
            made = e.data.get(key)
            if e.kind in kinds and original in e.ships and isinstance(made, str) and made != original:
                if how == "divided_from" and e.ships[0] != original:
                    continue  # the group divided, not the new one
                return made
    return None


def _same_place(a: Location, b: Location) -> bool:
    return a == b


def _same_area(a: Location, b: Location) -> bool:
    """Same sea area (any tactical area), same port (harbor or coastal
    waters), or the same Atlantic crossing."""
    if isinstance(a, AtSea) and isinstance(b, AtSea):
        return a.area == b.area
    if isinstance(a, InPort) and isinstance(b, InPort):
        return a.port == b.port
    return a == b


# -- a port: its controller, stores, yard and garrison -------------------------------
PORT_ATTRIBUTES = (
    "controller",
    "stores",
    "supplies",
    "building",
    "building_transports",
    "battery_damaged",
    "garrison",
    "strategic_units",
)


def port_value(port: PortState, key: str) -> object:
    value = getattr(port, key)
    return sorted(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class PortCheck:
    port: str
    attributes: Mapping[str, Any]
    negated: bool = False

    def says(self) -> str:
        text = f"port {self.port} " + ", ".join(f"{k} = {show(v)}" for k, v in self.attributes.items())
        return f"not ({text})" if self.negated else text

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        port = run.worlds[turn].ports.get(self.port)
        if port is None:
            return False, f"{self.port} is not in the world"
        wrong = [
            f"{k} = {show(port_value(port, k))}"
            for k, v in self.attributes.items()
            if not same(port_value(port, k), v)
        ]
        found = ", ".join(f"{k} = {show(port_value(port, k))}" for k in self.attributes)
        return bool(wrong) == self.negated, f"{self.port} " + ("; ".join(wrong) if wrong else found)


# -- the text of a player's report ----------------------------------------------
@dataclass(frozen=True, slots=True)
class ReportCheck:
    player: str
    contains: tuple[str, ...] = ()  # every one of these in the report
    lacks: tuple[str, ...] = ()  # none of these
    format: str = "text"

    def says(self) -> str:
        parts = [f"contains {show(list(self.contains))}"] if self.contains else []
        parts += [f"lacks {show(list(self.lacks))}"] if self.lacks else []
        return f"{self.player}'s {self.format} report " + " and ".join(parts)

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        body = run.reports[turn].get(self.player, {}).get(self.format) if turn < len(run.reports) else None
        if body is None:
            return False, f"no {self.format} report for {self.player}"
        missing = [c for c in self.contains if c not in body]
        present = [c for c in self.lacks if c in body]
        if not missing and not present:
            return True, "as said"
        parts = [f"missing {show(missing)}"] if missing else []
        parts += [f"has {show(present)}"] if present else []
        return False, "; ".join(parts) + f" (report of {len(body.splitlines())} lines)"
