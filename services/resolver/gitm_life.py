"""What the bridge adds to a turn's calls about time and the end of a campaign (edition 4,
docs/gitm.md "A turn" and "Opening and closing"): when PATE's next turn closes (A1, on the
turn's ``ReportSightings``), and the transport groups with cargo aboard at the close (A24, on
``CloseCampaign``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from pate.core.world.geography import WorldMap
from pate.core.world.ships import InPort
from pate.core.world.state import WorldState
from services.resolver.gitm import Laden, Sightings
from services.resolver.gitm_calls import Call


def next_close(open_turn: int, deadline: datetime | None, turn: int) -> int:
    """When PATE's turn ``turn + 1`` closes, seconds since 1970; 0 when PATE does not know it:
    the campaign has moved past that turn (the calls are sent late), or its turn has no deadline
    (none set, or the game master paused it)."""
    if open_turn != turn + 1 or deadline is None:
        return 0
    return int(deadline.timestamp())


def with_next_close(calls: Sequence[Call], close: int) -> list[Call]:
    """The turn's calls, its ``ReportSightings`` saying when the next turn closes."""
    return [replace(c, next_close=close) if isinstance(c, Sightings) else c for c in calls]


def laden(world: WorldState | None, wmap: WorldMap) -> tuple[Laden, ...]:
    """Every transport group with units or supplies aboard, by id, with the on-map city whose
    port it lies in ("" at sea, in the Atlantic or in an off-map port, rule 1.5)."""
    if world is None:
        return ()
    out: list[Laden] = []
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        if not ship.cargo.units and not ship.cargo.supplies:
            continue
        where = ship.location
        port = where.port if isinstance(where, InPort) else ""
        city = port if port in wmap.ports and wmap.ports[port].on_gitm_map else ""
        out.append(Laden(ship.id, city, tuple(ship.cargo.units), ship.cargo.supplies))
    return tuple(out)
