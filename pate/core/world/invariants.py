"""What must hold of every world: the scenario reader's cross-checks between
ships and ports, in one implementation for a scenario file and for the world
after every turn (rules 1.5, 2.6, 4.2, 4.4, section 9).

- an attachment names another ship that exists, is active, is placed with
  the attached ship, and is not itself attached (4.4: no chains);
- a land unit is in one garrison or aboard one transport group, never two.

Where "placed with" differs: a scenario attaches ships in the same location
(4.4); after a turn an attachment lasts while the ships are in contact (4.2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pate.core.world.fields import Problems
from pate.core.world.ships import Ship
from pate.core.world.state import PortState, WorldState

Placed = Callable[[Ship, Ship], bool]


class WorldInvariantError(ValueError):
    """A turn left the world in a state no scenario may describe: a defect."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def same_location(a: Ship, b: Ship) -> bool:
    return a.location == b.location


def check_attachment(
    path: str,
    ship: Ship,
    ships: Mapping[str, tuple[str, Ship]],
    problems: Problems,
    placed: Placed = same_location,
) -> None:
    """Rule 4.4: attached only to a ship placed with it that is not itself attached."""
    target_id = ship.attached_to
    if target_id is None:
        return
    where = f"{path}.attached_to"
    if target_id == ship.id:
        problems.add(where, "a ship cannot be attached to itself")
        return
    if target_id not in ships:
        problems.add(where, f"unknown ship {target_id!r}")
        return
    target = ships[target_id][1]
    if not placed(ship, target):
        problems.add(where, f"{target_id} is not in the same location (rule 4.4)")
    if target.attached_to is not None:
        problems.add(where, f"{target_id} is itself attached to {target.attached_to} (rule 4.4)")
    if not ship.active or not target.active:
        problems.add(where, "inactive ships cannot be attached (rule 2.6)")


def check_units_in_one_place(
    ships: Mapping[str, tuple[str, Ship]], ports: Mapping[str, PortState], problems: Problems
) -> None:
    """A land unit is in one garrison or aboard one transport group, never two (1.5, section 9)."""
    where: dict[str, str] = {}
    for name in sorted(ports):
        for unit in ports[name].garrison:
            where.setdefault(unit, f"the garrison of {name}")
    for sid in sorted(ships):
        path, ship = ships[sid]
        for unit in ship.cargo.units:
            if unit in where:
                problems.add(f"{path}.units", f"{unit} is already in {where[unit]}")
            else:
                where[unit] = f"{sid}"


def world_problems(world: WorldState, placed: Placed) -> list[str]:
    """The invariants above, checked on a world (paths ``ships.<id>``)."""
    problems = Problems()
    ships = {sid: (f"ships.{sid}", s) for sid, s in world.ships.items()}
    for sid in sorted(ships):
        check_attachment(ships[sid][0], ships[sid][1], ships, problems, placed)
    check_units_in_one_place(ships, world.ports, problems)
    for state in sorted(world.treasury):  # EiA new naval rules: money is never negative
        if world.treasury[state] < 0:
            problems.add(f"treasury.{state}", f"{world.treasury[state]}$: an account is never negative")
    return list(problems.items)


def check_world(world: WorldState, placed: Placed) -> WorldState:
    """The world unchanged, or :class:`WorldInvariantError` naming every problem."""
    problems = world_problems(world, placed)
    if problems:
        raise WorldInvariantError([f"turn {world.turn}: {p}" for p in problems])
    return world
