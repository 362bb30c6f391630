"""Typed constants of the movement rules, parsed from ``data/rules/movement.toml``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.ruledata import RuleData
from pate.core.rules.winds import Heading
from pate.core.world.ships import ShipType

_FIRST = {"frigate": (180, 220, 250), "line": (110, 150, 200)}
_STOP = {"frigate": (50, 0, 0), "line": (100, 20, 0)}
_SECOND = {"frigate": (60, 130, 180), "line": (0, 80, 120)}


def kind_of(type_: ShipType) -> str:
    """Rule 6.6 tables know two kinds: frigates, and everything else."""
    return "frigate" if type_ is ShipType.FR else "line"


def _table(
    d: Mapping[str, Any], name: str, fallback: Mapping[str, tuple[int, int, int]]
) -> dict[tuple[str, Heading], int]:
    out: dict[tuple[str, Heading], int] = {}
    for kind, values in fallback.items():
        given = d.get(name, {}).get(kind, {})
        for heading, value in zip(Heading, values, strict=True):
            out[(kind, heading)] = int(given.get(heading.value, value))
    return out


@dataclass(frozen=True, slots=True)
class Distance:
    """Chance of being placed at the chosen place rather than the base (2.8, 6.12)."""

    station_percent: int
    per_area_percent: int
    min_percent: int
    max_percent: int
    atlantic_distance: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any], station: int, per_area: int, least: int) -> Distance:
        return cls(
            station_percent=int(d.get("station_percent", station)),
            per_area_percent=int(d.get("per_area_percent", per_area)),
            min_percent=int(d.get("min_station_percent", least)),
            max_percent=int(d.get("max_station_percent", 100)),
            atlantic_distance=int(d.get("atlantic_distance", 6)),
        )

    def percent(self, distance: int) -> int:
        raw = self.station_percent - self.per_area_percent * distance
        return max(self.min_percent, min(self.max_percent, raw))


@dataclass(frozen=True, slots=True)
class MovementRules:
    first: dict[tuple[str, Heading], int]
    stop: dict[tuple[str, Heading], int]
    second: dict[tuple[str, Heading], int]
    hull_penalty: int
    rigging_penalty: int
    commerce_penalty: int
    damaged_points: int
    dismasted_rigging: int
    empty_area_weight: int
    occupied_area_weight: int
    stationary_group_weight: int
    patrolling_frigate_weight: int
    across_windward_percent: int
    line_turns: tuple[tuple[int, int], ...]  # (turns, weight)
    frigate_turns: tuple[tuple[int, int], ...]
    start: Distance
    peace: Distance
    stores_short_min: int
    stores_short_max: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> MovementRules:
        sail = d.get("sail", {})
        penalty = sail.get("penalty", {})
        place = d.get("placement", {})
        atl = d.get("atlantic", {})
        start = d.get("start", {})
        return cls(
            first=_table(sail, "first", _FIRST),
            stop=_table(sail, "stop", _STOP),
            second=_table(sail, "second", _SECOND),
            hull_penalty=int(penalty.get("hull_point", 10)),
            rigging_penalty=int(penalty.get("rigging_point", 20)),
            commerce_penalty=int(penalty.get("commerce", 50)),
            damaged_points=int(sail.get("damaged", {}).get("points", 1)),
            dismasted_rigging=int(sail.get("damaged", {}).get("dismasted_rigging", 4)),
            empty_area_weight=int(place.get("empty_area_weight", 2)),
            occupied_area_weight=int(place.get("occupied_area_weight", 1)),
            stationary_group_weight=int(place.get("stationary_group_weight", 2)),
            patrolling_frigate_weight=int(place.get("patrolling_frigate_weight", 6)),
            across_windward_percent=int(d.get("gauge", {}).get("across_windward_percent", 50)),
            line_turns=_lengths(atl, "line", (3, 4)),
            frigate_turns=_lengths(atl, "frigate", (2, 3)),
            start=Distance.from_section(start, 90, 10, 20),
            peace=Distance.from_section(d.get("peace", {}), 80, 5, 40),
            stores_short_min=int(start.get("stores_short_min", 2)),
            stores_short_max=int(start.get("stores_short_max", 8)),
        )

    @classmethod
    def of(cls, rules: RuleData) -> MovementRules:
        return cls.from_section(rules.section("movement"))


def _lengths(d: Mapping[str, Any], kind: str, fallback: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    turns = [int(t) for t in d.get(f"{kind}_turns", fallback)]
    weights = [int(w) for w in d.get(f"{kind}_weights", [1] * len(turns))]
    return tuple(zip(turns, weights, strict=True))
