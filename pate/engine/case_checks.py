"""The statements of a case file (``[[expect]]``, docs/formats/cases.md):
what a run is, and the statements about its events and the order desk's
refusals (those about ships, ports and reports: :mod:`case_state`).

Each check reads one run of a case (the turns ``simulate`` produced and the
orders the order desk refused) and says whether its statement holds there,
with the value it found, so a failure can name expected and actual.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pate.core.events import Event
from pate.core.rules.validation.orders import Refusal
from pate.core.world.ships import InAtlantic, Location, describe
from pate.core.world.state import WorldState
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


def show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return repr(value) if isinstance(value, str) else str(value)


# -- events ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EventCheck:
    kinds: tuple[str, ...]  # any of these kinds
    ships: tuple[str, ...] = ()  # all among the event's ships
    witnesses: tuple[str, ...] = ()  # all among its witnesses
    data: Mapping[str, Any] = field(default_factory=dict)  # each key with this value
    # each key holding at least this: a table's keys given, a list's elements found (any order)
    includes: Mapping[str, Any] = field(default_factory=dict)
    phase: str | None = None
    absent: bool = False
    at: str | None = None  # sea area code or port name; matches any tactical area or part of port
    # an item at its place: a path ("attacks[0].target") to the value there
    positions: Mapping[str, Any] = field(default_factory=dict)
    checked_keys: bool = False  # the keys named were checked against the kinds' keys when read

    def matches(self, e: Event) -> bool:
        return (
            e.kind in self.kinds
            and (self.phase is None or e.phase.value == self.phase)
            and (self.at is None or place_of(e.location) == self.at)
            and set(self.ships) <= set(e.ships)
            and set(self.witnesses) <= set(e.witnesses)
            and all(k in e.data and same(e.data[k], v) for k, v in self.data.items())
            and all(k in e.data and contains(e.data[k], v) for k, v in self.includes.items())
            and all(at_path(e.data, path, v) for path, v in self.positions.items())
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
            what += " with " + ", ".join(f"{k} = {show(v)}" for k, v in self.data.items())
        if self.includes:
            what += " whose " + ", ".join(f"{k} include {show(v)}" for k, v in self.includes.items())
        if self.positions:
            what += " where " + ", ".join(f"{k} is {show(v)}" for k, v in self.positions.items())
        return ("no " if self.absent else "") + what

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        found = [e for e in run.events[turn] if self.matches(e)]
        if found:
            return not self.absent, "found: " + "; ".join(_event_text(e) for e in found[:3])
        same_kind = [e for e in run.events[turn] if e.kind in self.kinds]
        keys_given = [*self.data, *self.includes, *(str(path_steps(p)[0]) for p in self.positions)]
        unknown = sorted(k for k in keys_given if not any(k in e.data for e in same_kind))
        if same_kind and unknown and not self.checked_keys:  # "absent" must not pass by a misnamed key
            keys = sorted({k for e in same_kind for k in e.data})
            what = f"no {' or '.join(self.kinds)} event carries {', '.join(unknown)}"
            return False, f"{what} (their keys: {', '.join(keys)})"
        if same_kind:
            return self.absent, "only: " + "; ".join(_event_text(e) for e in same_kind[:3])
        return self.absent, f"no {' or '.join(self.kinds)} event; events: {_kinds(run.events[turn])}"


_STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(-?[0-9]+)\]")


def path_steps(path: str) -> list[str | int]:
    """``"attacks[0].shots[-1]"`` as ``["attacks", 0, "shots", -1]``; ``[]``
    when the path is not written so (a key first, then ``.key`` or ``[i]``)."""
    steps: list[str | int] = []
    pos = 0
    while pos < len(path):
        m = _STEP.match(path, pos)
        if m is None or (pos == 0 and m.group(0).startswith((".", "["))):
            return []
        steps.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    return steps


def at_path(data: Mapping[str, Any], path: str, expected: object) -> bool:
    """The value at ``path`` is ``expected``: a table's keys given each
    contained (as ``data_includes``), anything else equal (a list whole, in
    order)."""
    value: Any = data
    for step in path_steps(path):
        if isinstance(step, int):
            if not isinstance(value, list | tuple) or not -len(value) <= step < len(value):
                return False
        elif not isinstance(value, Mapping) or step not in value:
            return False
        value = value[step]
    return contains(value, expected) if isinstance(expected, Mapping) else same(value, expected)


def place_of(location: str) -> str:
    """The sea area or port of an event's location (``"NOC (tactical area
    2)"`` is NOC, ``"Brest (harbor)"`` is Brest)."""
    return location.split(" (", 1)[0]


def contains(actual: object, expected: object) -> bool:
    """``expected`` is part of ``actual``: a table's keys each contained in the
    actual table's, each element of a list contained in some element of the
    actual list (one element each, any order), anything else equal."""
    if isinstance(expected, Mapping):
        return isinstance(actual, Mapping) and all(
            k in actual and contains(actual[k], v) for k, v in expected.items()
        )
    if isinstance(expected, list | tuple):
        if not isinstance(actual, list | tuple):
            return False
        free = list(actual)
        for want in expected:
            hit = next((i for i, a in enumerate(free) if contains(a, want)), None)
            if hit is None:
                return False
            free.pop(hit)
        return True
    return same(actual, expected)


def same(actual: object, expected: object) -> bool:
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
        text += " " + ", ".join(f"{k}={show(v)}" for k, v in sorted(e.data.items()))
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


# -- counting ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CountCheck:
    """Between ``bounds[0]`` and ``bounds[1]`` of the statements hold: "at most
    2 of these 3", "one of these two" (either/or), "exactly one"."""

    checks: tuple[Check, ...]
    bounds: tuple[int, int]

    def says(self) -> str:
        lo, hi = self.bounds
        many = f"{lo}" if lo == hi else f"{lo} to {hi}"
        return f"{many} of: " + "; ".join(c.says() for c in self.checks)

    def holds(self, run: Run, turn: int) -> tuple[bool, str]:
        results = [c.holds(run, turn) for c in self.checks]
        held = sum(ok for ok, _ in results)
        lo, hi = self.bounds
        found = "; ".join(f"[{'holds' if ok else 'not'}: {why}]" for ok, why in results)
        return lo <= held <= hi, f"{held} hold: {found}"
