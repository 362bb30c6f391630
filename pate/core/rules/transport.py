"""Space aboard transport groups (rules 2.4, 2.7, 3.4; recovered section 9).

A transport group's capacity holds its land units and supplies, its crew
above 1 per 10 capacity (2.7) and its stores above the 24 every vessel
carries (3.4).  The numbers are in ``data/rules/amphibious.toml`` (space per
man and per headquarters) and ``data/rules/orders.toml`` (crew and stores).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.orders.limits import OrderLimits, extra_crew_space, extra_stores_space, stores_capacity
from pate.core.ruledata import RuleData
from pate.core.world.ships import Ship, ShipType
from pate.core.world.state import Headquarters, LandUnit, WorldState


@dataclass(frozen=True, slots=True)
class SpaceRules:
    infantry_per_man: int
    cavalry_per_man: int
    artillery_per_man: int
    artillerists_per_battery: int
    army_headquarters: int
    corps_headquarters: int
    per_supply: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> SpaceRules:
        return cls(
            infantry_per_man=int(d.get("infantry_per_man", 1)),
            cavalry_per_man=int(d.get("cavalry_per_man", 3)),
            artillery_per_man=int(d.get("artillery_per_man", 2)),
            artillerists_per_battery=int(d.get("artillerists_per_battery", 100)),
            army_headquarters=int(d.get("army_headquarters", 250)),
            corps_headquarters=int(d.get("corps_headquarters", 500)),
            per_supply=int(d.get("per_supply", 20)),
        )

    @classmethod
    def of(cls, rules: RuleData) -> SpaceRules:
        return cls.from_section(rules.section("amphibious").get("space", {}))


def unit_space(unit: LandUnit, r: SpaceRules) -> int:
    """Recovered section 9: infantry 1 a man, cavalry 3, artillery 2; an
    attached battery counts 100 of the unit's men as artillerists (taken from
    its cavalry first, horse artillery being the usual attachment of
    cavalry); an army headquarters 250, a corps headquarters 500 plus 20 per
    supply it carries."""
    gunners = min(unit.batteries * r.artillerists_per_battery, unit.infantry + unit.cavalry)
    from_cavalry = min(gunners, unit.cavalry)
    from_infantry = gunners - from_cavalry
    space = (
        (unit.infantry - from_infantry) * r.infantry_per_man
        + (unit.cavalry - from_cavalry) * r.cavalry_per_man
        + (unit.artillery + gunners) * r.artillery_per_man
    )
    if unit.headquarters is Headquarters.ARMY:
        space += r.army_headquarters
    elif unit.headquarters is Headquarters.CORPS:
        space += r.corps_headquarters + unit.supplies * r.per_supply
    return space


def force_space(units: Iterable[LandUnit], supplies: int, r: SpaceRules) -> int:
    """The space a force needs: its units and its loose supplies."""
    return sum(unit_space(u, r) for u in units) + supplies * r.per_supply


def known_space(world: WorldState, unit_ids: Iterable[str], r: SpaceRules) -> int:
    """Space of the units whose size PATE knows (unknown ones count 0)."""
    return sum(unit_space(world.land_units[u], r) for u in unit_ids if u in world.land_units)


def extra_crew(ship: Ship, limits: OrderLimits) -> int:
    """Rule 2.7: crew above 1 per 10 capacity takes one space each."""
    if ship.type is not ShipType.TR:
        return 0
    return extra_crew_space(ship.capacity, ship.crew, limits)


def free_space(ship: Ship, rules: RuleData, limits: OrderLimits) -> int:
    """Capacity left for units and supplies, as the group stands."""
    if ship.type is not ShipType.TR:
        return 0
    stores_max = rules.ship_class(ship.type).stores_max
    used = ship.cargo.space + extra_crew(ship, limits) + extra_stores_space(ship.stores, stores_max, limits)
    return ship.capacity - used


def stores_room(ship: Ship, rules: RuleData, limits: OrderLimits, reserved: int = 0) -> int:
    """Most stores the vessel may carry (3.4), keeping ``reserved`` spaces free."""
    return stores_capacity(ship, rules, limits, reserved)
