"""Winds: drawn per sea area from its table, shifting mid-turn (rules 1.4, 3.8, 6.5).

Timing (docs/rules/movement.md, "Winds"): ``WorldState.winds`` holds the winds
of the coming turn's first move, known to the players when they order.  Step
four of the movement phase may shift each sea area's wind; the winds standing
at the end of the movement phase are the state's winds for the next turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from pate.core.rng import Rng
from pate.core.ruledata import RuleData
from pate.core.world.geography import Direction, Port, SeaArea, WindStrength, WorldMap
from pate.core.world.state import Wind

T = TypeVar("T")


class Heading(StrEnum):
    """A course relative to the wind (recovered details of rule 6.6)."""

    UPWIND = "upwind"
    ACROSS = "across"
    DOWNWIND = "downwind"


def heading(course: Direction, wind: Wind) -> Heading:
    """Sailing toward the direction the wind blows from is upwind."""
    if course == wind.direction:
        return Heading.UPWIND
    if course == wind.direction.opposite:
        return Heading.DOWNWIND
    return Heading.ACROSS


def onshore(port: Port, wind: Wind) -> bool:
    """The wind blows from the sea onto the port: from its exit direction."""
    return wind.direction == port.exit


@dataclass(frozen=True, slots=True)
class WindRules:
    direction_shift_percent: int
    strength_shift_percent: int
    default_direction: tuple[tuple[Direction, int], ...]
    default_strength: tuple[tuple[WindStrength, int], ...]

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> WindRules:
        shift = d.get("shift", {})
        table = d.get("default_table", {})
        directions = table.get("direction", {"north": 25, "south": 25, "east": 25, "west": 25})
        strengths = table.get("strength", {"light": 30, "moderate": 50, "heavy": 20})
        return cls(
            direction_shift_percent=int(shift.get("direction_percent", 40)),
            strength_shift_percent=int(shift.get("strength_percent", 40)),
            default_direction=tuple((Direction(k), int(v)) for k, v in sorted(directions.items())),
            default_strength=tuple((WindStrength(k), int(v)) for k, v in sorted(strengths.items())),
        )

    @classmethod
    def of(cls, rules: RuleData) -> WindRules:
        return cls.from_section(rules.section("winds"))


def pick(rng: Rng, table: Sequence[tuple[T, int]]) -> T:
    """One entry drawn with integer weights (no floats, so the draw is exact)."""
    total = sum(max(0, w) for _, w in table)
    x = rng.below(total)
    for item, w in table:
        x -= max(0, w)
        if x < 0:
            return item
    return table[-1][0]  # unreachable: x < total


def _positive(table: Sequence[tuple[T, int]]) -> bool:
    return sum(max(0, w) for _, w in table) > 0


def _direction_table(area: SeaArea, params: WindRules) -> Sequence[tuple[Direction, int]]:
    own = area.winds.direction
    return own if _positive(own) else params.default_direction


def _strength_table(area: SeaArea, params: WindRules) -> Sequence[tuple[WindStrength, int]]:
    own = area.winds.strength
    return own if _positive(own) else params.default_strength


def draw_wind(area: SeaArea, params: WindRules, rng: Rng) -> Wind:
    """Rule 1.4: a direction and a strength from the sea area's table."""
    return Wind(pick(rng, _direction_table(area, params)), pick(rng, _strength_table(area, params)))


def draw_winds(world_map: WorldMap, rules: RuleData, rng: Rng) -> dict[str, Wind]:
    """One wind per sea area; each area draws from its own fork of the stream
    so that adding a sea area never changes another's weather."""
    params = WindRules.of(rules)
    return {
        code: draw_wind(world_map.sea_areas[code], params, rng.fork("wind", code))
        for code in sorted(world_map.sea_areas)
    }


def complete_winds(
    world_map: WorldMap, rules: RuleData, winds: Mapping[str, Wind], rng: Rng
) -> dict[str, Wind]:
    """The given winds, with a fresh draw for any sea area that has none."""
    missing = [c for c in sorted(world_map.sea_areas) if c not in winds]
    if not missing:
        return dict(winds)
    params = WindRules.of(rules)
    drawn = {c: draw_wind(world_map.sea_areas[c], params, rng.fork("wind", c)) for c in missing}
    return {**winds, **drawn}


def shift_wind(area: SeaArea, wind: Wind, params: WindRules, rng: Rng) -> Wind:
    """Rule 3.8 "winds may change": direction and strength are each redrawn
    from the table with their own chance."""
    direction, strength = wind.direction, wind.strength
    if rng.below(100) < params.direction_shift_percent:
        direction = pick(rng, _direction_table(area, params))
    if rng.below(100) < params.strength_shift_percent:
        strength = pick(rng, _strength_table(area, params))
    return Wind(direction, strength)


def shift_winds(world_map: WorldMap, rules: RuleData, winds: Mapping[str, Wind], rng: Rng) -> dict[str, Wind]:
    """Step four of rule 6.5: every sea area's wind may shift."""
    params = WindRules.of(rules)
    out = dict(winds)
    for code in sorted(winds):
        if code in world_map.sea_areas:
            out[code] = shift_wind(world_map.sea_areas[code], winds[code], params, rng.fork("shift", code))
    return out


def wind_of_port(world_map: WorldMap, winds: Mapping[str, Wind], port: str) -> Wind:
    """Rule 1.4: a port has the wind of its connected sea area (6.3: a strait
    port is connected to one sea area only, for weather)."""
    return winds[world_map.ports[port].sea_area]


def describe_wind(wind: Wind | None) -> str:
    """As the reports say it: "moderate from the west"."""
    if wind is None:
        return ""
    return f"{wind.strength.value} from the {wind.direction.value}"
