"""Coming in under the batteries (rules 7.1, 7.5, 7.7, 6.6; docs/rules/combat.md, decision 17).

The texts fight a harbor battle at close quarters with the port's shore
batteries (7.1, 7.7, mechanics "Determining battle positions") and let the
wind stop ships entering a port (6.6).  Decided: the ships of the side that
faces the batteries must come in under their guns.  Each may take the ground
(more likely the stronger the port's defenses: its fortified shoals and
narrows) and, in light airs, may fail to come in at all; a grounded ship
fights with part of her broadside, draws the batteries' fire and cannot get
off if her side is beaten.
"""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.combat.model import Where
from pate.core.rules.combat.prepare import Columns, Prepared


def _mean_quality(p: Prepared, idx: list[int]) -> float:
    return sum(p.quality[i] for i in idx) / len(idx) if idx else 0.0


def come_in(p: Prepared, cols: Columns, fighters: tuple[list[int], list[int]], rng: Rng) -> None:
    """Decision 17: each ship facing the batteries rolls to ground, then (if
    afloat) to come in by the wind.  Marks ``cols.grounded`` and removes from
    ``fighters`` the ships that stay out (they remain IDLE)."""
    b = p.battle
    battery = b.battery
    if b.where is not Where.HARBOR or battery is None:
        return
    defenders = fighters[battery.side]
    if not any(p.warship[i] for i in defenders):
        return  # 7.5: against the batteries alone the ships fight at range, not under the guns
    h = p.rules.harbor
    attackers = fighters[1 - battery.side]
    ground = h.ground_per_defense_pct * battery.defense
    edge = _mean_quality(p, attackers) - _mean_quality(p, defenders)
    close = h.close_pct[b.wind] + h.close_quality_pct_per_point * edge
    stay: list[int] = []
    for i in attackers:
        if rng.chance(ground):
            cols.grounded[i] = True
            stay.append(i)
        elif close >= 100 or rng.chance(close):
            stay.append(i)
    attackers[:] = stay


def grounded_strength(p: Prepared) -> float:
    """The factor on a grounded ship's strength (decision 17)."""
    return max(0.0, 1.0 + p.rules.harbor.grounded_strength_pct / 100.0)
