"""The bot admirals' levels: the numbers of their judgement (``data/bots.toml``).

Read once and checked whole: every level must give every number, in range,
or the file is refused with each problem named (docs/formats/bots.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any


class LevelsDataError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("data/bots.toml:\n" + "\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class RuleSetJudgement:
    """How a level plays under one combat rule set (``[levels.<name>.rulesets.<set>]``)."""

    odds_factor: float = 1.0  # the level's odds are multiplied by this
    open_blockade: bool = False  # blockade from the port's sea area, never its coastal waters


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
    open_blockade: bool = False
    rulesets: tuple[tuple[str, RuleSetJudgement], ...] = ()

    def under(self, combat_rules: str) -> Level:
        """The level as it plays under ``combat_rules`` (its own judgement of
        that rule set's battles, data/bots.toml)."""
        found = dict(self.rulesets).get(combat_rules)
        if found is None:
            return self
        f = found.odds_factor
        return replace(
            self,
            attack_odds=self.attack_odds * f,
            close_odds=self.close_odds * f,
            evade_odds=self.evade_odds * f,
            open_blockade=found.open_blockade,
        )


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
    known = {f.name for f in fields(Level)} - {"name", "open_blockade", "rulesets"}
    problems += [f"{where}.{k}: unknown field" for k in sorted(set(table) - known - {"rulesets"})]
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
    values["rulesets"] = _rulesets(where, table.get("rulesets", {}), problems)
    return Level(**values) if len(problems) == before else None


def _rulesets(where: str, raw: object, problems: list[str]) -> tuple[tuple[str, RuleSetJudgement], ...]:
    if not isinstance(raw, Mapping):
        problems.append(f"{where}.rulesets: give a table of [rulesets.<combat rule set>] tables")
        return ()
    out: list[tuple[str, RuleSetJudgement]] = []
    for name, t in sorted(raw.items()):
        at = f"{where}.rulesets.{name}"
        if not isinstance(t, Mapping):
            problems.append(f"{at}: give a table")
            continue
        problems += [f"{at}.{k}: unknown field" for k in sorted(set(t) - {"odds_factor", "open_blockade"})]
        factor = t.get("odds_factor", 1.0)
        if isinstance(factor, bool) or not isinstance(factor, int | float) or not 0.1 <= factor <= 10:
            problems.append(f"{at}.odds_factor: give a number from 0.1 to 10")
            factor = 1.0
        blockade = t.get("open_blockade", False)
        if not isinstance(blockade, bool):
            problems.append(f"{at}.open_blockade: give true or false")
            blockade = False
        out.append((str(name), RuleSetJudgement(float(factor), blockade)))
    return tuple(out)
