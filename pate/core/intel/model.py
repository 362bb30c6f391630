"""What one player knows after a turn: the content of their two reports (3.11).

Plain frozen values, encoded to JSON by :mod:`pate.core.codec` (and decoded
back with ``from_plain(PlayerKnowledge, data)``).  The renderers read nothing
else, so a report can never show what is not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pate.core.events import Phase
from pate.core.rules.detection import Category, Place, Seen
from pate.core.world.geography import Direction, WindStrength
from pate.core.world.ships import Location, ShipType

KNOWLEDGE_VERSION = 1


@dataclass(frozen=True, slots=True)
class ShipReport:
    """One ship or transport group of the player, as in samples 2.3 and 2.4."""

    id: str
    name: str
    type: ShipType
    state: str
    commander: str  # the player's name as shown in reports; "" if none
    deputy: str
    location: Location
    base: str
    quality: str  # "Very Good"
    experience: int
    morale: int
    stores: int
    crew: int
    marines: int
    capacity: int  # transport groups (2.4)
    hull: int
    rigging: int
    carrying: tuple[str, ...] = ()  # GITM units aboard a transport group
    supplies: int = 0
    attached_to: str | None = None
    attached: tuple[str, ...] = ()  # ships attached to this one (4.4)
    active: bool = True
    visible: tuple[Seen, ...] = ()  # contact list (5.1)
    land_units: tuple[str, ...] = ()  # GITM units seen from the port (5.3)


@dataclass(frozen=True, slots=True)
class Sighting:
    """A frigate's sighting (5.2): approximate number, no identities."""

    by: str  # the frigate
    sea_area: str
    place: Place
    state: str
    category: Category
    estimate: int
    port: str | None = None
    tactical: int | None = None


@dataclass(frozen=True, slots=True)
class IntelReport:
    """Rule 5.4: ships that began the turn where the player's ships ended it,
    as reported (possibly wrong in flag, class and number)."""

    place: str  # sea area code or port name
    state: str
    category: Category
    estimate: int
    seen_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PortWatch:
    """Rule 5.3: ships in a port reported from the shore to a naval minister,
    by an off-GITM-map garrison (one turn late) or by land units."""

    port: str
    source: str  # "garrison" | "land units"
    as_of_turn: int
    ships: tuple[str, ...]


class Nearness(StrEnum):
    """How close a look a sighting was: what the player may rely on."""

    IDENTIFIED = "identified"  # by name: a contact list (5.1) or a shore report (5.3)
    COUNTED = "counted"  # a frigate's approximate number, no names (5.2)
    SAILS = "sails"  # sails reported (5.4): flag, class and number may all be wrong


class Source(StrEnum):
    """Where a sighting came from (section 5)."""

    CONTACT = "contact"  # the player's ships in contact (5.1)
    FRIGATE = "frigate"  # a frigate's scouting (5.2)
    GARRISON = "garrison"  # an off-GITM-map garrison, one turn late (5.3)
    LAND_UNITS = "land units"  # land units in the port (5.3)
    REPORTS = "reports"  # the intelligence reports (5.4)


@dataclass(frozen=True, slots=True)
class Sighted:
    """One enemy or neutral ship, or group of ships, on the player's picture:
    what, where, by whom, in which turn and how near.  A sighting carried from
    an earlier turn has not been seen since (else it would carry the later
    turn); its age is the knowledge's turn less ``turn``."""

    key: str  # a ship's id (identified), else the group: area/place/spot/state/category/nearness
    state: str
    category: Category
    nearness: Nearness
    source: Source
    sea_area: str
    place: Place
    turn: int  # the turn at whose end it was seen there (0: the starting positions)
    by: tuple[str, ...] = ()  # the player's ships that saw it; () for a shore report
    estimate: int | None = None  # counted or sails: the lowest number told
    estimate_high: int | None = None  # and the highest, when several frigates counted
    port: str | None = None
    tactical: int | None = None

    @property
    def ids(self) -> tuple[str, ...]:
        return (self.key,) if self.nearness is Nearness.IDENTIFIED else ()


@dataclass(frozen=True, slots=True)
class PortReport:
    """A port of the naval minister's state (rules 3.3-3.5): its stores, its
    yard and the ships on the stocks, for the minister's report."""

    name: str
    sea_area: str
    stores: int
    yard: int  # ships the yard repairs or builds at once (3.3)
    building: int = 0  # ships under construction, taking yard capacity
    building_transports: int = 0
    supplies: int = 0  # GITM supplies on the quay (section 9)
    battery_damaged: bool = False
    garrison: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ObservedEvent:
    """An event of the turn as the player's ships saw it (3.11)."""

    index: int  # 1-based position among the events this player saw
    phase: Phase
    kind: str
    location: str
    ships: tuple[str, ...]
    seen_by: tuple[str, ...]  # the player's ships that saw it
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AreaWind:
    sea_area: str
    direction: Direction  # blowing from
    strength: WindStrength


@dataclass(frozen=True, slots=True)
class StateName:
    code: str
    nation: str
    name: str


@dataclass(frozen=True, slots=True)
class PlayerKnowledge:
    campaign: str
    player: str
    player_name: str
    state: str | None
    naval_minister: bool
    turn: int  # the turn just resolved; 0 for the starting positions (3.11)
    next_turn: int  # the turn the positions are at the start of
    ships: tuple[ShipReport, ...] = ()
    lost: tuple[str, ...] = ()  # the player's ships gone during the turn
    events: tuple[ObservedEvent, ...] = ()
    sightings: tuple[Sighting, ...] = ()
    intelligence: tuple[IntelReport, ...] = ()
    port_watch: tuple[PortWatch, ...] = ()
    winds: tuple[AreaWind, ...] = ()
    states: tuple[StateName, ...] = ()
    allies: tuple[str, ...] = ()  # states on the player's side (same or actively allied)
    enemies: tuple[str, ...] = ()  # states at war with the player's
    ports: tuple[PortReport, ...] = ()  # a naval minister's: his state's ports (3.3-3.5)
    # EiA 12.2.6.1.6.3: the political status display, every state's points (public in EiA)
    political_points: tuple[tuple[str, int], ...] = ()
    peace: bool = False  # the turn just resolved was a peace or truce turn (rule 6.12)
    next_peace: bool = False  # so is the turn the positions are at the start of
    # every enemy or neutral ship or group the player has seen, this turn or carried from earlier
    # ones until too old (pate.core.intel.picture); knowledge stored before it was kept reads as ()
    picture: tuple[Sighted, ...] = ()
    version: int = KNOWLEDGE_VERSION

    @property
    def initial(self) -> bool:
        return self.turn == 0
