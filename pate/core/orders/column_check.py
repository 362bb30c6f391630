"""The order desk's checks of a fleet's column orders (EiA new naval rules,
"Naval Combat"; docs/rules/eia-operations.md, "Column orders").

:func:`column_limits` bounds every field before any other work (the order
may come as JSON or protobuf); :func:`column_problems` checks the columns
against the fleet: every ship in one column, carrying ships together and
last, the admirals the fleet's own.
"""

from __future__ import annotations

from collections.abc import Callable

from pate.core.orders.lexer import is_ship_id
from pate.core.orders.operation import (
    ADMIRAL_MAX,
    ATTACK_TARGETS,
    COLUMN_SHIPS_MAX,
    COLUMNS_MAX,
    PLAN_MAX,
    PROTECT_TARGETS,
    Column,
    ColumnAction,
    ColumnStep,
    is_place,
)
from pate.core.orders.refusal import INVALID, PRECONDITION, Refusal, RefusalCode
from pate.core.world.ships import ShipType
from pate.core.world.state import AdmiralFate, WorldState

RULE = "EiA new naval rules, Naval Combat"


def _no(field: str, message: str, code: RefusalCode = INVALID) -> list[Refusal]:
    return [Refusal(field, RULE, message, code)]


def column_limits(columns: tuple[Column, ...]) -> list[Refusal]:
    """The bounds of the order form, checked before anything is looked up."""
    if len(columns) > COLUMNS_MAX:
        return _no("operation.columns", f"a fleet forms at most {COLUMNS_MAX} columns")
    for i, col in enumerate(columns):
        at = f"operation.columns[{i}]"
        if len(col.ships) > COLUMN_SHIPS_MAX:
            return _no(f"{at}.ships", f"at most {COLUMN_SHIPS_MAX} ships in a column")
        for j, sid in enumerate(col.ships):
            if not isinstance(sid, str) or not is_ship_id(sid):
                return _no(f"{at}.ships[{j}]", "give a ship id like BR2SL")
        if col.admiral is not None and not 1 <= len(col.admiral) <= ADMIRAL_MAX:
            return _no(f"{at}.admiral", f"an admiral's id of 1 to {ADMIRAL_MAX} characters")
        if len(col.plan) > PLAN_MAX:
            return _no(f"{at}.plan", f"at most {PLAN_MAX} steps in a column's plan")
        for k, step in enumerate(col.plan):
            why = _step_problem(step)
            if why:
                return _no(f"{at}.plan[{k}].target", why)
    return []


def _step_problem(step: ColumnStep) -> str:
    if step.action is ColumnAction.EVADE:
        return "" if step.target == "" else "evade takes no target"
    named = ATTACK_TARGETS if step.action is ColumnAction.ATTACK else PROTECT_TARGETS
    if step.target in named or is_place(step.target):
        return ""
    return f"{step.action.value}: a column's place, 1 to {COLUMNS_MAX}, or {', '.join(sorted(named))}"


def column_problems(
    world: WorldState, fleet_ships: tuple[str, ...], columns: tuple[Column, ...], max_columns: int
) -> list[Refusal]:
    """The column orders against the fleet they are given to; the first
    problem found, with the field it is in."""
    if not columns:
        return []
    if len(columns) > max_columns:
        return _no("operation.columns", f"a side forms at most {max_columns} columns")
    checks: tuple[Callable[[], list[Refusal]], ...] = (
        lambda: _placed(fleet_ships, columns),
        lambda: _carrying(world, columns),
        lambda: _admirals(world, fleet_ships, columns),
        lambda: _plans(columns),
    )
    for check in checks:
        found = check()
        if found:
            return found
    return []


def _placed(fleet_ships: tuple[str, ...], columns: tuple[Column, ...]) -> list[Refusal]:
    """ "each side divides their ships into columns of at least one ship"."""
    seen: dict[str, int] = {}
    for i, col in enumerate(columns):
        if not col.ships:
            return _no(f"operation.columns[{i}].ships", "a column holds at least one ship")
        for j, sid in enumerate(col.ships):
            at = f"operation.columns[{i}].ships[{j}]"
            if sid not in fleet_ships:
                return _no(at, f"{sid} is not a ship of this fleet (its lead and the ships attached to it)")
            if sid in seen:
                return _no(at, f"{sid} is already in column {seen[sid] + 1}")
            seen[sid] = i
    left = [s for s in fleet_ships if s not in seen]
    if left:
        return _no(
            "operation.columns", f"every ship of the fleet is placed in a column: {', '.join(left)} is not"
        )
    return []


def _carrying(world: WorldState, columns: tuple[Column, ...]) -> list[Refusal]:
    """ "All trade ships and troop carrying ships present must be in the same
    column" and "carrying ships ... must be placed last".  The desk counts every
    transport group as carrying: it may have troops aboard when the battle comes."""
    holding = [i for i, col in enumerate(columns) if any(_carries(world, s) for s in col.ships)]
    if len(holding) > 1:
        return _no(
            f"operation.columns[{holding[1]}]",
            f"all troop carrying ships go in one column; column {holding[0] + 1} has some already",
        )
    for i in holding:
        ships = columns[i].ships
        first = next(j for j, s in enumerate(ships) if _carries(world, s))
        for j in range(first + 1, len(ships)):
            if not _carries(world, ships[j]):
                return _no(
                    f"operation.columns[{i}].ships[{j}]",
                    f"carrying ships are placed last: {ships[j]} comes after {ships[first]}",
                )
    return []


def _carries(world: WorldState, sid: str) -> bool:
    ship = world.ships.get(sid)
    return ship is not None and ship.type is ShipType.TR


def _admirals(world: WorldState, fleet_ships: tuple[str, ...], columns: tuple[Column, ...]) -> list[Refusal]:
    """ "Admiral present are then placed into columns": an admiral commanding a
    ship of the fleet, one column each."""
    commanders = {world.ships[s].commander for s in fleet_ships if s in world.ships}
    led: dict[str, int] = {}
    for i, col in enumerate(columns):
        name = col.admiral
        if name is None:
            continue
        at = f"operation.columns[{i}].admiral"
        admiral = world.admirals.get(name)
        if admiral is None or name not in commanders:
            return _no(at, f"{name!r} is not an admiral commanding a ship of this fleet", PRECONDITION)
        if admiral.fate is not AdmiralFate.ACTIVE:
            return _no(at, f"{name} is {admiral.fate.value} and leads no column", PRECONDITION)
        if name in led:
            return _no(at, f"{name} already leads column {led[name] + 1}")
        led[name] = i
    return []


def _plans(columns: tuple[Column, ...]) -> list[Refusal]:
    for i, col in enumerate(columns):
        for k, step in enumerate(col.plan):
            if step.action is not ColumnAction.PROTECT or not is_place(step.target):
                continue
            place = int(step.target)
            if place > len(columns) or place == i + 1:
                return _no(
                    f"operation.columns[{i}].plan[{k}].target",
                    f"protect another of the fleet's {len(columns)} columns, not {place}",
                )
    return []
