"""The order form (rules 4.3 to 4.9) as plain values.

One :class:`ShipOrder` per ship or transport group per turn.  Defaults are the
default orders of rule 4.11, so a ship with no order carries out
``ShipOrder(ship_id)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pate.core.orders.operation import Operation


class ContactMode(StrEnum):
    PURSUE = "pursue"
    EVADE = "evade"
    ACCEPT = "accept"


class Gauge(StrEnum):
    WINDWARD = "windward"
    LEEWARD = "leeward"


class CombatStance(StrEnum):
    ENGAGE = "engage"
    ACCEPT = "accept"
    EVADE = "evade"
    RUN_PAST = "run_past"


class Range(StrEnum):
    RANGE = "range"
    CLOSE = "close"


class Line(StrEnum):
    LINE_AHEAD = "line_ahead"
    BREAK = "break"


class Aim(StrEnum):
    HULL = "hull"
    RIGGING = "rigging"


class FleeTo(StrEnum):
    HARBOR = "harbor"
    SEA = "sea"


class Commerce(StrEnum):
    RAID = "raid"
    CONVOY = "convoy"
    IGNORE = "ignore"


@dataclass(frozen=True, slots=True)
class Movement:
    """Rule 4.5 / 6.1: up to two sea areas and one port."""

    sea_areas: tuple[str, ...] = ()
    port: str | None = None
    any_enemy_port: bool = False  # "any port with an enemy ship"
    harbor: bool = False  # enter the harbor (else stay in the coastal waters)
    sail_alone: bool = False

    @property
    def moves(self) -> bool:
        return bool(self.sea_areas or self.port or self.any_enemy_port)


@dataclass(frozen=True, slots=True)
class Contact:
    """Rule 4.6."""

    mode: ContactMode = ContactMode.ACCEPT
    minimum: int | None = None
    maximum: int | None = None
    join_allies: bool = True
    gauge: Gauge = Gauge.LEEWARD
    pursue_into_ports: bool = True  # rule 6.10: False abandons a pursuit at a port's coastal waters

    def acts_on(self, enemies: int) -> bool:
        """Whether pursue or evade applies to this many enemy ships (rule 4.6).

        The prose of 4.6 says "if the minimum is less than the maximum" twice;
        its examples settle it: min <= max acts inside [min, max], min > max acts
        outside the open interval (max, min), i.e. on <= max or >= min.
        """
        lo, hi = self.minimum, self.maximum
        if lo is None and hi is None:
            return True
        if hi is None:
            return enemies >= lo  # type: ignore[operator]
        if lo is None:
            return enemies <= hi
        if lo <= hi:
            return lo <= enemies <= hi
        return enemies <= hi or enemies >= lo

    def effective_mode(self, enemies: int) -> ContactMode:
        if self.mode is ContactMode.ACCEPT or self.acts_on(enemies):
            return self.mode
        return ContactMode.ACCEPT


@dataclass(frozen=True, slots=True)
class Combat:
    """Rule 4.7 and the combat mechanics page: the six decisions."""

    stance: CombatStance = CombatStance.ACCEPT
    range: Range = Range.RANGE
    line: Line = Line.LINE_AHEAD
    aim: Aim = Aim.RIGGING
    flee_to: FleeTo = FleeTo.HARBOR
    # EiA 12.2.6.1.4.2: Nelson's 1 or 2 off the closing roll in this turn's
    # battles (his ships only; None: the scenario's choice, else the rules' default)
    closing_shift: int | None = None


@dataclass(frozen=True, slots=True)
class Amphibious:
    """Rule 4.9 / section 9: GITM units and supplies to load or unload."""

    load_units: tuple[str, ...] = ()
    unload_units: tuple[str, ...] = ()
    load_supplies: int = 0
    unload_supplies: int = 0

    @property
    def empty(self) -> bool:
        return not (self.load_units or self.unload_units or self.load_supplies or self.unload_supplies)


class AdminKind(StrEnum):
    INACTIVATE = "inactivate"  # rule 2.6
    REACTIVATE = "reactivate"  # rule 2.6
    TRANSFER_CREW = "transfer_crew"  # rule 2.7
    DIVIDE = "divide"  # rule 2.5
    COMBINE = "combine"  # rule 2.5
    SCUTTLE = "scuttle"  # rule 4.10 (recovered)


@dataclass(frozen=True, slots=True)
class AdminOrder:
    kind: AdminKind
    target: str | None = None  # the other ship (crew transfer, combine)
    amount: int = 0  # crew to transfer, capacity to split off


@dataclass(frozen=True, slots=True)
class ShipOrder:
    ship_id: str
    attach_to: str | None = None  # rule 4.4
    detach: bool = False
    movement: Movement = field(default_factory=Movement)
    contact: Contact = field(default_factory=Contact)
    combat: Combat = field(default_factory=Combat)
    commerce: Commerce = Commerce.IGNORE
    stores: int | None = None  # stores to carry; None keeps what is aboard
    amphibious: Amphibious = field(default_factory=Amphibious)
    admin: tuple[AdminOrder, ...] = ()
    operation: Operation | None = None  # the fleet's naval operation (naval_rules "eia-operations")


@dataclass(frozen=True, slots=True)
class StoresMove:
    """Rule 3.5: the naval minister of ``state`` moves stores between ports.
    Not a ship's order: the desk takes it from the minister and the resolver
    carries it out in the supply phase (pate.core.rules.stores)."""

    state: str  # the ordering minister's state
    origin: str  # port names
    destination: str
    amount: int


def default_order(ship_id: str) -> ShipOrder:
    """Rule 4.11: no move, keep attachment, accept contact, join allies,
    accept combat, leeward gauge, line ahead, aim at rigging."""
    return ShipOrder(ship_id)
