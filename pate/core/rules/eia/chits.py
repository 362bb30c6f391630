"""Naval tactical chits (12.2.6.1.1) from the combat orders PATE already has.

docs/rules/eia.md, "Chits from PATE's combat orders": a ship ordered to break
the line at close quarters fights melee; in line ahead at close quarters,
linear attack; at range (or evading), linear defense.  A side's chit is the
one most of its warships' orders give; a tie goes to the less aggressive chit
(captains who disagree about closing do not close).
"""

from __future__ import annotations

from collections.abc import Iterable

from pate.core.orders.model import CombatStance, Line, Range
from pate.core.rules.eia.params import Chit

# least aggressive first: the order ties are broken in
_CAUTION = (Chit.LINEAR_DEFENSE, Chit.LINEAR_ATTACK, Chit.MELEE)


def chit_of(stance: CombatStance, range_: Range, line: Line, *, revolution: bool = False) -> Chit:
    """12.2.6.1.1: "if playing the revolution campaign variant ... remove chits
    marked melee": there, breaking the line at close quarters is linear attack."""
    if stance is CombatStance.EVADE or range_ is Range.RANGE:
        return Chit.LINEAR_DEFENSE
    return Chit.MELEE if line is Line.BREAK and not revolution else Chit.LINEAR_ATTACK


def side_chit(chits: Iterable[Chit]) -> Chit:
    counts = dict.fromkeys(_CAUTION, 0)
    for c in chits:
        counts[c] += 1
    best = max(counts.values())
    return next(c for c in _CAUTION if counts[c] == best)
