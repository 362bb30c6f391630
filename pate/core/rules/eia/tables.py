"""Reading the EiA combat results table and casualty table (rule 12.2.6.1.5).

A chart cell such as ``5-2`` names casualty table 5 and morale table 2 of the
combat results table; the casualty percentage read there becomes enemy ships
disabled through the casualty table, by the firing side's own factors.
"""

from __future__ import annotations

from dataclasses import dataclass

from pate.core.rules.eia.params import EiaRules

_BLOCK = 20  # the casualty table's widest column; larger forces take it per full 20


@dataclass(frozen=True, slots=True)
class Fire:
    """What one side's roll on one table inflicts on the enemy."""

    table: str
    roll: int  # the modified roll, kept within die_min..die_max
    percent: int
    disabled: int  # enemy ships disabled (before capping at the ships present)
    morale: float


def modified_roll(rules: EiaRules, die: int, modifier: int) -> int:
    """EiA land combat keeps the modified roll within 0..7 (rule 7.5.2.9)."""
    return max(rules.die_min, min(rules.die_max, die + modifier))


def casualties(rules: EiaRules, percent: int, factors: int) -> int:
    """Enemy factors lost at ``percent`` for a firing side of ``factors``:
    the 20-factor figure for each full 20, plus the figure of the remainder."""
    if percent <= 0 or factors <= 0:
        return 0
    row = rules.casualty_pct[percent]
    full, rest = divmod(factors, _BLOCK)
    return full * row[_BLOCK - 1] + (row[rest - 1] if rest else 0)


def fire(rules: EiaRules, table: str, roll: int, factors: int) -> Fire:
    """One roll on ``table``: the casualties and morale loss it inflicts."""
    row = rules.row(table)
    k = roll - rules.die_min
    pct = row.casualties[k]
    return Fire(table, roll, pct, casualties(rules, pct, factors), row.morale[k])
