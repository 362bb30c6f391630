"""Detection (rule section 5): who sees whom.

This is the one implementation of contact (rule 5.1) for every phase: the
resolver asks it who is in contact before combat and movement, the intel
phase asks it what each ship lists in its position report.  Frigate scouting
(5.2) is here too, as pure functions the intelligence phase draws dice for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pate.core.orders.model import Commerce, ShipOrder
from pate.core.rng import Rng
from pate.core.world.diplomacy import Diplomacy
from pate.core.world.geography import WorldMap
from pate.core.world.ships import (
    AtSea,
    InAtlantic,
    InPort,
    Location,
    Ship,
    ShipType,
    contact_key,
    parse_ship_id,
)
from pate.core.world.state import WorldState

ContactKey = tuple[str, str, int]

_TYPE_RANK = {ShipType.FL: 0, ShipType.SL: 1, ShipType.FR: 2, ShipType.TR: 3}


def ship_sort_key(ship_id: str) -> tuple[str, int, int, str]:
    """The order of the rule book's samples (2.3): by state, flagships, ships
    of the line, frigates, transports, then by number (FR1FL, FR6SL, FR10SL)."""
    parsed = parse_ship_id(ship_id)
    if parsed is None:
        return (ship_id, 9, 0, ship_id)
    state, number, type_ = parsed
    return (state, _TYPE_RANK[type_], number, ship_id)


def sorted_ids(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(ids), key=ship_sort_key))


class Side(StrEnum):
    """How a seen ship stands to the observer (the samples of 2.3)."""

    ALLIED = "allied"  # same state or actively allied
    ENEMY = "enemy"  # at war
    NEUTRAL = "neutral"  # at peace or in truce


class Place(StrEnum):
    """Where a seen ship is, as the report words it (5.1)."""

    SEA = "sea"  # a tactical area of a sea area
    HARBOR = "harbor"
    COASTAL = "coastal"  # the coastal waters of a port
    ATLANTIC = "atlantic"  # crossing together (sample 2.4)


class Bearing(StrEnum):
    WINDWARD = "windward"
    LEEWARD = "leeward"


class Category(StrEnum):
    """What a scout or a report can tell ships apart by (5.2, 5.4)."""

    LINE = "line"  # flagships and ships of the line
    FRIGATES = "frigates"
    TRANSPORTS = "transports"


def category_of(type_: ShipType) -> Category:
    if type_.of_the_line:
        return Category.LINE
    return Category.FRIGATES if type_ is ShipType.FR else Category.TRANSPORTS


@dataclass(frozen=True, slots=True)
class Seen:
    """One ship in a contact list: its identity, side, and where it lies."""

    id: str
    state: str
    type: ShipType
    side: Side
    place: Place
    bearing: Bearing | None = None  # enemies only: to windward or to leeward


@dataclass(frozen=True, slots=True)
class ContactList:
    """What one ship lists under "Ships Visible" in its report (rule 5.1)."""

    ship: str
    seen: tuple[Seen, ...] = ()

    def of(self, side: Side) -> tuple[Seen, ...]:
        return tuple(s for s in self.seen if s.side is side)

    @property
    def enemies(self) -> tuple[Seen, ...]:
        return self.of(Side.ENEMY)


def place_of(loc: Location) -> Place:
    if isinstance(loc, AtSea):
        return Place.SEA
    if isinstance(loc, InPort):
        return Place.HARBOR if loc.harbor else Place.COASTAL
    return Place.ATLANTIC


def side_of(diplomacy: Diplomacy, observer: str, other: str) -> Side:
    if diplomacy.allied(observer, other):
        return Side.ALLIED
    return Side.ENEMY if diplomacy.hostile(observer, other) else Side.NEUTRAL


def bearing_of(observer: Ship, other: Ship) -> Bearing | None:
    """Rule 5.1 / 6.9: stations rank a location from windward (0) to leeward.
    Only ships in the same tactical area (not a harbor) have a gauge; equal
    stations mean the same line, so no bearing is reported."""
    a, b = observer.location, other.location
    if a != b or (isinstance(a, InPort) and a.harbor) or other.station == observer.station:
        return None
    return Bearing.WINDWARD if other.station < observer.station else Bearing.LEEWARD


def in_contact(a: Ship, b: Ship) -> bool:
    """Rule 5.1: same port (harbor or coastal waters alike) or same tactical
    area of the same sea area; inactive ships are off the map (2.6)."""
    if a.id == b.id or not (a.active and b.active):
        return False
    key = contact_key(a.location)
    return key is not None and key == contact_key(b.location)


def contact_groups(world: WorldState) -> dict[ContactKey, tuple[str, ...]]:
    """Active ships grouped by place of contact (rule 5.1), ids in report order.
    Every pair within a group is in contact; no pair across groups is."""
    groups: dict[ContactKey, list[str]] = {}
    for ship in world.ships.values():
        key = contact_key(ship.location) if ship.active else None
        if key is not None:
            groups.setdefault(key, []).append(ship.id)
    return {k: sorted_ids(v) for k, v in sorted(groups.items())}


def _atlantic_groups(world: WorldState) -> dict[tuple[str, str], tuple[str, ...]]:
    """Ships that entered the Atlantic together stay together and can see one
    another (6.11, sample 2.4) though they are in contact with nobody."""
    groups: dict[tuple[str, str], list[str]] = {}
    for ship in world.ships.values():
        if ship.active and isinstance(ship.location, InAtlantic):
            groups.setdefault((ship.location.group, ship.location.destination), []).append(ship.id)
    return {k: sorted_ids(v) for k, v in groups.items()}


def _seen(world: WorldState, observer: Ship, other: Ship) -> Seen:
    side = side_of(world.diplomacy, observer.state, other.state)
    bearing = bearing_of(observer, other) if side is Side.ENEMY else None
    return Seen(other.id, other.state, other.type, side, place_of(other.location), bearing)


def _company(world: WorldState, ship: Ship, groups: Mapping[Any, tuple[str, ...]]) -> tuple[str, ...]:
    loc = ship.location
    if isinstance(loc, InAtlantic):
        return groups.get((loc.group, loc.destination), ())
    key = contact_key(loc)
    return groups.get(key, ()) if key is not None else ()


def contact_list(world: WorldState, ship: Ship) -> ContactList:
    """The contact list of one ship (rule 5.1)."""
    if not ship.active:
        return ContactList(ship.id)
    groups: Mapping[Any, tuple[str, ...]] = (
        _atlantic_groups(world) if isinstance(ship.location, InAtlantic) else contact_groups(world)
    )
    return _list_from(world, ship, _company(world, ship, groups))


def contact_lists(world: WorldState, ship_ids: Iterable[str] | None = None) -> dict[str, ContactList]:
    """Contact lists of many ships at once (every active ship if none named),
    grouping the world once rather than once per ship."""
    groups: dict[Any, tuple[str, ...]] = {**contact_groups(world), **_atlantic_groups(world)}
    wanted = sorted_ids(world.ships if ship_ids is None else ship_ids)
    out: dict[str, ContactList] = {}
    for sid in wanted:
        ship = world.ships.get(sid)
        if ship is None:
            continue
        company = _company(world, ship, groups) if ship.active else ()
        out[sid] = _list_from(world, ship, company)
    return out


def _list_from(world: WorldState, ship: Ship, company: Sequence[str]) -> ContactList:
    seen = tuple(_seen(world, ship, world.ships[o]) for o in company if o != ship.id)
    return ContactList(ship.id, seen)


def enemies_in_contact(world: WorldState, ship: Ship) -> tuple[Ship, ...]:
    """Hostile ships in contact with this one (rules 5.1, 7.1), in id order."""
    return tuple(
        world.ships[s.id] for s in contact_list(world, ship).enemies if s.place is not Place.ATLANTIC
    )


# --- rule 5.2: frigate scouting ---------------------------------------------


class ScoutingMode(StrEnum):
    RAIDING = "raiding"
    PATROLLING = "patrolling"
    CONVOYING = "convoying"
    REFITTING = "refitting"


@dataclass(frozen=True, slots=True)
class ScoutingRules:
    raiding_percent: int
    patrolling_percent: int
    convoying_percent: int
    refitting_percent: int
    refit_damage: int
    number_spread_percent: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> ScoutingRules:
        return cls(
            raiding_percent=int(d.get("raiding_percent", 70)),
            patrolling_percent=int(d.get("patrolling_percent", 60)),
            convoying_percent=int(d.get("convoying_percent", 30)),
            refitting_percent=int(d.get("refitting_percent", 25)),
            refit_damage=int(d.get("refit_damage", 1)),
            number_spread_percent=int(d.get("number_spread_percent", 40)),
        )

    def chance(self, mode: ScoutingMode) -> int:
        return {
            ScoutingMode.RAIDING: self.raiding_percent,
            ScoutingMode.PATROLLING: self.patrolling_percent,
            ScoutingMode.CONVOYING: self.convoying_percent,
            ScoutingMode.REFITTING: self.refitting_percent,
        }[mode]


def scouts(ship: Ship) -> bool:
    """Rule 5.2: an active frigate at sea, that is in a sea area."""
    return ship.active and ship.type is ShipType.FR and isinstance(ship.location, AtSea)


def scouting_mode(ship: Ship, order: ShipOrder, rules: ScoutingRules) -> ScoutingMode:
    if max(ship.hull, ship.rigging) >= rules.refit_damage:
        return ScoutingMode.REFITTING
    if order.commerce is Commerce.RAID:
        return ScoutingMode.RAIDING
    if order.commerce is Commerce.CONVOY:
        return ScoutingMode.CONVOYING
    return ScoutingMode.PATROLLING


@dataclass(frozen=True, slots=True)
class ScoutTarget:
    """A place a frigate may sight: another tactical area of its sea area, or
    the harbor or coastal waters of a port connected to it (rule 5.2)."""

    place: Place
    sea_area: str
    tactical: int | None = None
    port: str | None = None

    @property
    def key(self) -> str:
        return f"{self.sea_area}:{self.tactical}" if self.port is None else f"{self.port}:{self.place}"


def scout_targets(
    world_map: WorldMap, world: WorldState, frigate: Ship
) -> list[tuple[ScoutTarget, list[Ship]]]:
    """Places in the frigate's sea area holding active enemy ships it is not
    in contact with, each with those enemies in id order."""
    loc = frigate.location
    assert isinstance(loc, AtSea)
    ports = set(world_map.connected_ports(loc.area))
    found: dict[ScoutTarget, list[Ship]] = {}
    for ship in world.ships.values():
        if not ship.active or not world.diplomacy.hostile(frigate.state, ship.state):
            continue
        where = ship.location
        if isinstance(where, AtSea) and where.area == loc.area and where.tactical != loc.tactical:
            target = ScoutTarget(Place.SEA, loc.area, tactical=where.tactical)
        elif isinstance(where, InPort) and where.port in ports:
            target = ScoutTarget(place_of(where), loc.area, port=where.port)
        else:
            continue
        found.setdefault(target, []).append(ship)
    return [
        (t, sorted(ships, key=lambda s: ship_sort_key(s.id)))
        for t, ships in sorted(found.items(), key=lambda kv: kv[0].key)
    ]


def estimate(true_count: int, spread_percent: int, rng: Rng) -> int:
    """An approximate number: the true count scaled by a factor drawn from
    100 - spread to 100 + spread percent, rounded half up, at least 1."""
    spread = max(0, min(100, spread_percent))
    factor = rng.randint(100 - spread, 100 + spread)
    return max(1, (true_count * factor + 50) // 100)


def count_groups(ships: Iterable[Ship]) -> list[tuple[str, Category, int]]:
    """Ships counted by (state, category), in a fixed order."""
    counts: dict[tuple[str, Category], int] = {}
    for ship in ships:
        key = (ship.state, category_of(ship.type))
        counts[key] = counts.get(key, 0) + 1
    return [(state, cat, n) for (state, cat), n in sorted(counts.items())]


def scout(
    world_map: WorldMap, world: WorldState, frigate: Ship, order: ShipOrder, *, rules: ScoutingRules, rng: Rng
) -> list[dict[str, Any]]:
    """The sightings of one frigate (rule 5.2), JSON-safe: per place sighted,
    one entry per state and class with an approximate number and no ids.
    Each place has its own stream, so what lies elsewhere changes no dice."""
    chance = rules.chance(scouting_mode(frigate, order, rules))
    out: list[dict[str, Any]] = []
    for target, enemies in scout_targets(world_map, world, frigate):
        place_rng = rng.fork(frigate.id, target.key)
        if not place_rng.chance(chance):
            continue
        for state, cat, n in count_groups(enemies):
            out.append(
                {
                    "by": frigate.id,
                    "sea_area": target.sea_area,
                    "place": target.place.value,
                    "port": target.port,
                    "tactical": target.tactical,
                    "state": state,
                    "category": cat.value,
                    "estimate": estimate(n, rules.number_spread_percent, place_rng.fork(state, cat.value)),
                }
            )
    return out
