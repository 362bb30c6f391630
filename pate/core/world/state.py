"""The world state of a campaign at the start of a turn.

A plain, immutable value: phases take one and return a new one.  It holds
everything that changes during a campaign; the static map lives in
:class:`~pate.core.world.geography.WorldMap`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from pate.core.world.diplomacy import Diplomacy
from pate.core.world.geography import Direction, WindStrength
from pate.core.world.ships import Ship


class TurnKind(StrEnum):
    CAMPAIGN = "campaign"
    PEACE = "peace"  # peace and truce turns (rule 6.12)


class Role(StrEnum):
    NAVAL_MINISTER = "naval_minister"
    COMMANDER = "commander"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class Player:
    id: str  # login name
    name: str  # as shown in reports: "Pierre Villeneuve"
    state: str | None  # None for game administrators
    roles: frozenset[Role] = frozenset({Role.COMMANDER})


@dataclass(frozen=True, slots=True)
class Wind:
    direction: Direction  # the direction the wind blows FROM
    strength: WindStrength


@dataclass(frozen=True, slots=True)
class PortState:
    name: str
    controller: str
    stores: int
    battery_damaged: bool = False
    building: int = 0  # ships under construction, taking yard capacity (3.3)
    building_transports: int = 0  # transports under construction: no yard capacity taken (3.3)
    garrison: tuple[str, ...] = ()  # GITM units in the port (1.5, 5.3)
    strategic_units: tuple[str, ...] = ()  # GITM units in its strategic square, outside the city (5.3)
    supplies: int = (
        0  # GITM supplies in the port city, loadable by transports (section 9, docs/rules/turn.md)
    )


class Headquarters(StrEnum):
    NONE = "none"
    ARMY = "army"
    CORPS = "corps"


@dataclass(frozen=True, slots=True)
class LandUnit:
    """A GITM land unit as PATE needs to know it (rule 1.5, lost section 9):
    its state and its size by arm, for the space it takes aboard a transport
    group.  Where it is lies elsewhere: a port's ``garrison`` or a transport
    group's ``cargo.units``; the GITM bridge keeps the sizes in step."""

    id: str
    state: str
    infantry: int = 0  # men
    cavalry: int = 0
    artillery: int = 0
    batteries: int = 0  # batteries attached to an infantry or cavalry unit
    headquarters: Headquarters = Headquarters.NONE
    supplies: int = 0  # supplies a corps headquarters carries

    @property
    def men(self) -> int:
        return self.infantry + self.cavalry + self.artillery


# The combat rule sets a campaign may choose (docs/formats/scenario.md):
# PATE's own (section 7, the default) or the EiA advanced naval rules (12.2.6-12.2.9).
# the EiA rules, and their Revolution campaign variant (12.2.6.1.1: melee chits removed)
COMBAT_RULESETS = ("pate", "eia-advanced", "eia-advanced-revolution")
# The naval rule sets (docs/formats/scenario.md): PATE's own orders and movement
# (the default) or the EiA new naval rules' fleet markers and operations
# (docs/rules/eia-operations.md).
EIA_OPERATIONS = "eia-operations"  # the naval rule set of the EiA new naval rules
NAVAL_RULESETS = ("pate", EIA_OPERATIONS)


class AdmiralFate(StrEnum):
    ACTIVE = "active"
    WOUNDED = "wounded"
    KILLED = "killed"


@dataclass(frozen=True, slots=True)
class Admiral:
    """A named commander who can be an admiral (rule 12.2.7): present in a
    battle when a ship he commands fights in it."""

    player: str  # the commanding player (Ship.commander)
    nelson: bool = False  # rule 12.2.7 applies to him
    closing_shift: int | None = None  # 12.2.6.1.4.2: 1 or 2, his player's choice; None: the default
    fate: AdmiralFate = AdmiralFate.ACTIVE
    returns_turn: int | None = None  # a wounded admiral commands again from this turn


@dataclass(frozen=True, slots=True)
class WorldState:
    campaign: str
    turn: int  # the turn about to be resolved (1-based)
    turns: int  # campaign length (rule 3.1: 15)
    seed: int
    kind: TurnKind
    diplomacy: Diplomacy
    players: dict[str, Player]
    ships: dict[str, Ship]  # every ship and transport group, by id
    ports: dict[str, PortState]
    winds: dict[str, Wind]  # by sea area code; ports share their sea area's wind (1.4)
    turn_kinds: tuple[TurnKind, ...] = field(default=())  # per turn; empty = all campaign
    land_units: dict[str, LandUnit] = field(
        default_factory=dict
    )  # sizes of GITM units PATE holds (section 9)
    # --- optional EiA advanced naval rules (docs/rules/eia.md) ---
    combat_rules: str = "pate"  # the campaign's combat rule set, one of COMBAT_RULESETS
    admirals: dict[str, Admiral] = field(default_factory=dict)  # named admirals by player id
    # --- optional EiA new naval rules (docs/rules/eia-operations.md) ---
    naval_rules: str = "pate"  # "pate" | "eia-operations"
    treasury: dict[str, int] = field(default_factory=dict)  # $ by state, seen by its naval minister
    # EiA 12.2.6.1.6.3: each state's political points won and lost at sea, the
    # campaign's score of them (the "political status display"); empty under PATE
    political_points: dict[str, int] = field(default_factory=dict)

    def with_ships(self, changed: dict[str, Ship], removed: tuple[str, ...] = ()) -> WorldState:
        ships = dict(self.ships)
        for sid in removed:
            ships.pop(sid, None)
        ships.update(changed)
        return replace(self, ships=ships)

    def unit_state(self, unit: str) -> str:
        """A land unit's state: as PATE knows it (its size was reported or placed), else the
        state code its id begins with (docs/gitm.md: GITM's unit ids begin with it, BR5IN)."""
        known = self.land_units.get(unit)
        return known.state if known is not None else unit[:2]

    def naval_minister(self, state: str) -> Player | None:
        for p in sorted(self.players.values(), key=lambda p: p.id):
            if p.state == state and Role.NAVAL_MINISTER in p.roles:
                return p
        return None
