"""The event statements of a case file (``[[expect]]`` with ``event``,
docs/formats/cases.md): the kinds, the data stated (whole, in part, or at a
place in a list) and the keys each kind can carry."""

from __future__ import annotations

from typing import Any

from pate.core.world.fields import Table
from pate.core.world.geography import WorldMap
from pate.engine.case_checks import EventCheck, path_steps
from pate.engine.event_keys import EVENT_KEYS

_EVENT_KEYS = ("event", "ships", "witnesses", "data", "data_includes", "data_at", "phase", "absent", "at")


def known_kinds() -> frozenset[str]:
    """Every event kind the engine emits: those the event report has words
    for (a test keeps that table complete)."""
    from pate.reports.events import PHRASES

    return frozenset(PHRASES)


def unknown_kind(kind: str) -> str:
    from difflib import get_close_matches

    near = get_close_matches(kind, sorted(known_kinds()), n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    return f"no event kind {kind!r}{hint}; the kinds are listed in docs/formats/cases.md"


def read_event(t: Table, world_map: WorldMap, common: tuple[str, ...]) -> EventCheck | None:
    """``event = "kind"``, or a list of kinds: an event of any of them."""
    t.check_keys((*_EVENT_KEYS, *common))
    if isinstance(t.data["event"], list):
        named = t.str_list("event")
    else:
        one = t.str_("event")
        named = [(t.where("event"), one)] if one else []
    for path, kind in named:
        if kind not in known_kinds():
            t.problems.add(path, unknown_kind(kind))
    kinds = tuple(k for _, k in named)
    at = t.opt_str("at")
    if at is not None and at not in world_map.sea_areas and at not in world_map.ports:
        t.problems.add(t.where("at"), f"no sea area coded or port named {at!r}")
    data_table = t.table("data")
    data: dict[str, Any] = dict(data_table.data) if data_table else {}
    part_table = t.table("data_includes")
    part: dict[str, Any] = dict(part_table.data) if part_table else {}
    positions = _positions(t)
    checked = _data_keys(t, kinds, [*data, *part, *(path_steps(p)[0] for p in positions)])
    check = EventCheck(
        kinds=kinds,
        ships=tuple(s for _, s in t.str_list("ships")),
        witnesses=tuple(s for _, s in t.str_list("witnesses")),
        data=data,
        includes=part,
        phase=t.opt_str("phase"),
        absent=bool(t.bool_("absent", False)),
        at=at,
        positions=positions,
        checked_keys=checked,
    )
    return check if kinds else None


def _positions(t: Table) -> dict[str, Any]:
    """``data_at = { "attacks[0].target" = 1 }``: the value at each path."""
    table = t.table("data_at")
    if table is None:
        return {}
    out = {}
    for path, value in table.data.items():
        if not path_steps(path):
            table.problems.add(
                table.where(path), "write a path as key, then .key or [index]: attacks[0].target"
            )
        else:
            out[path] = value
    return out


def _data_keys(t: Table, kinds: tuple[str, ...], keys: list[Any]) -> bool:
    """Each data key named is one an event of the kinds can carry (a problem
    of the file otherwise: ``absent`` must not pass by a misnamed key).
    False when a kind's keys are not listed (checked in each run instead)."""
    known = [EVENT_KEYS.get(k) for k in kinds]
    if not kinds or any(k is None for k in known):
        return False
    carried = sorted(set().union(*(k for k in known if k is not None)))
    for key in dict.fromkeys(keys):
        if isinstance(key, str) and key not in carried:
            what = " or ".join(kinds)
            t.problems.add(t.path, f"no {what} event carries {key} (its keys: {', '.join(carried)})")
    return True
