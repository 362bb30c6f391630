"""Groups that sail together (rules 4.5, 6.7).

Rule 6.7: actively allied ships in the same location move together, whether
attached or not.  Rule 4.5 narrows it to ships with the same movement orders
that have not asked to sail alone.  A group is formed afresh at every step
from where the ships are and what is left of their orders, so ships that meet
with identical orders sail on together.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pate.core.rules.movement.board import Board
from pate.core.world.ships import Location, Ship


@dataclass(frozen=True, slots=True)
class Group:
    members: tuple[str, ...]  # sorted by id; the first is the lead

    @property
    def lead(self) -> str:
        return self.members[0]


def form_groups(board: Board, candidates: Iterable[str]) -> list[Group]:
    """Partition ships into sailing groups, in the order of their lead's id."""
    buckets: dict[tuple[Location, tuple[Any, ...]], list[Ship]] = {}
    for sid in sorted(candidates):
        ship = board.ships[sid]
        buckets.setdefault((ship.location, board.plans[sid].signature()), []).append(ship)
    groups: list[Group] = []
    for ships in buckets.values():
        groups.extend(allied_parts(board, ships))
    return sorted(groups, key=lambda g: g.lead)


def allied_parts(board: Board, ships: list[Ship]) -> list[Group]:
    """Mutually allied sets, each ship that sails alone (4.5) on its own."""
    alone = [Group((s.id,)) for s in ships if board.plans[s.id].sail_alone]
    return alone + alliance_parts(board, (s.id for s in ships if not board.plans[s.id].sail_alone))


def alliance_parts(board: Board, ids: Iterable[str]) -> list[Group]:
    """Mutually allied sub-groups, ignoring sail-alone (pursuers, arrivals)."""
    parts: list[list[Ship]] = []
    for sid in sorted(ids):
        ship = board.ships[sid]
        for part in parts:
            if all(board.allied(ship.state, o.state) for o in part):
                part.append(ship)
                break
        else:
            parts.append([ship])
    return [Group(tuple(s.id for s in part)) for part in parts]
