"""Ships, transport groups and where they are (rule section 2)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from pate.core.codec import register_union_members


class ShipType(StrEnum):
    FL = "FL"  # flagship: first and second rates, three-deckers
    SL = "SL"  # ship of the line: third and fourth rates
    FR = "FR"  # frigate: fifth and sixth rates
    TR = "TR"  # transport group

    @property
    def is_warship(self) -> bool:
        return self is not ShipType.TR

    @property
    def of_the_line(self) -> bool:
        return self in (ShipType.FL, ShipType.SL)


class Quality(IntEnum):
    """Quality levels; the value is the "point" used by rule 7.6."""

    VERY_POOR = -3
    POOR = -2
    FAIR = -1
    AVERAGE = 0
    GOOD = 1
    VERY_GOOD = 2
    EXCELLENT = 3

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title()

    @classmethod
    def from_label(cls, text: str) -> Quality:
        key = text.strip().upper().replace(" ", "_")
        return cls[key]


SHIP_ID = re.compile(r"([A-Z]{2})([1-9][0-9]*)(FL|SL|FR|TR)")


def ship_id(state: str, number: int, type_: ShipType) -> str:
    return f"{state}{number}{type_.value}"


def parse_ship_id(text: str) -> tuple[str, int, ShipType] | None:
    m = SHIP_ID.fullmatch(text)
    if not m:
        return None
    return m.group(1), int(m.group(2)), ShipType(m.group(3))


@dataclass(frozen=True, slots=True)
class AtSea:
    """In a tactical area of a sea area (rule 1.2)."""

    area: str
    tactical: int


@dataclass(frozen=True, slots=True)
class InPort:
    """In the harbor or the coastal waters of a port (rule 1.2)."""

    port: str
    harbor: bool


@dataclass(frozen=True, slots=True)
class InAtlantic:
    """Crossing the Atlantic (rule 6.11): no orders, no reports, no encounters."""

    destination: str  # sea area on the other map
    arrives_turn: int
    group: str  # ships that entered together stay together


Location = AtSea | InPort | InAtlantic


def contact_key(loc: Location) -> tuple[str, str, int] | None:
    """Ships with equal keys are in contact (rule 5.1): same port, or same
    tactical area of the same sea area.  Ships in the Atlantic meet nobody."""
    if isinstance(loc, AtSea):
        return ("sea", loc.area, loc.tactical)
    if isinstance(loc, InPort):
        return ("port", loc.port, 0)
    return None


def describe(loc: Location) -> str:
    if isinstance(loc, AtSea):
        return f"{loc.area} (tactical area {loc.tactical})"
    if isinstance(loc, InPort):
        return f"{loc.port} ({'harbor' if loc.harbor else 'coastal waters'})"
    return f"Atlantic Ocean (sailing to {loc.destination})"


@dataclass(frozen=True, slots=True)
class Cargo:
    """What a transport group carries (section 9): GITM units and supplies."""

    units: tuple[str, ...] = ()
    supplies: int = 0
    space: int = 0  # capacity taken by the units and supplies aboard (section 9)


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    state: str
    type: ShipType
    number: int
    name: str
    location: Location
    base: str
    quality: Quality = Quality.AVERAGE
    experience: int = 0
    morale: int = 2
    stores: int = 24
    crew: int = 0
    marines: int = 0
    capacity: int = 0  # transport groups only (rule 2.4)
    hull: int = 0  # 0..5, sinks at 5 (rule 2.2)
    rigging: int = 0  # 0..5
    commander: str | None = None
    deputy: str | None = None
    attached_to: str | None = None
    active: bool = True
    reactivates_turn: int | None = None  # rule 2.6: four campaign turns
    station: int = 0  # rank from windward (0) to leeward within its location (6.9)
    cargo: Cargo = field(default_factory=Cargo)
    hulk: bool = False  # rule 12.2.8 (EiA rules): disabled, in port, until refitted

    @property
    def at_sea(self) -> bool:
        return isinstance(self.location, AtSea)

    @property
    def crossing(self) -> bool:
        return isinstance(self.location, InAtlantic)


# Locations are a union: their encoding carries which kind they are.
register_union_members(AtSea, InPort, InAtlantic)
