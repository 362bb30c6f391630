"""The Atlantic crossing (rules 1.6, 6.11) and step seven of rule 6.5.

Ships of the line and transports take 3 or 4 turns, frigate groups 2 or 3,
counting the turn they enter; the length is drawn once per group, which stays
together, meets nobody, sends no reports and takes no orders until it arrives
in step seven of its last turn.  The crossing's length is kept in the state
(``InAtlantic.arrives_turn``) but never put in an event: rule 6.11 says ships
do not know it until they arrive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pate.core.rng import Rng
from pate.core.rules.movement.arrival import arrive_at_sea
from pate.core.rules.movement.board import Board
from pate.core.rules.movement.routes import atlantic_course
from pate.core.rules.winds import pick
from pate.core.world.ships import InAtlantic, ShipType

if TYPE_CHECKING:
    from pate.core.rules.movement.pursuit import Departure


def crossing_turns(board: Board, members: list[str], rng: Rng) -> int:
    """Rule 6.11: 3-4 turns, or 2-3 for a group of frigates only."""
    frigates = all(board.ships[m].type is ShipType.FR for m in members)
    return pick(rng, board.params.frigate_turns if frigates else board.params.line_turns)


def enter_atlantic(board: Board, d: Departure, rng: Rng) -> None:
    assert d.to_area is not None
    turns = crossing_turns(board, d.members, rng)
    group = f"{board.world.turn}:{d.lead}"
    loc = InAtlantic(destination=d.to_area, arrives_turn=board.world.turn + turns - 1, group=group)
    for m in d.members:
        board.put(m, loc)
        board.plans[m].done = True
    board.emit("entered_atlantic", d.members, "Atlantic Ocean", d.witnesses, destination=d.to_area)


def arrivals_step(board: Board, rng: Rng) -> None:
    """Step seven: groups whose crossing ends this turn arrive on the map,
    placed and meeting others as any ships entering a sea area (6.8)."""
    due: dict[str, list[str]] = {}
    for sid in sorted(board.ships):
        loc = board.ships[sid].location
        if isinstance(loc, InAtlantic) and loc.arrives_turn <= board.world.turn and sid not in board.sunk:
            due.setdefault(loc.group, []).append(sid)
    for group, members in sorted(due.items()):
        loc = board.ships[members[0]].location
        assert isinstance(loc, InAtlantic)
        course = atlantic_course(board.map, loc.destination).opposite
        arrive_at_sea(
            board, members, loc.destination, course, rng.fork("arrive", group), came_from="Atlantic Ocean"
        )
