"""What every decision of one player's turn shares: his view, the chart,
his level and his dice, and the places he counts as friendly or hostile."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from pate.admiral.levels import Level
from pate.admiral.navigation import Chart
from pate.admiral.view import WEIGHT, OwnShip, View
from pate.core.rng import Rng
from pate.core.world.geography import WorldMap

FULL_STORES = 24  # rule 3.4: what every vessel carries


@dataclass(frozen=True)
class Plan:
    view: View
    chart: Chart
    level: Level
    seed: int
    port_cache: dict[tuple[str, str], str | None] = field(default_factory=dict)

    @property
    def map(self) -> WorldMap:
        return self.chart.map

    def rng(self, *key: object) -> Rng:
        """The dice of one decision: from (campaign seed, turn, player, key),
        so that one ship's choice never moves another's."""
        return Rng.for_phase(self.seed, self.view.turn, "admiral", self.view.player, *key)

    @cached_property
    def friendly_ports(self) -> tuple[str, ...]:
        """Ports the player may count on for stores and repair (3.3, 3.4):
        a naval minister's own (his report lists them); the others know the
        map's holders only."""
        own = set(self.view.own_ports)
        held = {p.name for p in self.map.ports.values() if p.controller in self.view.allies}
        return tuple(sorted(own | held - set(self.view.enemy_ports)))

    @cached_property
    def enemy_held_ports(self) -> tuple[str, ...]:
        return tuple(
            sorted(
                p.name
                for p in self.map.ports.values()
                if p.controller in self.view.enemies and p.name not in self.view.own_ports
            )
        )

    @cached_property
    def enemy_trade_areas(self) -> frozenset[str]:
        """Where the enemy's merchants sail: the sea areas of the ports his
        states hold (data/rules/commerce.toml [spread])."""
        return frozenset(self.map.ports[p].sea_area for p in self.enemy_held_ports)

    @cached_property
    def own_trade_areas(self) -> frozenset[str]:
        return frozenset(p.sea_area for p in self.map.ports.values() if p.controller == self.view.state)

    def weight(self, ships: Iterable[OwnShip]) -> float:
        """A squadron's fighting weight in enemy ships: damage costs a tenth
        a point, each point of quality gives a tenth (7.6, the combat rules'
        quality_pct_per_point), and the enemy, whose crews the player
        cannot see, is taken to be of the level's ``enemy_quality``."""
        own = sum(
            WEIGHT.get(s.type, 1.0) * max(0.3, 1.0 - 0.1 * s.damage) * (1.0 + 0.1 * s.quality) for s in ships
        )
        return own / (1.0 + 0.1 * self.level.enemy_quality)

    def danger(self, area: str) -> float:
        """The enemy known in the area: seen this turn, else remembered from an
        earlier sighting at half its weight for every turn of its age (it may
        have sailed on; a squadron does not chase it, _hunt reads this turn's)."""
        now = self.view.enemy_weight.get(area, 0.0)
        weight, age = self.view.remembered.get(area, (0.0, 0))
        return max(now, weight * 0.5**age)

    def nearest_friendly_port(self, ship: OwnShip) -> str | None:
        """The ship's base if it is friendly and on its map, else the
        friendly port cheapest to reach (one search for every ship of a
        kind in one sea area)."""
        home_map = self.map.sea_areas[ship.area].map
        if (
            ship.base in self.friendly_ports
            and self.map.sea_areas[self.map.ports[ship.base].sea_area].map == home_map
        ):
            return ship.base
        key = (ship.type, ship.area)
        if key not in self.port_cache:
            self.port_cache[key] = self._nearest(ship.type, ship.area)
        return self.port_cache[key]

    def _nearest(self, ship_type: str, area: str) -> str | None:
        by_area: dict[str, list[str]] = {}
        for p in self.friendly_ports:
            for a in self.map.ports[p].reachable_sea_areas:
                by_area.setdefault(a, []).append(p)
        way = self.chart.way(ship_type, area, by_area)
        if way is None:
            return None
        return min(by_area[way[-1] if way else area])
