"""The world as one player pictures it, built from his knowledge alone.

A preview must never show what the player cannot see (rule 3.11: a report
holds what his ships observed), so the world it plays is built from his
:class:`~pate.core.intel.model.PlayerKnowledge`, the static map and the rule
data, and the campaign's public settings, and from nothing else: no campaign
seed, no ship he has not seen, no true value he was not told.
What he cannot know takes the typical value documented in docs/rules/intel.md
("Previews").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pate.core.intel.model import PlayerKnowledge, ShipReport, Sighting
from pate.core.ruledata import RuleData
from pate.core.rules.detection import Bearing, Category, Place, Seen
from pate.core.rules.transport import SpaceRules
from pate.core.world.diplomacy import Diplomacy, State
from pate.core.world.geography import WorldMap
from pate.core.world.ships import (
    AtSea,
    Cargo,
    InAtlantic,
    InPort,
    Location,
    Quality,
    Ship,
    ShipType,
    parse_ship_id,
    ship_id,
)
from pate.core.world.state import Player, PortState, Role, TurnKind, Wind, WorldState

# A frigate's sighting gives a number, not identities (5.2): each sighted ship
# stands in the picture under a made-up id numbered from here, above any
# number a scenario gives, and no sighting puts more than this many ships in.
SIGHTED_FROM = 9000
SIGHTED_MOST = 40
# Rule 6.9's stations: a seen enemy's bearing (5.1) is all the player knows of
# where it lies; his own ships stand between windward and leeward.
_STATION = {Bearing.WINDWARD: 0, None: 1, Bearing.LEEWARD: 2}
_CATEGORY_TYPE = {
    Category.LINE: ShipType.SL,
    Category.FRIGATES: ShipType.FR,
    Category.TRANSPORTS: ShipType.TR,
}
TYPICAL_TRANSPORT_CAPACITY = 2000  # the smallest transport group (rule 2.5)


@dataclass(frozen=True, slots=True)
class Setting:
    """The campaign's public settings a player is told when he joins."""

    turns: int = 15
    combat_rules: str = "pate"
    naval_rules: str = "pate"


def picture_world(k: PlayerKnowledge, world_map: WorldMap, rules: RuleData, setting: Setting) -> WorldState:
    """The world at the start of turn ``k.next_turn`` as the player knows it."""
    me = Player(k.player, k.player_name, k.state, _roles(k))
    ships: dict[str, Ship] = {r.id: _own_ship(r, k, rules) for r in k.ships}
    for seen, loc in _seen_ships(k):
        if seen.id not in ships:
            ships[seen.id] = _typical(seen.id, seen.state, seen.type, loc, rules, _STATION[seen.bearing])
    for ship in _sighted(k, ships, world_map, rules):
        ships[ship.id] = ship
    return WorldState(
        campaign=k.campaign,
        turn=k.next_turn,
        turns=setting.turns,
        seed=0,  # each run gives its own (pate.core.preview.run)
        kind=TurnKind.PEACE if k.next_peace else TurnKind.CAMPAIGN,
        diplomacy=_diplomacy(k),
        players={me.id: me},
        ships=ships,
        ports=_ports(k, world_map),
        winds={w.sea_area: Wind(w.direction, w.strength) for w in k.winds},
        combat_rules=setting.combat_rules,
        naval_rules=setting.naval_rules,
        political_points=dict(k.political_points),
    )


def _roles(k: PlayerKnowledge) -> frozenset[Role]:
    return (
        frozenset({Role.COMMANDER, Role.NAVAL_MINISTER}) if k.naval_minister else frozenset({Role.COMMANDER})
    )


def _officer(name: str, k: PlayerKnowledge) -> str | None:
    """Reports name officers, not their logins: the player is himself; another
    officer stands under his name, a login no one previewing holds."""
    if not name:
        return None
    return k.player if name == k.player_name else f"officer:{name}"


def _own_ship(r: ShipReport, k: PlayerKnowledge, rules: RuleData) -> Ship:
    parsed = parse_ship_id(r.id)
    per_supply = SpaceRules.of(rules).per_supply
    return Ship(
        id=r.id,
        state=r.state,
        type=r.type,
        number=parsed[1] if parsed else 0,
        name=r.name,
        location=r.location,
        base=r.base,
        quality=Quality.from_label(r.quality),
        experience=r.experience,
        morale=r.morale,
        stores=r.stores,
        crew=r.crew,
        marines=r.marines,
        capacity=r.capacity,
        hull=r.hull,
        rigging=r.rigging,
        commander=_officer(r.commander, k),
        deputy=_officer(r.deputy, k),
        attached_to=r.attached_to,
        active=r.active,
        station=_STATION[None],
        cargo=Cargo(units=r.carrying, supplies=r.supplies, space=r.supplies * per_supply),
    )


def _typical(sid: str, state: str, type_: ShipType, loc: Location, rules: RuleData, station: int) -> Ship:
    """A ship the player only saw: its class's full crew and Marines, full
    stores, an average crew, no damage (docs/rules/intel.md, "Previews")."""
    cls = rules.ship_class(type_)
    parsed = parse_ship_id(sid)
    transport = type_ is ShipType.TR
    capacity = TYPICAL_TRANSPORT_CAPACITY if transport else 0
    return Ship(
        id=sid,
        state=state,
        type=type_,
        number=parsed[1] if parsed else 0,
        name=sid,
        location=loc,
        base="",
        quality=Quality.AVERAGE,
        stores=cls.stores_max,
        crew=capacity // 10 if transport else cls.max_crew,
        marines=cls.max_marines,
        capacity=capacity,
        station=station,
    )


def _seen_place(observer: Location, place: Place) -> Location | None:
    """Rule 5.1: a contact is in the observer's port or tactical area."""
    if place is Place.SEA and isinstance(observer, AtSea):
        return observer
    if place in (Place.HARBOR, Place.COASTAL) and isinstance(observer, InPort):
        return InPort(observer.port, place is Place.HARBOR)
    return None  # the Atlantic: ships crossing meet nobody (6.11)


def _seen_ships(k: PlayerKnowledge) -> Iterator[tuple[Seen, Location]]:
    for r in k.ships:
        if isinstance(r.location, InAtlantic):
            continue
        for seen in r.visible:
            loc = _seen_place(r.location, seen.place)
            if loc is not None:
                yield seen, loc


def _sighting_place(s: Sighting, world_map: WorldMap) -> Location | None:
    if s.port is not None and s.place in (Place.HARBOR, Place.COASTAL):
        return InPort(s.port, s.place is Place.HARBOR) if s.port in world_map.ports else None
    area = world_map.sea_areas.get(s.sea_area)
    if area is None:
        return None
    middle = (area.tactical_areas + 1) // 2  # no tactical area told: the middle of the sea area
    return AtSea(s.sea_area, s.tactical if s.tactical is not None else middle)


def _sighted(
    k: PlayerKnowledge, known: dict[str, Ship], world_map: WorldMap, rules: RuleData
) -> Iterator[Ship]:
    """Rule 5.2: ships a frigate sighted, as many as it estimated, of the
    class of their category, unless ships already seen stand there."""
    taken = {(s.state, s.type, s.location) for s in known.values()}
    numbers = {p[1] for sid in known if (p := parse_ship_id(sid)) is not None}
    number = max([SIGHTED_FROM - 1, *numbers]) + 1
    for s in sorted(
        k.sightings, key=lambda s: (s.sea_area, s.port or "", s.tactical or 0, s.state, s.category)
    ):
        loc = _sighting_place(s, world_map)
        type_ = _CATEGORY_TYPE[s.category]
        if loc is None or (s.state, type_, loc) in taken or len(s.state) != 2:
            continue
        taken.add((s.state, type_, loc))
        for _ in range(max(0, min(s.estimate, SIGHTED_MOST))):
            yield _typical(ship_id(s.state, number, type_), s.state, type_, loc, rules, _STATION[None])
            number += 1


def _diplomacy(k: PlayerKnowledge) -> Diplomacy:
    """His state's wars and alliances as his report lists them; between other
    states he knows of no war."""
    states = {s.code: State(s.code, s.nation, s.name) for s in k.states}
    me = k.state
    if me is None:
        return Diplomacy.build(states)
    return Diplomacy.build(
        states,
        wars=[(me, e) for e in sorted(k.enemies) if e != me],
        alliances=[(me, a) for a in sorted(k.allies) if a != me],
    )


def _ports(k: PlayerKnowledge, world_map: WorldMap) -> dict[str, PortState]:
    """Every port as the map gives it; a naval minister's own ports as his report does (3.3)."""
    ports = {n: PortState(n, p.controller, p.stores) for n, p in sorted(world_map.ports.items())}
    for r in k.ports:
        if r.name in ports and k.state is not None:
            ports[r.name] = PortState(
                r.name,
                k.state,
                r.stores,
                battery_damaged=r.battery_damaged,
                building=r.building,
                building_transports=r.building_transports,
                garrison=r.garrison,
                supplies=r.supplies,
            )
    return ports
