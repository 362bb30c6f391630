"""The bot admirals' levels: the numbers of their judgement (``data/bots.toml``).

Read once and checked whole: every level must give every number, in range,
or the file is refused with each problem named (docs/formats/bots.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any


class LevelsDataError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("data/bots.toml:\n" + "\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    attack_odds: float
    close_odds: float
    evade_odds: float
    home_stores: int
    repair_damage: int
    blockade: bool
    raid_share: int
    convoy: bool
    land: bool
    port_stores_low: int
    port_stores_spare: int
    enemy_quality: int


_ODDS = ("attack_odds", "close_odds", "evade_odds")
_FLAGS = ("blockade", "convoy", "land")
_LIMITS = {
    "home_stores": (0, 24),  # rule 3.4: 24 stores aboard at most
    "repair_damage": (1, 10),  # hull and rigging take 5 points each at most (2.2)
    "raid_share": (0, 100),
    "port_stores_low": (0, 100_000),
    "port_stores_spare": (0, 100_000),
    "enemy_quality": (-3, 3),  # rule 7.6's quality points
}


def parse_levels(raw: Mapping[str, Any]) -> dict[str, Level]:
    problems: list[str] = []
    levels = raw.get("levels")
    if not isinstance(levels, Mapping) or not levels:
        raise LevelsDataError(["levels: give at least one [levels.<name>] table"])
    extra = sorted(set(raw) - {"levels"})
    problems += [f"{k}: unknown table (only [levels.<name>])" for k in extra]
    out: dict[str, Level] = {}
    for name, table in sorted(levels.items()):
        level = _level(str(name), table, problems)
        if level is not None:
            out[str(name)] = level
    if problems:
        raise LevelsDataError(problems)
    return out


def _level(name: str, table: object, problems: list[str]) -> Level | None:
    where = f"levels.{name}"
    if not isinstance(table, Mapping):
        problems.append(f"{where}: give a table")
        return None
    known = {f.name for f in fields(Level)} - {"name"}
    problems += [f"{where}.{k}: unknown field" for k in sorted(set(table) - known)]
    values: dict[str, Any] = {"name": name}
    before = len(problems)
    for key in sorted(known):
        value = table.get(key)
        if value is None:
            problems.append(f"{where}.{key}: missing")
        elif key in _FLAGS:
            if not isinstance(value, bool):
                problems.append(f"{where}.{key}: give true or false")
            values[key] = value
        elif key in _ODDS:
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 100:
                problems.append(f"{where}.{key}: give odds above 0, at most 100")
            values[key] = float(value) if isinstance(value, int | float) else 0.0
        else:
            lo, hi = _LIMITS[key]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                problems.append(f"{where}.{key}: give a whole number from {lo} to {hi}")
            values[key] = value
    if len(problems) == before and values["evade_odds"] > values["attack_odds"]:
        problems.append(f"{where}.evade_odds: must not exceed attack_odds")
    return Level(**values) if len(problems) == before else None
