"""What must hold after every turn of a headless campaign (``pate campaign simulate --out DIR``).

Checked on the saved turns, turn by turn:

- the world validates as the scenario reader would have it
  (:mod:`pate.core.world.invariants`: attachments, land units in one place);
- ship ids are unique (no key twice in ``state.json``);
- every land unit is in exactly one place (a garrison or a transport
  group), and every unit that leaves the world does so with an event that
  names it (section 9: lost or captured with its transport);
- ships are conserved: a ship gone from the world is named by an event of
  the turn, and a ship new to it is too (a prize, a divided group, a ship built);
- stores, supplies, crew and hull never go below zero.

    python -m pate.tools.playcheck OUT
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pate.core.codec import from_plain
from pate.core.orders.effective import together
from pate.core.world.invariants import world_problems
from pate.core.world.state import WorldState

NON_NEGATIVE_SHIP = ("stores", "crew", "marines", "hull", "rigging", "capacity")
NON_NEGATIVE_PORT = ("stores", "supplies", "building", "building_transports")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"keys written twice: {', '.join(twice)}")
    return dict(pairs)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)


def named(events: Sequence[Mapping[str, Any]]) -> set[str]:
    """Every id an event of the turn names, among its ships or in its data."""
    out: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    for event in events:
        walk(event["ships"])
        walk(event["data"])
    return out


def units_of(state: Mapping[str, Any]) -> dict[str, list[str]]:
    where: dict[str, list[str]] = {}
    for name, port in state["ports"].items():
        for unit in port["garrison"]:
            where.setdefault(unit, []).append(f"the garrison of {name}")
    for sid, ship in state["ships"].items():
        for unit in ship["cargo"]["units"]:
            where.setdefault(unit, []).append(f"aboard {sid}")
    return where


def turn_problems(
    turn: int, before: Mapping[str, Any] | None, after: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
) -> Iterator[str]:
    world: WorldState = from_plain(WorldState, after)
    for p in world_problems(world, together):
        yield f"turn {turn}: {p}"
    for sid, ship in after["ships"].items():
        if ship["id"] != sid:
            yield f"turn {turn}: ships.{sid} has the id {ship['id']}"
        for key in NON_NEGATIVE_SHIP:
            if ship[key] < 0:
                yield f"turn {turn}: ships.{sid}.{key} is {ship[key]}"
        if ship["cargo"]["supplies"] < 0:
            yield f"turn {turn}: ships.{sid}.cargo.supplies is {ship['cargo']['supplies']}"
    for name, port in after["ports"].items():
        for key in NON_NEGATIVE_PORT:
            if port[key] < 0:
                yield f"turn {turn}: ports.{name}.{key} is {port[key]}"
    units = units_of(after)
    for unit, places in sorted(units.items()):
        if len(places) > 1:
            yield f"turn {turn}: {unit} is in {len(places)} places: {', '.join(places)}"
        if unit not in after["land_units"]:
            yield f"turn {turn}: {unit} is in {places[0]} but not among the land units"
    for unit in sorted(set(after["land_units"]) - set(units)):
        yield f"turn {turn}: land unit {unit} is in no garrison and aboard no transport group"
    if before is None:
        return
    said = named(events)
    for sid in sorted(set(before["ships"]) - set(after["ships"])):
        if sid not in said:
            yield f"turn {turn}: {sid} left the world with no event naming it"
    for sid in sorted(set(after["ships"]) - set(before["ships"])):
        if sid not in said:
            yield f"turn {turn}: {sid} came into the world with no event naming it"
    for unit in sorted(set(units_of(before)) - set(units)):
        if unit not in said:
            yield f"turn {turn}: land unit {unit} left the world with no event naming it"


def check_run(out: Path) -> list[str]:
    turns = sorted((int(p.name.split("-")[1]), p) for p in out.glob("turn-*") if p.is_dir())
    problems: list[str] = []
    before: Mapping[str, Any] | None = None
    for turn, folder in turns:
        try:
            after = read_json(folder / "state.json")
            events = read_json(folder / "events.json")
        except ValueError as err:
            problems.append(f"turn {turn}: {err}")
            before = None
            continue
        problems.extend(turn_problems(turn, before, after, events))
        before = after
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write("usage: python -m pate.tools.playcheck OUT\n")
        return 2
    problems = check_run(Path(args[0]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
