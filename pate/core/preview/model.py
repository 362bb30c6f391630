"""What a preview answers: per ship, where it may end, how often it reaches
where it was ordered, and whom it may meet.  Plain frozen values, encoded by
:mod:`pate.core.codec` like every report, so two previews compare as bytes."""

from __future__ import annotations

from dataclasses import dataclass

from pate.core.orders.refusal import Refusal

# The bounds of docs/rules/intel.md ("Previews"): the runs a preview plays
# unless asked for fewer, and the most it ever plays.
DEFAULT_RUNS = 20
MAX_RUNS = 50
MAX_MEETINGS = 8  # per ship, the likeliest


@dataclass(frozen=True, slots=True)
class End:
    """One place a ship ended in, and in how many runs."""

    place: str  # as the reports word it, "NOC (tactical area 2)"; "lost" when gone
    sea_area: str | None  # for the map: the sea area (a port's connected one)
    port: str | None
    runs: int


@dataclass(frozen=True, slots=True)
class Meeting:
    """Ships the player knows of that one of his met in some runs (an event
    both took part in or witnessed: contact, battle, chase)."""

    place: str
    ships: tuple[str, ...]
    kinds: tuple[str, ...]  # the events' kinds, "battle", "evaded"...
    runs: int


@dataclass(frozen=True, slots=True)
class ShipPreview:
    id: str
    name: str
    destination: str | None  # the port or last sea area ordered; None if ordered to stay
    reached: int  # runs in which it ended there
    ends: tuple[End, ...]  # likeliest first
    meetings: tuple[Meeting, ...] = ()


@dataclass(frozen=True, slots=True)
class Preview:
    campaign: str
    player: str
    turn: int  # the turn the orders are for
    runs: int
    seed: str  # the preview's seed, hex: what (player, turn, orders) gave
    ships: tuple[ShipPreview, ...] = ()
    refusals: tuple[Refusal, ...] = ()  # draft orders refused: nothing was run

    def ship(self, sid: str) -> ShipPreview:
        return next(s for s in self.ships if s.id == sid)
