"""The numbers the order desk checks against (``data/rules/orders.toml``)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from pate.core.ruledata import RuleData, RulesDataError
from pate.core.world.ships import Ship, ShipType


@dataclass(frozen=True, slots=True)
class OrderLimits:
    sea_areas_per_turn: int  # rule 6.1
    contact_count_max: int  # rule 4.6 (input bound)
    transport_capacity_min: int  # rule 2.5
    transport_capacity_max: int  # rule 2.5
    space_per_extra_store: int  # rule 3.4
    capacity_per_crew: int  # rule 2.7

    @classmethod
    def from_rules(cls, rules: RuleData) -> OrderLimits:
        section = rules.section("orders")
        problems: list[str] = []
        values: dict[str, int] = {}
        for f in fields(cls):
            value = section.get(f.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                problems.append(f"orders.{f.name}: give a whole number, 1 or more")
            else:
                values[f.name] = value
        if problems:
            raise RulesDataError(problems)
        return cls(**values)


def extra_crew_space(capacity: int, crew: int, limits: OrderLimits) -> int:
    """Rule 2.7: a transport group has 1 crew per 10 capacity; each crewman
    above that takes one space."""
    return max(0, crew - capacity // limits.capacity_per_crew)


def extra_stores_space(stores: int, stores_max: int, limits: OrderLimits) -> int:
    """Rule 3.4: each store above the 24 every vessel carries takes 20 spaces."""
    return max(0, stores - stores_max) * limits.space_per_extra_store


def stores_capacity(ship: Ship, rules: RuleData, limits: OrderLimits, reserved: int = 0) -> int:
    """Most stores the ship can carry (rule 3.4): 24 for every ship; a transport
    group may carry more, each extra store taking 20 spaces of the capacity
    left free by its cargo, by crew above 1 per 10 capacity (2.7) and by
    ``reserved`` (room kept for units it is ordered to load)."""
    base = rules.ship_class(ship.type).stores_max
    if ship.type is not ShipType.TR:
        return base
    free = ship.capacity - ship.cargo.space - extra_crew_space(ship.capacity, ship.crew, limits) - reserved
    return base + max(0, free) // limits.space_per_extra_store
