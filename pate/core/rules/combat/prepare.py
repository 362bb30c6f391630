"""Everything about a battle that does not depend on the dice, computed once.

The simulator fights one battle thousands of times: it prepares it once and
hands the :class:`Prepared` value to :func:`~pate.core.rules.combat.engine.fight_prepared`.
The per-ship values are flat tuples indexed like ``Battle.ships``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pate.core.orders.model import Aim, CombatStance, Line, Range
from pate.core.rules.combat.model import Battle, Outcome
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.strength import battery_strength, static_strength
from pate.core.world.ships import ShipType

Tier = tuple[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Prepared:
    battle: Battle
    rules: CombatRules
    side: tuple[int, ...]
    warship: tuple[bool, ...]  # FL, SL, FR (rule 2.1: "ships")
    of_line: tuple[bool, ...]  # FL, SL
    quality: tuple[int, ...]
    at_range: tuple[float, ...]
    at_close: tuple[float, ...]
    toughness: tuple[float, ...]
    brings_battle: tuple[bool, ...]  # Engage or Run Past (mechanics "Joining battle")
    evades: tuple[bool, ...]
    wants_close: tuple[bool, ...]
    breaks: tuple[bool, ...]
    aims_rigging: tuple[bool, ...]
    run_past: tuple[bool, ...]
    tiers: tuple[Tier, ...]
    battery: float  # strength of the shore battery, 0 if none


def prepare(battle: Battle, rules: CombatRules) -> Prepared:
    ships = battle.ships
    statics = _statics(battle, rules)
    toughness = rules.outcome.toughness
    return Prepared(
        battle=battle,
        rules=rules,
        side=tuple(s.side for s in ships),
        warship=tuple(s.type is not ShipType.TR for s in ships),
        of_line=tuple(s.type in _LINE for s in ships),
        quality=tuple(int(s.quality) for s in ships),
        at_range=tuple(a for a, _ in statics),
        at_close=tuple(c for _, c in statics),
        toughness=tuple(toughness[s.type] for s in ships),
        brings_battle=tuple(s.stance in (CombatStance.ENGAGE, CombatStance.RUN_PAST) for s in ships),
        evades=tuple(s.stance is CombatStance.EVADE for s in ships),
        wants_close=tuple(s.range is Range.CLOSE for s in ships),
        breaks=tuple(s.line is Line.BREAK for s in ships),
        aims_rigging=tuple(s.aim is Aim.RIGGING for s in ships),
        run_past=tuple(s.stance is CombatStance.RUN_PAST for s in ships),
        tiers=tiers(battle),
        battery=battery_strength(rules, battle.battery) if battle.battery else 0.0,
    )


_LINE = frozenset((ShipType.FL, ShipType.SL))


def _statics(battle: Battle, rules: CombatRules) -> list[tuple[float, float]]:
    """Static strengths, computed once per distinct kind of ship in the battle."""
    seen: dict[tuple[object, ...], tuple[float, float]] = {}
    out = []
    for s in battle.ships:
        key = (s.type, s.crew, s.marines, s.quality, s.experience, s.hull, s.rigging, s.aim, s.stance)
        value = seen.get(key)
        if value is None:
            value = seen[key] = static_strength(rules, s)
        out.append(value)
    return out


def tiers(battle: Battle) -> tuple[Tier, ...]:
    """Who can fight whom (rule 7.1 and the mechanics page, README item 4).

    In a harbor, and in coastal waters with onshore winds, everyone fights in
    one battle.  Elsewhere frigates never fight ships of the line: the ships of
    the line fight among themselves with the transports they cover (a frigate
    may not engage a transport group with an allied ship of the line present),
    and the frigates fight among themselves with the uncovered transports.
    Uncovered transports facing no enemy frigate fall to the ships of the line.
    """
    ships = battle.ships
    everyone = tuple(range(len(ships)))
    if battle.open_to_all:
        return (("all", everyone),)
    line_side = [False, False]
    frigate_side = [False, False]
    for s in ships:
        if s.type in _LINE:
            line_side[s.side] = True
        elif s.type is ShipType.FR:
            frigate_side[s.side] = True
    line: list[int] = []
    frigates: list[int] = []
    for i, s in enumerate(ships):
        if s.type in _LINE:
            line.append(i)
        elif s.type is ShipType.FR:
            frigates.append(i)
        elif line_side[s.side] or not frigate_side[1 - s.side]:
            line.append(i)
        else:
            frigates.append(i)
    return (("line", tuple(line)), ("frigates", tuple(frigates)))


class Columns:
    """The mutable working columns of one fight (one object per battle, not per ship)."""

    __slots__ = (
        "captor",
        "close",
        "crew_lost",
        "experience",
        "grounded",
        "hull",
        "marines_lost",
        "outcome",
        "rigging",
        "strength",
    )

    def __init__(self, battle: Battle) -> None:
        n = len(battle.ships)
        self.outcome: list[Outcome] = [Outcome.IDLE] * n
        self.strength: list[float] = [0.0] * n
        self.close: list[bool] = [False] * n
        self.hull: list[int] = [s.hull for s in battle.ships]
        self.rigging: list[int] = [s.rigging for s in battle.ships]
        self.crew_lost: list[int] = [0] * n
        self.marines_lost: list[int] = [0] * n
        self.experience: list[int] = [0] * n
        self.captor: list[int | None] = [None] * n
        self.grounded: list[bool] = [False] * n  # decision 17: aground under the batteries
