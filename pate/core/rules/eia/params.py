"""The constants of ``data/rules/eia_naval.toml`` and ``eia_crt.toml`` as typed values.

Parsed once per combat phase or simulator run by :meth:`EiaRules.from_rules`;
a missing or malformed entry raises :class:`RulesDataError` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pate.core.ruledata import RuleData, RulesDataError

ROUNDS = 3  # rule 12.2.6.1.6.2: "after three rounds of combat"


class Chit(StrEnum):
    """The naval tactical chits of rule 12.2.6.1.1."""

    MELEE = "melee"
    LINEAR_ATTACK = "linear_attack"
    LINEAR_DEFENSE = "linear_defense"


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One table "C-M" of the combat results table: casualty % and morale loss by roll 0..7."""

    name: str
    casualties: tuple[int, ...]
    morale: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class ChartCell:
    """One cell of the tactical naval chart: the tables of rounds 1..3 for each side.

    ``closed`` holds the second set (after the melee force closed) or None;
    its round 1 entry is None ("-" in the chart)."""

    attacker: tuple[str, ...]
    defender: tuple[str, ...]
    attacker_closed: tuple[str | None, ...] | None = None
    defender_closed: tuple[str | None, ...] | None = None

    def table(self, side: int, round_: int, closed: bool) -> str:
        """The table ``side`` (0 attacker, 1 defender) reads in round ``round_`` (1-based)."""
        second = self.attacker_closed if side == 0 else self.defender_closed
        if closed and second is not None:
            name = second[round_ - 1]
            if name is not None:
                return name
        return (self.attacker if side == 0 else self.defender)[round_ - 1]


@dataclass(frozen=True, slots=True)
class EiaRules:
    results: Mapping[str, ResultRow]
    casualty_pct: Mapping[int, tuple[int, ...]]  # percentage -> losses for 1..20 factors
    chart: Mapping[tuple[Chit, Chit], ChartCell]  # (attacker chit, defender chit)
    closing: Mapping[Chit, int]  # melee closes on this roll or less, by the enemy's chit
    blockading: tuple[str, ...]
    blockaded: tuple[str, ...]
    raid_attacker: tuple[str, ...]
    raid_defender: tuple[str, ...]
    harbor_defense_table: str
    die_min: int
    die_max: int
    modifier_cap: int
    british_states: frozenset[str]
    french_states: frozenset[str]
    british_chits: frozenset[Chit]
    french_chits: frozenset[Chit]
    nationality_bonus: int
    morale_by_state: Mapping[str, float]
    morale_other: float
    chase: tuple[tuple[float | None, str], ...]  # (upper bound or None, table)
    chase_linear_defense: int
    sea_areas_per_mp: int
    always_sinks: int
    nelson_casualty_on: int
    nelson_shift_max: int
    nelson_shift: int
    nelson_killed_on: int
    wounded_turns: int
    hulk_destroyed_upto: int
    refit_turns: int
    refit_stores: int
    running_slips_upto: int
    running_covering: int
    ships_per_counter: int
    points_per_counter: int

    @classmethod
    def from_rules(cls, rules: RuleData) -> EiaRules:
        try:
            return _parse(rules.section("eia_naval"), rules.section("eia_crt"))
        except (KeyError, TypeError, ValueError) as exc:
            raise RulesDataError([f"eia_naval/eia_crt: {exc!r}"]) from None

    def row(self, table: str) -> ResultRow:
        return self.results[table]

    def morale_of(self, state: str) -> float:
        """Rule 12.2.6.1.3.2: British and Dutch 4.0, Austrian and Prussian 2.0, others 3.0."""
        return self.morale_by_state.get(state, self.morale_other)

    def chase_table(self, morale_loss: float) -> str:
        """Rule 12.2.6.1.7: the general chase table by the victor's morale loss."""
        for upto, table in self.chase:
            if upto is None or morale_loss <= upto + 1e-9:
                return table
        return self.chase[-1][1]


def _tables(raw: Any, rounds: int = ROUNDS) -> tuple[str, ...]:
    out = tuple(str(x) for x in raw)
    if len(out) != rounds:
        raise ValueError(f"{raw!r}: expected {rounds} tables")
    return out


def _closed(raw: Any) -> tuple[str | None, ...] | None:
    if raw is None:
        return None
    return tuple(None if x == "-" else str(x) for x in _tables(raw))


def _results(crt: Mapping[str, Any]) -> dict[str, ResultRow]:
    return {
        name: ResultRow(
            name, tuple(int(c) for c in row["casualties"]), tuple(float(m) for m in row["morale"])
        )
        for name, row in crt["results"].items()
    }


def _chart(naval: Mapping[str, Any]) -> dict[tuple[Chit, Chit], ChartCell]:
    chart: dict[tuple[Chit, Chit], ChartCell] = {}
    for a in Chit:
        for d in Chit:
            cell = naval["chart"][a.value][d.value]
            chart[(a, d)] = ChartCell(
                attacker=_tables(cell["attacker"]),
                defender=_tables(cell["defender"]),
                attacker_closed=_closed(cell.get("attacker_closed")),
                defender_closed=_closed(cell.get("defender_closed")),
            )
    return chart


def _nelson_and_hulks(naval: Mapping[str, Any]) -> dict[str, int]:
    """The admirals' (12.2.7.1), hulks' (12.2.8) and running (12.2.6.3.4) numbers."""
    nelson = naval["nelson"]
    return {
        "nelson_casualty_on": int(nelson["casualty_on"]),
        "nelson_shift_max": int(nelson["closing_shift_max"]),
        "nelson_shift": int(nelson["closing_shift"]),
        "nelson_killed_on": int(nelson["killed_on"]),
        "wounded_turns": int(nelson["wounded_turns"]),
        "hulk_destroyed_upto": int(naval["hulks"]["destroyed_upto"]),
        "refit_turns": int(naval["hulks"]["refit_turns"]),
        "refit_stores": int(naval["hulks"]["refit_stores"]),
        "running_slips_upto": int(naval["running"]["slips_upto"]),
        "running_covering": int(naval["running"]["covering_modifier"]),
        "ships_per_counter": int(naval["political"]["ships_per_fleet_counter"]),
        "points_per_counter": int(naval["political"]["points_per_counter"]),
    }


def _parse(naval: Mapping[str, Any], crt: Mapping[str, Any]) -> EiaRules:
    casualty = {int(k): tuple(int(x) for x in v) for k, v in crt["casualties"].items()}
    b = naval["battle"]
    chase = tuple(
        (None if "upto" not in r else float(r["upto"]), str(r["table"])) for r in naval["chase"]["rows"]
    )
    rules = EiaRules(
        results=_results(crt),
        casualty_pct=casualty,
        chart=_chart(naval),
        closing={Chit(k): int(v) for k, v in naval["closing"].items()},
        blockading=_tables(naval["blockade"]["blockading"]),
        blockaded=_tables(naval["blockade"]["blockaded"]),
        raid_attacker=_tables(naval["port_raid"]["attacker"]),
        raid_defender=_tables(naval["port_raid"]["defender"]),
        harbor_defense_table=str(naval["port_raid"]["harbor_defense_table"]),
        die_min=int(b["die_min"]),
        die_max=int(b["die_max"]),
        modifier_cap=int(b["modifier_cap"]),
        british_states=frozenset(b["british_states"]),
        french_states=frozenset(b["french_states"]),
        british_chits=frozenset(Chit(c) for c in b["british_chits"]),
        french_chits=frozenset(Chit(c) for c in b["french_chits"]),
        nationality_bonus=int(b["nationality_bonus"]),
        morale_by_state={str(k): float(v) for k, v in naval["morale"]["states"].items()},
        morale_other=float(naval["morale"]["other"]),
        chase=chase,
        chase_linear_defense=int(naval["chase"]["linear_defense_modifier"]),
        sea_areas_per_mp=int(naval["voyage"]["sea_areas_per_movement_point"]),
        always_sinks=int(naval["voyage"]["always_sinks"]),
        **_nelson_and_hulks(naval),
    )
    _check(rules)
    return rules


def _check(rules: EiaRules) -> None:
    names = list(rules.blockading + rules.blockaded + rules.raid_attacker + rules.raid_defender)
    names += [rules.harbor_defense_table] + [t for _, t in rules.chase]
    for cell in rules.chart.values():
        names += list(cell.attacker + cell.defender)
        names += [t for t in (cell.attacker_closed or ()) + (cell.defender_closed or ()) if t]
    for n in names:
        if n not in rules.results:
            raise ValueError(f"table {n!r} is not in the combat results table")
    width = rules.die_max - rules.die_min + 1
    for row in rules.results.values():
        if len(row.casualties) != width or len(row.morale) != width:
            raise ValueError(f"table {row.name!r}: expected {width} entries")
    for pct, figures in rules.casualty_pct.items():
        if len(figures) != 20:
            raise ValueError(f"casualties {pct}%: expected 20 entries")
    if not 0 <= rules.nelson_shift <= rules.nelson_shift_max:
        raise ValueError("nelson.closing_shift must be 0..closing_shift_max")
