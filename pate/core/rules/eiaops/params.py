"""The constants of ``data/rules/eia_operations.toml`` as typed values.

Parsed once per operations phase by :meth:`OpsRules.from_rules`; a missing or
malformed entry raises :class:`RulesDataError` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.orders.operation import OpKind
from pate.core.ruledata import RuleData, RulesDataError
from pate.core.world.ships import Quality


@dataclass(frozen=True, slots=True)
class Dice:
    """Ships an operation brings: ``d6`` dice + ``phase_d6``/``phase_d3`` dice
    per Phase Number + ``ships`` fixed."""

    d6: int = 0
    phase_d6: int = 0
    phase_d3: int = 0
    ships: int = 0


@dataclass(frozen=True, slots=True)
class OpsRules:
    rebase_steps: int
    transport_steps: int
    invasion_steps: int
    chain_steps: int
    chain_total: int
    intercept_steps: int
    raid_dice: int
    privateer_dice: int
    contest_dice: int
    dice: Mapping[str, Dice]  # by operation kind, and "contest"
    phase_max: int
    order: tuple[str, ...]
    chooses_when: str
    ns_cost: int
    per_trade_ship: int
    start_turns: int
    receiving: Mapping[str, str]
    manoeuvre_die: int
    preferred: Mapping[str, frozenset[str]]
    trade_per_raider: int
    column_die: int
    max_columns: int
    first_strike_table: str
    table: str
    disabled_at: int
    first_strike_modifier: int
    break_off_ratio: float  # a column breaks off when its side lost more than this times what it disabled
    admiral_rating: int
    nelson_rating: int
    no_admiral_rating: int
    hull_damage: int
    rigging_damage: int
    quality_fire: Mapping[int, int]  # fire modifier by crew quality point (Quality, rule 7.6)
    type_fire: Mapping[str, int]  # fire modifier by ship type (rule 2.1); types not listed 0

    @classmethod
    def from_rules(cls, rules: RuleData) -> OpsRules:
        try:
            return _parse(rules.section("eia_operations"))
        except (KeyError, TypeError, ValueError) as exc:
            raise RulesDataError([f"eia_operations: {exc!r}"]) from None

    def receiving_port(self, state: str) -> str:
        return self.receiving.get(state, "offboard")

    def fire_modifier(self, quality: Quality, type_code: str) -> int:
        """A ship's own modifier to its column fire rolls (the calibrated part of the
        "how a column's fire does damage" decision, docs/rules/eia-operations.md)."""
        return self.quality_fire[int(quality)] + self.type_fire.get(type_code, 0)

    def prefers(self, interceptor: OpKind, target: str) -> bool:
        return target in self.preferred.get(interceptor.value, frozenset())


def _dice(raw: Mapping[str, Any]) -> Dice:
    unknown = set(raw) - {"d6", "phase_d6", "phase_d3", "ships"}
    if unknown:
        raise ValueError(f"unknown dice keys {sorted(unknown)}")
    return Dice(**{k: int(v) for k, v in raw.items()})


def _quality_fire(raw: Mapping[str, Any]) -> dict[int, int]:
    labels = {q.label: int(q) for q in Quality}
    if set(raw) != set(labels):
        raise ValueError(f"columns.quality_fire: give every quality, {sorted(labels)}")
    return {labels[str(k)]: int(v) for k, v in raw.items()}


def _parse(raw: Mapping[str, Any]) -> OpsRules:
    s, m, i, c = raw["steps"], raw["money"], raw["interception"], raw["columns"]
    kinds = {k.value for k in OpKind} | {"trade"}
    preferred = {str(k): frozenset(str(x) for x in v) for k, v in i["preferred"].items()}
    for k, targets in preferred.items():
        if k not in kinds or not targets <= kinds:
            raise ValueError(f"interception.preferred.{k}: unknown operation kind")
    rules = OpsRules(
        rebase_steps=int(s["rebase"]),
        transport_steps=int(s["transport"]),
        invasion_steps=int(s["invasion"]),
        chain_steps=int(s["chain"]),
        chain_total=int(s["chain_total"]),
        intercept_steps=int(s["intercept"]),
        raid_dice=int(s["raid_dice"]),
        privateer_dice=int(s["privateer_dice"]),
        contest_dice=int(s["contest_dice"]),
        dice={str(k): _dice(v) for k, v in raw["ships"].items()},
        phase_max=int(raw["phase"]["number_max"]),
        order=tuple(str(x) for x in raw["phase"]["order"]),
        chooses_when=str(raw["phase"]["chooses_when"]),
        ns_cost=int(m["naval_superiority"]),
        per_trade_ship=int(m["per_trade_ship"]),
        start_turns=int(m["start_turns"]),
        receiving={str(k): str(v) for k, v in raw["trade"]["receiving"].items()},
        manoeuvre_die=int(i["die"]),
        preferred=preferred,
        trade_per_raider=int(i["trade_per_raider"]),
        column_die=int(c["die"]),
        max_columns=int(c["max_columns"]),
        first_strike_table=str(c["first_strike_table"]),
        table=str(c["table"]),
        disabled_at=int(c["disabled_at"]),
        first_strike_modifier=int(c["first_strike_modifier"]),
        break_off_ratio=float(c["break_off_ratio"]),
        admiral_rating=int(c["admiral_rating"]),
        nelson_rating=int(c["nelson_rating"]),
        no_admiral_rating=int(c["no_admiral_rating"]),
        hull_damage=int(c["hull_damage"]),
        rigging_damage=int(c["rigging_damage"]),
        quality_fire=_quality_fire(c["quality_fire"]),
        type_fire={str(k): int(v) for k, v in c["type_fire"].items()},
    )
    if min(rules.rebase_steps, rules.transport_steps, rules.invasion_steps, rules.chain_steps) < 1:
        raise ValueError("steps: every range must be at least 1")
    if rules.per_trade_ship < 1 or rules.manoeuvre_die < 2 or rules.column_die < 2:
        raise ValueError("money.per_trade_ship >= 1, dice of at least 2 faces")
    return rules
