"""Leave-one-out calibration of the combat constants (``data/battles/fit.toml``).

Every candidate of the grid (each combination of the knobs' values) is fought
over every battle once.  A candidate's miss count on a set of battles is the
number of battles whose historical winner is not the likeliest result plus the
number whose loser's mean losses are not within a factor of two of history;
ties are broken by the summed distance |ln(mean / history)|.  The in-sample
choice is the candidate with the fewest misses over all battles; battle k's
leave-one-out prediction is its own result under the candidate chosen on the
other battles.  No constant is set per battle.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pate.core.ruledata import RuleData
from pate.core.rules.combat import BattleSpec, CombatRules, simulate
from pate.datafiles import data_dir, read_data_toml

FIT_FILE = "fit.toml"
RATIO_FLOOR = 0.05  # a mean of 0 against history counts as 1/20 of it


@dataclass(frozen=True, slots=True)
class Knob:
    path: tuple[str, ...]
    values: tuple[float, ...]

    @property
    def name(self) -> str:
        return ".".join(self.path)


@dataclass(frozen=True, slots=True)
class Grid:
    knobs: tuple[Knob, ...]
    runs: int
    seed: int

    def candidates(self) -> list[dict[str, float]]:
        names = [k.name for k in self.knobs]
        return [
            dict(zip(names, combo, strict=True))
            for combo in itertools.product(*(k.values for k in self.knobs))
        ]


@dataclass(frozen=True, slots=True)
class Score:
    """One battle under one candidate."""

    winner_ok: bool
    ratio: float
    wins: tuple[int, int, int]  # A, B, draws
    mean_lost: float

    @property
    def losses_ok(self) -> bool:
        return 0.5 <= self.ratio <= 2.0

    @property
    def misses(self) -> int:
        return (not self.winner_ok) + (not self.losses_ok)

    @property
    def distance(self) -> float:
        return abs(math.log(max(RATIO_FLOOR, self.ratio)))


def load_grid(folder: Path | None = None) -> Grid:
    raw = read_data_toml((folder or data_dir() / "battles") / FIT_FILE)
    knobs = []
    for n, k in enumerate(raw.get("knob", [])):
        path, values = k.get("path"), k.get("values")
        if not isinstance(path, str) or not isinstance(values, list) or not values:
            raise ValueError(f"{FIT_FILE}: knob[{n}] needs a path and a non-empty list of values")
        knobs.append(Knob(tuple(path.split(".")), tuple(float(v) for v in values)))
    return Grid(tuple(knobs), int(raw.get("runs", 200)), int(raw.get("seed", 1)))


def rules_with(base: RuleData, candidate: Mapping[str, float]) -> CombatRules:
    """The combat rules of ``base`` with the candidate's values put in."""
    section = copy.deepcopy(dict(base.section("combat")))
    for name, value in candidate.items():
        node = section
        *parents, leaf = name.split(".")
        for key in parents:
            node = node[key]
        if leaf not in node:
            raise ValueError(f"{FIT_FILE}: combat.{name} is not a constant of combat.toml")
        node[leaf] = value
    classes = base.ship_classes
    return CombatRules.from_section(
        section,
        base_strength={t: float(c.base_strength) for t, c in classes.items()},
        max_crew={t: c.max_crew for t, c in classes.items()},
        max_marines={t: c.max_marines for t, c in classes.items()},
    )


def score(spec: BattleSpec, summary: Mapping[str, Any]) -> Score:
    winner, loser = str(spec.history["winner"]), str(spec.history["loser"])
    sides = summary["sides"]
    wins = {"A": int(sides["A"]["wins"]), "B": int(sides["B"]["wins"])}
    draws = int(summary["draws"])
    mean = float(sides[loser]["lost"]["mean"])
    return Score(
        winner_ok=wins[winner] > max(wins[loser], draws),
        ratio=mean / max(1, int(spec.history["loser_lost"])),
        wins=(wins["A"], wins["B"], draws),
        mean_lost=mean,
    )


def score_table(specs: Sequence[BattleSpec], base: RuleData, grid: Grid) -> list[list[Score]]:
    """scores[c][b]: battle b under candidate c."""
    table = []
    for candidate in grid.candidates():
        rules = rules_with(base, candidate)
        table.append([score(spec, simulate(spec, rules, grid.runs, grid.seed)) for spec in specs])
    return table


def best(table: Sequence[Sequence[Score]], battles: Sequence[int]) -> int:
    """The candidate with the fewest misses on ``battles`` (then the least distance, then the first)."""

    def cost(c: int) -> tuple[int, float]:
        row = table[c]
        return sum(row[b].misses for b in battles), sum(row[b].distance for b in battles)

    return min(range(len(table)), key=cost)


@dataclass(frozen=True, slots=True)
class Fit:
    grid: Grid
    in_sample: int  # the candidate chosen on every battle
    held_out: tuple[tuple[int, Score], ...]  # per battle: the candidate chosen without it, its score

    def candidate(self, c: int) -> dict[str, float]:
        return self.grid.candidates()[c]


def leave_one_out(table: Sequence[Sequence[Score]], grid: Grid) -> Fit:
    n = len(table[0])
    every = list(range(n))
    held = []
    for b in every:
        c = best(table, [k for k in every if k != b])
        held.append((c, table[c][b]))
    return Fit(grid, best(table, every), tuple(held))
