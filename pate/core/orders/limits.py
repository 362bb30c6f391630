"""The numbers the order desk checks against (``data/rules/orders.toml``)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from pate.core.rules.data import RuleData, RulesDataError
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


def stores_capacity(ship: Ship, rules: RuleData, limits: OrderLimits) -> int:
    """Most stores the ship can carry (rule 3.4): 24 for every ship; a transport
    group may carry more, each extra store taking 20 spaces of the capacity
    left free by its cargo and by crew above 1 per 10 capacity (2.7)."""
    base = rules.ship_class(ship.type).stores_max
    if ship.type is not ShipType.TR:
        return base
    extra_crew = max(0, ship.crew - ship.capacity // limits.capacity_per_crew)
    free = ship.capacity - ship.cargo.space - extra_crew
    return base + max(0, free) // limits.space_per_extra_store
