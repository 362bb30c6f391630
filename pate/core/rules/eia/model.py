"""Plain inputs and outputs of the EiA naval battle engine (rules 12.2.6 to 12.2.8).

Like PATE's engine, it knows nothing of the world: the campaign's combat phase
and ``pate battle`` both describe a battle with these values.  Sides are 0 and
1; ``attacker`` names the side that is the attacker of the tactical naval
chart, the blockading force (12.2.6.2) or the raiding force (12.2.6.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pate.core.rules.eia.params import Chit
from pate.core.rules.eia.tables import Fire
from pate.core.world.ships import ShipType


class Kind(StrEnum):
    OPEN_SEA = "open_sea"  # 12.2.6.1
    BLOCKADE = "blockade"  # 12.2.6.2: in the blockade box (a port's coastal waters)
    PORT_RAID = "port_raid"  # 12.2.6.3: a fleet attacks another lying in a harbor


class Fate(StrEnum):
    FOUGHT = "fought"  # not disabled, and stays (victor, or no victor)
    RETREATED = "retreated"  # not disabled, on the defeated side (12.2.6.1.8)
    RETURNED = "returned"  # blockaded survivors go back into port (12.2.6.2)
    WITHDRAWN = "withdrawn"  # raiders removed to the blockade box (12.2.6.3.4)
    HULK = "hulk"  # disabled, reached the chosen port: a hulk (12.2.6.1.9.1)
    LOST = "lost"  # disabled and lost en route (12.2.6.1.9.1)
    CAPTURED = "captured"  # a transport group of the defeated side, taken by the victor
    IDLE = "idle"  # took no part (a hulk outside a port raid)


class NelsonFate(StrEnum):
    UNHURT = "unhurt"
    WOUNDED = "wounded"
    KILLED = "killed"


@dataclass(frozen=True, slots=True)
class EiaShip:
    key: str
    side: int
    state: str
    type: ShipType
    hulk: bool = False

    @property
    def factor(self) -> bool:
        """docs/rules/eia.md: every warship is one fleet factor; transport groups are none."""
        return self.type is not ShipType.TR


@dataclass(frozen=True, slots=True)
class EiaBattle:
    ships: tuple[EiaShip, ...]
    kind: Kind = Kind.OPEN_SEA
    attacker: int = 0
    chits: tuple[Chit, Chit] = (Chit.LINEAR_DEFENSE, Chit.LINEAR_DEFENSE)  # by side
    nelson: int | None = None  # the side Nelson commands, if he is present
    nelson_shift: int | None = None  # 12.2.6.1.4.2: his player's 1 or 2; None: the rules' default
    # 12.2.7.1: every other naval officer commanding in the battle (player id, side)
    admirals: tuple[tuple[str, int], ...] = ()
    harbor_defense: int = 0  # 12.2.6.3.1: the defence number firing at the raiders
    voyage: tuple[int | None, int | None] = (1, 1)  # movement points home by side; None: no port


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[str | None, str | None]  # by side; None: did not fire
    dice: tuple[int, int]
    modifiers: tuple[int, int]
    disabled: tuple[int, int]  # ships each side disabled
    morale: tuple[float, float]  # morale loss each side inflicted
    closed: bool  # the melee force closed after this round


@dataclass(frozen=True, slots=True)
class Chase:
    table: str
    roll: int
    disabled: int


@dataclass(frozen=True, slots=True)
class EiaResult:
    kind: Kind
    winner: int | None
    morale: tuple[float | None, float | None]  # final morale levels (None: hulks only)
    morale_lost: tuple[float, float]
    broken: tuple[bool, bool]
    rounds: tuple[Round, ...]
    fate: tuple[Fate, ...]  # by ship, like battle.ships
    owner: tuple[int | None, ...]  # side possessing each ship afterwards (None: lost)
    disabled_in: tuple[int, ...]  # round disabled: 0 never, -1 harbor defences, 4 the chase
    chase: Chase | None = None
    harbor_fire: Fire | None = None
    nelson: NelsonFate | None = None
    closing_shift: int = 0
    admiral_fates: tuple[NelsonFate, ...] = ()  # like battle.admirals (12.2.7.1)

    @property
    def fought(self) -> bool:
        return bool(self.rounds) or self.harbor_fire is not None
