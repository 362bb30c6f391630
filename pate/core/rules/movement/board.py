"""The working state of one movement phase.

The phase reads a frozen :class:`WorldState` and returns a new one; in between
it keeps the ships, what is left of each ship's movement order (its plan), the
winds and the events on this board, local to the phase.  Ships are indexed by
contact key (rule 5.1) so that "who is here" never scans every ship.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.model import ShipOrder, default_order
from pate.core.rules.context import TurnContext
from pate.core.rules.movement.params import MovementRules
from pate.core.rules.storms import StormRules
from pate.core.rules.winds import Heading
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Location, Ship, contact_key, describe
from pate.core.world.state import Wind, WorldState

Key = tuple[str, str, int]


@dataclass(slots=True)
class Plan:
    """What is left of one ship's movement order during the phase."""

    path: list[str]  # sea areas still to sail to (rule 6.1: at most two)
    port: str | None
    any_enemy_port: bool
    harbor: bool
    sail_alone: bool
    done: bool = False  # nothing more to do this phase
    moved_first: bool = False  # sailed in step three
    held_first: bool = False  # held in step three: tries again in step six
    held_port: bool = False  # held at a port in step two: tries again in step five
    stopped: bool = False  # moved first and cannot move again (rule 6.6)
    moved_second: bool = False  # sailed in step six
    first_way: Heading | None = None
    pursuing: str | None = None  # the pursued ship this one follows (rule 6.10)

    def signature(self) -> tuple[Any, ...]:
        """Ships with equal signatures at one location have the same orders left."""
        return (
            tuple(self.path),
            self.port,
            self.any_enemy_port,
            self.harbor,
            self.moved_first,
            self.held_first,
            self.held_port,
            self.stopped,
        )

    @property
    def wants_port(self) -> bool:
        return self.port is not None or self.any_enemy_port


@dataclass(slots=True)
class Board:
    map: WorldMap
    params: MovementRules
    storm_rules: StormRules
    world: WorldState
    orders: Mapping[str, ShipOrder]
    ships: dict[str, Ship]
    winds: dict[str, Wind]
    plans: dict[str, Plan] = field(default_factory=dict)
    storms: set[str] = field(default_factory=set)
    sunk: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    at: dict[Key, set[str]] = field(default_factory=dict)
    _defaults: dict[str, ShipOrder] = field(default_factory=dict)
    _hostile: dict[tuple[str, str], bool] = field(default_factory=dict)
    _allied: dict[tuple[str, str], bool] = field(default_factory=dict)

    @classmethod
    def build(
        cls, ctx: TurnContext, world: WorldState, orders: Mapping[str, ShipOrder], winds: dict[str, Wind]
    ) -> Board:
        board = cls(
            map=ctx.map,
            params=MovementRules.of(ctx.rules),
            storm_rules=StormRules.of(ctx.rules),
            world=world,
            orders=orders,
            ships=dict(world.ships),
            winds=winds,
        )
        for ship in world.ships.values():
            key = contact_key(ship.location)
            if ship.active and key is not None:
                board.at.setdefault(key, set()).add(ship.id)
        return board

    # -- questions -----------------------------------------------------------
    def order(self, sid: str) -> ShipOrder:
        given = self.orders.get(sid)
        if given is not None:
            return given
        if sid not in self._defaults:
            self._defaults[sid] = default_order(sid)
        return self._defaults[sid]

    def here(self, key: Key | None, exclude: Iterable[str] = ()) -> list[Ship]:
        """Active ships in contact at ``key``, sorted by id."""
        if key is None:
            return []
        skip = set(exclude)
        return [self.ships[s] for s in sorted(self.at.get(key, ())) if s not in skip]

    def at_location(self, loc: Location, exclude: Iterable[str] = ()) -> list[Ship]:
        """Ships at exactly this location (a port's harbor and coastal waters apart)."""
        return [s for s in self.here(contact_key(loc), exclude) if s.location == loc]

    def states_of(self, ids: Iterable[str]) -> set[str]:
        return {self.ships[s].state for s in ids}

    def hostile(self, a: str, b: str) -> bool:
        """Diplomacy asked once per pair of states in a phase."""
        pair = (a, b)
        if pair not in self._hostile:
            self._hostile[pair] = self.world.diplomacy.hostile(a, b)
        return self._hostile[pair]

    def allied(self, a: str, b: str) -> bool:
        pair = (a, b)
        if pair not in self._allied:
            self._allied[pair] = self.world.diplomacy.allied(a, b)
        return self._allied[pair]

    def hostile_to(self, ship: Ship, states: Iterable[str]) -> bool:
        return any(self.hostile(ship.state, st) for st in states)

    def allied_to(self, ship: Ship, states: Iterable[str]) -> bool:
        return all(self.allied(ship.state, st) for st in states)

    def hostiles(self, ships: Iterable[Ship], states: Iterable[str]) -> list[Ship]:
        st = tuple(states)
        return [s for s in ships if self.hostile_to(s, st)]

    def port_key(self, port: str) -> Key:
        return ("port", port, 0)

    def sea_area_ships(self, area: str) -> dict[int, list[Ship]]:
        """Ships at sea in a sea area by tactical area (0 tolerated for hand-made data)."""
        out: dict[int, list[Ship]] = {}
        for t in range(self.map.sea_areas[area].tactical_areas + 1):
            present = self.here(("sea", area, t))
            if present:
                out[t] = present
        return out

    def stationary(self, sid: str) -> bool:
        """Not moving this turn, or finished moving (placement weights, 6.8)."""
        plan = self.plans.get(sid)
        if plan is None:
            return True
        return plan.done or not (plan.path or plan.wants_port or plan.pursuing)

    def wind_at(self, loc: Location) -> Wind:
        """Rule 1.4: a port has its connected sea area's wind."""
        if isinstance(loc, InPort):
            return self.winds[self.map.ports[loc.port].sea_area]
        assert isinstance(loc, AtSea)
        return self.winds[loc.area]

    # -- changes -------------------------------------------------------------
    def lift(self, ids: Iterable[str]) -> None:
        """Take ships off the board while they sail (they meet nobody in transit)."""
        for sid in ids:
            key = contact_key(self.ships[sid].location)
            if key is not None:
                self.at.get(key, set()).discard(sid)

    def put(self, sid: str, loc: Location, station: int = 0) -> None:
        """Set a ship down at a location (lifting it first if it is on the board)."""
        self.lift((sid,))
        self.ships[sid] = replace(self.ships[sid], location=loc, station=station)
        key = contact_key(loc)
        if key is not None:
            self.at.setdefault(key, set()).add(sid)

    def update(self, ship: Ship) -> None:
        """Change a ship in place (damage, station) without moving it."""
        self.ships[ship.id] = ship

    def sink(self, sid: str) -> None:
        self.lift((sid,))
        self.sunk.append(sid)
        plan = self.plans.get(sid)
        if plan is not None:
            plan.done = True

    def emit(
        self,
        kind: str,
        ships: Iterable[str],
        loc: Location | str,
        witnesses: Iterable[str] = (),
        **data: Any,
    ) -> None:
        about = tuple(sorted(ships))
        seen = tuple(sorted(set(witnesses) - set(about)))
        where = loc if isinstance(loc, str) else describe(loc)
        self.events.append(
            Event(phase=Phase.MOVEMENT, kind=kind, ships=about, location=where, witnesses=seen, data=data)
        )

    def witnesses_at(self, key: Key | None, exclude: Iterable[str] = ()) -> list[str]:
        return [s.id for s in self.here(key, exclude)]
