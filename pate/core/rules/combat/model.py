"""Plain inputs and outputs of the battle engine.

The engine knows nothing of the world: the combat phase and the battle
simulator both describe a battle with these values.  Sides are 0 and 1.
Results are column-wise (one tuple per quantity, indexed like
``Battle.ships``) so that thousands of simulated battles cost little.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pate.core.orders.model import Aim, CombatStance, FleeTo, Line, Range
from pate.core.world.geography import WindStrength
from pate.core.world.ships import Quality, ShipType


class Where(StrEnum):
    """The tactical area a battle is fought in (rule 1.2)."""

    SEA = "sea"  # a tactical area of a sea area
    COASTAL = "coastal"  # the coastal waters of a port
    HARBOR = "harbor"


class Outcome(StrEnum):
    FOUGHT = "fought"  # fought and stayed: on the winning side, or in a battle with no winner
    EVADED = "evaded"  # avoided the battle (7.4), or sheltered among its ships of the line
    ESCAPED = "escaped"  # fought, lost, and got away (7.8)
    SUNK = "sunk"  # hull damage reached 5 (2.2)
    CAPTURED = "captured"  # taken as a prize (7.8)
    IDLE = "idle"  # in contact but in no battle (nobody engaged it, or it could not be engaged)


@dataclass(frozen=True, slots=True)
class BattleShip:
    """One ship or transport group with its combat orders (rule 4.7, mechanics page)."""

    key: str  # ship id in the game; "A1", "A2"... in the simulator
    side: int  # 0 or 1
    type: ShipType
    crew: int
    marines: int = 0
    quality: Quality = Quality.AVERAGE
    experience: int = 0
    hull: int = 0
    rigging: int = 0
    stance: CombatStance = CombatStance.ACCEPT
    range: Range = Range.RANGE
    line: Line = Line.LINE_AHEAD
    aim: Aim = Aim.RIGGING
    flee_to: FleeTo = FleeTo.HARBOR


@dataclass(frozen=True, slots=True)
class ShoreBattery:
    """The shore batteries of a port, fighting for ``side`` (rule 7.1, 7.7)."""

    side: int
    defense: int  # the port's defensive rating (rule 1.4)
    damaged: bool = False


@dataclass(frozen=True, slots=True)
class Battle:
    ships: tuple[BattleShip, ...]
    where: Where = Where.SEA
    wind: WindStrength = WindStrength.MODERATE
    onshore: bool = False  # coastal waters only: wind blowing from the sea (mechanics page)
    windward: int | None = None  # side to windward; None: decided by a die roll
    battery: ShoreBattery | None = None

    @property
    def open_to_all(self) -> bool:
        """Mechanics page: in harbors and in coastal waters with onshore winds
        any ship can engage any other; elsewhere frigates fight apart."""
        return self.where is Where.HARBOR or (self.where is Where.COASTAL and self.onshore)


class LineResult(StrEnum):
    """What became of a side's attempt to break the enemy's line (7.6)."""

    NONE = "none"  # no attempt (or too few ships at close quarters)
    MELEE = "melee"  # every ship at close quarters broke: a general melee, no adjustment
    LOST_COORDINATION = "lost_coordination"  # -25%
    BROKE_THROUGH = "broke_through"  # +33%
    HELD = "held"  # kept coordination but the enemy line held: no adjustment


@dataclass(frozen=True, slots=True)
class Engagement:
    """One fight within a battle: the ships of the line (with the transports
    they cover), the frigates, or everyone (harbor, onshore coastal)."""

    tier: str  # "all", "line" or "frigates"
    fought: bool  # False when nobody engaged or one side got clean away
    winner: int | None
    windward: int | None
    strength: tuple[float, float]
    close: bool  # any ship fought at close quarters
    line: tuple[LineResult, LineResult]
    whole_side_evaded: int | None = None  # side that evaded as a group (7.4)


@dataclass(frozen=True, slots=True)
class BattleResult:
    winner: int | None  # of the main engagement; None: no battle or no decision
    outcome: tuple[Outcome, ...]
    strength: tuple[float, ...]  # final strength in the battle (0 when it did not fight)
    close: tuple[bool, ...]  # fought at close quarters
    hull: tuple[int, ...]  # hull damage after the battle, 0..5
    rigging: tuple[int, ...]
    crew_lost: tuple[int, ...]
    marines_lost: tuple[int, ...]
    experience_gained: tuple[int, ...]
    captor: tuple[int | None, ...]  # index of the captor of each captured ship
    engagements: tuple[Engagement, ...]
    battery_damaged: bool | None = None  # None: no battery fought
    grounded: tuple[bool, ...] = ()  # aground under the batteries (decision 17); empty: none

    @property
    def fought(self) -> bool:
        return any(e.fought for e in self.engagements)
