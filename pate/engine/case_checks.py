"""The statements of a case file (``[[expect]]``, docs/formats/cases.md).

Each check reads one run of a case (the turns ``simulate`` produced and the
orders the order desk refused) and says whether its statement holds there,
with the value it found, so a failure can name expected and actual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pate.core.events import Event
from pate.core.orders.validate import Refusal
from pate.core.world.ships import AtSea, InAtlantic, InPort, Location, Ship, describe
from pate.core.world.state import PortState, WorldState
from pate.engine.simulate import refusal_text, refused_ship


@dataclass(frozen=True, slots=True)
class Run:
    """One play of a case with one seed."""

    seed: int
    worlds: tuple[WorldState, ...]  # index = turn; 0 = the start of the campaign
    events: tuple[tuple[Event, ...], ...]  # index = turn
    refusals: Mapping[int, Sequence[Refusal]]  # turn -> refusals of that turn's orders
    reports: tuple[Mapping[str, Mapping[str, str]], ...] = ()  # index = turn; player -> format -> body


class Check(Protocol):
    def says(self) -> str: ...

    def holds(self, run: Run, turn: int) -> tuple[bool, str]: ...


def where(loc: Location) -> str:
    if isinstance(loc, InAtlantic):
        return f"Atlantic Ocean (to {loc.destination}, arriving turn {loc.arrives_turn})"
    return describe(loc)


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
        parts += [f"{k} = {_show(v)}" for k, v in self.attributes.items()]
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
            f"{k} = {_show(ship_value(ship, k))}"
            for k, v in self.attributes.items()
            if not _same(ship_value(ship, k), v)
        ]
        if self.negated:
            found = [where(ship.location)] + [f"{k} = {_show(ship_value(ship, k))}" for k in self.attributes]
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
        for other_id, same in ((self.with_ship, _same_place), (self.near, _same_area)):
            if other_id is None:
                continue
            other = world.ships.get(other_id)
            if other is None:
                return [f"at {where(loc)}, and {other_id} is gone"]
            if not same(other.location, loc):
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


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value) if isinstance(value, str) else str(value)


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
        text = f"port {self.port} " + ", ".join(f"{k} = {_show(v)}" for k, v in self.attributes.items())
        return f"not ({text})" if self.negated else text

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        port = run.worlds[turn].ports.get(self.port)
        if port is None:
            return False, f"{self.port} is not in the world"
        wrong = [
            f"{k} = {_show(port_value(port, k))}"
            for k, v in self.attributes.items()
            if not _same(port_value(port, k), v)
        ]
        found = ", ".join(f"{k} = {_show(port_value(port, k))}" for k in self.attributes)
        return bool(wrong) == self.negated, f"{self.port} " + ("; ".join(wrong) if wrong else found)


# -- the text of a player's report ----------------------------------------------
@dataclass(frozen=True, slots=True)
class ReportCheck:
    player: str
    contains: tuple[str, ...] = ()  # every one of these in the report
    lacks: tuple[str, ...] = ()  # none of these
    format: str = "text"

    def says(self) -> str:
        parts = [f"contains {_show(list(self.contains))}"] if self.contains else []
        parts += [f"lacks {_show(list(self.lacks))}"] if self.lacks else []
        return f"{self.player}'s {self.format} report " + " and ".join(parts)

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        body = run.reports[turn].get(self.player, {}).get(self.format) if turn < len(run.reports) else None
        if body is None:
            return False, f"no {self.format} report for {self.player}"
        missing = [c for c in self.contains if c not in body]
        present = [c for c in self.lacks if c in body]
        if not missing and not present:
            return True, "as said"
        parts = [f"missing {_show(missing)}"] if missing else []
        parts += [f"has {_show(present)}"] if present else []
        return False, "; ".join(parts) + f" (report of {len(body.splitlines())} lines)"


# -- events ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EventCheck:
    kinds: tuple[str, ...]  # any of these kinds
    ships: tuple[str, ...] = ()  # all among the event's ships
    witnesses: tuple[str, ...] = ()  # all among its witnesses
    data: Mapping[str, Any] = field(default_factory=dict)  # each key with this value
    phase: str | None = None
    absent: bool = False
    at: str | None = None  # sea area code or port name; matches any tactical area or part of port

    def matches(self, e: Event) -> bool:
        return (
            e.kind in self.kinds
            and (self.phase is None or e.phase.value == self.phase)
            and (self.at is None or place_of(e.location) == self.at)
            and set(self.ships) <= set(e.ships)
            and set(self.witnesses) <= set(e.witnesses)
            and all(k in e.data and _same(e.data[k], v) for k, v in self.data.items())
        )

    def says(self) -> str:
        what = f"event {' or '.join(self.kinds)}"
        if self.ships:
            what += f" about {', '.join(self.ships)}"
        if self.witnesses:
            what += f" seen by {', '.join(self.witnesses)}"
        if self.at:
            what += f" at {self.at}"
        if self.data:
            what += " with " + ", ".join(f"{k} = {_show(v)}" for k, v in self.data.items())
        return ("no " if self.absent else "") + what

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        found = [e for e in run.events[turn] if self.matches(e)]
        if found:
            return not self.absent, "found: " + "; ".join(_event_text(e) for e in found[:3])
        same_kind = [e for e in run.events[turn] if e.kind in self.kinds]
        unknown = sorted(k for k in self.data if not any(k in e.data for e in same_kind))
        if same_kind and unknown:  # "absent" must not pass by a misnamed key
            keys = sorted({k for e in same_kind for k in e.data})
            what = f"no {' or '.join(self.kinds)} event carries {', '.join(unknown)}"
            return False, f"{what} (their keys: {', '.join(keys)})"
        if same_kind:
            return self.absent, "only: " + "; ".join(_event_text(e) for e in same_kind[:3])
        return self.absent, f"no {' or '.join(self.kinds)} event; events: {_kinds(run.events[turn])}"


def place_of(location: str) -> str:
    """The sea area or port of an event's location (``"NOC (tactical area
    2)"`` is NOC, ``"Brest (harbor)"`` is Brest)."""
    return location.split(" (", 1)[0]


def _same(actual: object, expected: object) -> bool:
    if isinstance(actual, tuple):
        actual = list(actual)
    if isinstance(expected, tuple):
        expected = list(expected)
    return actual == expected


def _event_text(e: Event) -> str:
    text = f"{e.kind} {list(e.ships)} at {e.location}"
    if e.witnesses:
        text += f" seen by {list(e.witnesses)}"
    if e.data:
        text += " " + ", ".join(f"{k}={_show(v)}" for k, v in sorted(e.data.items()))
    return text


def _kinds(events: Sequence[Event]) -> str:
    return ", ".join(e.kind for e in events) or "none"


@dataclass(frozen=True, slots=True)
class SequenceCheck:
    """Events happen in this order (others may come between).  Each step is
    ``"kind"``, followed by ships the event must be about and ``key=value``
    data it must carry (``"sailed BR1FR step=3"``); with ``ships``, only events
    those ships saw or took part in count."""

    steps: tuple[str, ...]
    ships: tuple[str, ...] = ()
    absent: bool = False

    def says(self) -> str:
        seen = f" seen by {', '.join(self.ships)}" if self.ships else ""
        return ("not " if self.absent else "") + f"events in the order {' -> '.join(self.steps)}{seen}"

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        events = [e for e in run.events[turn] if set(self.ships) <= e.observers]
        wanted = [_step(step) for step in self.steps]
        i = 0
        for e in events:
            if i < len(wanted) and wanted[i].matches(e):
                i += 1
        found = i == len(wanted)
        return found != self.absent, "events: " + ", ".join(_brief(e) for e in events)


def _step(text: str) -> EventCheck:
    kind, *rest = text.split()
    data = {k: int(v) if v.isdigit() else v for k, _, v in (w.partition("=") for w in rest if "=" in w)}
    return EventCheck((kind,), tuple(w for w in rest if "=" not in w), data=data)


def _brief(e: Event) -> str:
    step = f" step={e.data['step']}" if "step" in e.data else ""
    return f"{e.kind} {' '.join(e.ships)}".strip() + step


# -- the order desk ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RefusalCheck:
    ship: str
    rule: str
    field: str | None = None  # e.g. "movement.port"
    message: str | None = None  # words the refusal's text contains

    def says(self) -> str:
        part = f" ({self.field})" if self.field else ""
        words = f", saying {self.message!r}" if self.message else ""
        return f"the order for {self.ship} refused under rule {self.rule}{part}{words}"

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        mine = [r for r in run.refusals.get(turn, ()) if refused_ship(r) == self.ship]
        for r in mine:
            if (
                r.rule == self.rule
                and (self.field is None or r.field == f"{self.ship}.{self.field}")
                and (self.message is None or self.message in r.message)
            ):
                return True, refusal_text(r)
        if mine:
            return False, "; ".join(refusal_text(r) for r in mine)
        return False, f"the order for {self.ship} was accepted"
