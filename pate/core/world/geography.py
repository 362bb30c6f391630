"""Static geography: sea areas and ports of the two maps (rule section 1).

Loaded once from the map data files, validated, and never changed at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Direction(StrEnum):
    NORTH = "north"
    SOUTH = "south"
    EAST = "east"
    WEST = "west"

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]


_OPPOSITE = {
    Direction.NORTH: Direction.SOUTH,
    Direction.SOUTH: Direction.NORTH,
    Direction.EAST: Direction.WEST,
    Direction.WEST: Direction.EAST,
}


class WindStrength(StrEnum):
    LIGHT = "light"
    MODERATE = "moderate"
    HEAVY = "heavy"


class MapName(StrEnum):
    EUROPE = "europe"
    AMERICA = "america"


@dataclass(frozen=True, slots=True)
class WindTable:
    """Chances in percent of each wind direction and strength (rule 1.4)."""

    direction: tuple[tuple[Direction, int], ...]
    strength: tuple[tuple[WindStrength, int], ...]


NO_ARTICLE = frozenset({"Bermuda", "Nova Scotia"})  # sea areas named after the land they surround


@dataclass(frozen=True, slots=True)
class SeaArea:
    code: str  # three letters, as used in orders (rule 1.4)
    name: str
    map: MapName
    neighbours: tuple[tuple[Direction, tuple[str, ...]], ...]
    winds: WindTable
    tactical_areas: int
    atlantic_edge: bool  # rule 6.11: crossing starts or ends here
    position: tuple[float, float]  # schematic drawing coordinates

    @property
    def called(self) -> str:
        """The name as a sentence says it: "the Bay of Biscay", but "Bermuda"."""
        return self.name if self.name in NO_ARTICLE else f"the {self.name}"

    def neighbours_in(self, direction: Direction) -> tuple[str, ...]:
        for d, codes in self.neighbours:
            if d == direction:
                return codes
        return ()

    @property
    def adjacent(self) -> frozenset[str]:
        return frozenset(c for _, codes in self.neighbours for c in codes)


@dataclass(frozen=True, slots=True)
class Port:
    name: str  # as written in orders
    nation: str  # nation code the port belongs to
    controller: str  # state controlling it at the start (the world state may change it)
    sea_area: str  # the one connected sea area (rule 1.3)
    exit: Direction  # direction a ship sails to leave the port
    defense: int  # defensive rating (rule 1.4)
    yard: int  # yard capacity (rule 3.3)
    stores: int  # stores held at the start
    on_gitm_map: bool  # rule 1.5
    strait_sea_area: str | None = None  # rule 6.3: the second sea area of a strait
    position: tuple[float, float] = (0.0, 0.0)

    @property
    def reachable_sea_areas(self) -> tuple[str, ...]:
        """Sea areas a ship may sail to from this port, or into it from (6.3)."""
        if self.strait_sea_area:
            return (self.sea_area, self.strait_sea_area)
        return (self.sea_area,)


@dataclass(frozen=True, slots=True)
class WorldMap:
    sea_areas: dict[str, SeaArea]
    ports: dict[str, Port]
    _ports_by_area: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        by_area: dict[str, list[str]] = {}
        for port in self.ports.values():
            for area in port.reachable_sea_areas:
                by_area.setdefault(area, []).append(port.name)
        object.__setattr__(self, "_ports_by_area", {a: tuple(sorted(p)) for a, p in by_area.items()})

    def ports_reachable_from(self, sea_area: str) -> tuple[str, ...]:
        """Ports a ship in this sea area may sail into (connected ones and straits)."""
        return self._ports_by_area.get(sea_area, ())

    def connected_ports(self, sea_area: str) -> tuple[str, ...]:
        """Ports whose connected sea area (weather, sighting) is this one."""
        return tuple(p for p in self.ports_reachable_from(sea_area) if self.ports[p].sea_area == sea_area)

    def borders(self, a: str, b: str) -> bool:
        return b in self.sea_areas[a].adjacent

    def strait_between(self, a: str, b: str) -> str | None:
        """The strait port ships pass through moving between a and b (rule 6.3)."""
        for port in self.ports.values():
            if port.strait_sea_area and {port.sea_area, port.strait_sea_area} == {a, b}:
                return port.name
        return None
