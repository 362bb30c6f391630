"""What a sea area map shows (rules 1.6, 5.1, 5.2): the area, its wind, its
neighbours and ports, and ship icons wherever the player's ships are, are in
contact with others, or a frigate sighted enemies.  Built from the knowledge
alone; the text and SVG renderers both draw from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from pate.core.intel.model import PlayerKnowledge, Sighted
from pate.core.rules.detection import Bearing, Category, Place, category_of, ship_sort_key
from pate.core.world.geography import Direction, WorldMap
from pate.core.world.ships import AtSea, InPort, Location, ShipType, parse_ship_id
from pate.reports.sightings import age_text, merged_sightings, shown_now_elsewhere, source_text
from pate.reports.words import (
    CATEGORY_PLURAL,
    CATEGORY_SINGULAR,
    PLACE_PHRASE,
    TYPE_WORDS,
    adjective,
    and_list,
    area_name,
    ids_text,
    map_area,
    wind_text,
)


@dataclass(slots=True)
class Icon:
    state: str
    category: Category
    side: str  # "own", "allied", "enemy" or "neutral"
    ids: list[str] = field(default_factory=list)  # known identities (5.1)
    estimate: int | None = None  # a frigate's approximate number (5.2)
    scouted_by: str | None = None  # the frigates, "FR1FR and FR2FR"
    estimate_high: int | None = None  # frigates together estimated from estimate to this
    bearing: Bearing | None = None
    age: int = 0  # turns since it was seen: 0 current, more a fading sighting not seen since
    source: str = ""  # who saw it, how near and when ("named by FR3FL, in contact; ...")


@dataclass(slots=True)
class Spot:
    key: str
    place: Place
    tactical: int | None = None
    port: str | None = None
    icons: list[Icon] = field(default_factory=list)


@dataclass(slots=True)
class AreaPicture:
    code: str
    name: str
    wind: str | None
    neighbours: dict[Direction, list[str]]
    ports: list[tuple[str, Direction]]  # connected ports and their exits
    spots: list[Spot]


def spot_key(place: Place, tactical: int | None, port: str | None) -> str:
    return f"sea:{tactical}" if place is Place.SEA else f"{place.value}:{port}"


def _spot_of(loc: Location) -> tuple[Place, int | None, str | None]:
    if isinstance(loc, AtSea):
        return Place.SEA, loc.tactical, None
    assert isinstance(loc, InPort)
    return (Place.HARBOR if loc.harbor else Place.COASTAL), None, loc.port


def areas_shown(k: PlayerKnowledge, world_map: WorldMap) -> list[str]:
    """The sea areas with a map in the position report: those where the
    player has active ships (3.11), in code order."""
    return sorted({a for r in k.ships if r.active and (a := map_area(world_map, r.location)) is not None})


def area_picture(k: PlayerKnowledge, world_map: WorldMap, code: str) -> AreaPicture:
    spots: dict[str, Spot] = {}
    own = {r.id for r in k.ships}

    def add(
        where: tuple[Place, int | None, str | None], sid: str, state: str, type_: ShipType, side: str
    ) -> Icon:
        place, tactical, port = where
        key = spot_key(place, tactical, port)
        spot = spots.setdefault(key, Spot(key, place, tactical, port))
        cat = category_of(type_)
        for icon in spot.icons:
            if icon.state == state and icon.category is cat and icon.side == side and icon.estimate is None:
                if sid not in icon.ids:
                    icon.ids.append(sid)
                return icon
        icon = Icon(state, cat, side, [sid])
        spot.icons.append(icon)
        return icon

    for r in k.ships:
        if not r.active or map_area(world_map, r.location) != code:
            continue
        place, tactical, port = _spot_of(r.location)
        add((place, tactical, port), r.id, r.state, r.type, "own")
        for s in r.visible:
            s_place = s.place if port is not None else Place.SEA
            icon = add(
                (s_place, tactical, port), s.id, s.state, s.type, "own" if s.id in own else s.side.value
            )
            icon.bearing = icon.bearing or s.bearing
    _add_counted(k, spots, code)
    for sd in k.picture:
        # a report of a whole sea area (5.4) has no tactical area to be drawn in
        if sd.sea_area == code and not shown_now_elsewhere(sd, k) and (sd.tactical or sd.port):
            _add_sighted(k, spots, sd)
    area = world_map.sea_areas.get(code)
    neighbours = {
        d: [area_name(world_map, c) for c in (area.neighbours_in(d) if area else ())] for d in Direction
    }
    ports = [(p, world_map.ports[p].exit) for p in world_map.connected_ports(code)]
    for spot in spots.values():
        for icon in spot.icons:
            icon.ids.sort(key=ship_sort_key)
    order = {Place.SEA: 0, Place.COASTAL: 1, Place.HARBOR: 2, Place.ATLANTIC: 3}
    return AreaPicture(
        code=code,
        name=area_name(world_map, code),
        wind=wind_text(k, code),
        neighbours=neighbours,
        ports=ports,
        spots=sorted(spots.values(), key=lambda s: (s.port or "", order[s.place], s.tactical or 0)),
    )


def _add_counted(k: PlayerKnowledge, spots: dict[str, Spot], code: str) -> None:
    """This turn's frigate sightings (5.2), unless the same ships are known by name."""
    for sg in merged_sightings(k.sightings):
        if sg.sea_area != code:
            continue
        key = spot_key(sg.place, sg.tactical, sg.port)
        spot = spots.setdefault(key, Spot(key, sg.place, sg.tactical, sg.port))
        if not any(i.state == sg.state and i.category is sg.category and i.ids for i in spot.icons):
            by = and_list(sg.by)
            spot.icons.append(
                Icon(sg.state, sg.category, "enemy", estimate=sg.low, scouted_by=by, estimate_high=sg.high)
            )


def _add_sighted(k: PlayerKnowledge, spots: dict[str, Spot], sd: Sighted) -> None:
    """A sighting of the picture not drawn from this turn's contacts: an earlier
    one (faded by its age) or one told from the shore; ships named in the
    same spot, turn and source share one icon."""
    key = spot_key(sd.place, sd.tactical, sd.port)
    spot = spots.setdefault(key, Spot(key, sd.place, sd.tactical, sd.port))
    side = "enemy" if sd.state in k.enemies else "neutral"
    age, source = k.turn - sd.turn, f"{source_text(sd)}; {age_text(sd, k)}"
    for icon in spot.icons:
        if (
            sd.ids
            and icon.ids
            and (icon.state, icon.category, icon.age, icon.source)
            == (
                sd.state,
                sd.category,
                age,
                source,
            )
        ):
            icon.ids.append(sd.key)
            return
    icon = Icon(sd.state, sd.category, side, list(sd.ids), age=age, source=source)
    if not sd.ids:
        icon.estimate, icon.estimate_high = sd.estimate or 1, sd.estimate_high
        icon.scouted_by = and_list(sd.by) or sd.source.value
    spot.icons.append(icon)


def spot_title(spot: Spot) -> str:
    if spot.place is Place.SEA:
        return f"Tactical area {spot.tactical}"
    return f"{spot.port} harbor" if spot.place is Place.HARBOR else f"Off {spot.port}"


def _known_noun(ids: list[str], category: Category) -> str:
    """Ships known by id are named by their own classes: "flagship",
    "flagship and ships of the line", not all "ships of the line"."""
    counts: dict[ShipType, int] = {}
    for sid in ids:
        parsed = parse_ship_id(sid)
        if parsed:
            counts[parsed[2]] = counts.get(parsed[2], 0) + 1
    if not counts:
        return CATEGORY_PLURAL[category]
    kinds = sorted(counts, key=list(ShipType).index)
    return and_list(TYPE_WORDS[t][counts[t] != 1] for t in kinds)


def icon_caption(k: PlayerKnowledge, icon: Icon, place: Place) -> str:
    """Rule 1.6 sample: "French frigates at sea"; a frigate's sighting gives
    an approximate number and no identities (5.2)."""
    text = _caption(k, icon, place)
    return f"{text} - {icon.source}" if icon.source else text


def _caption(k: PlayerKnowledge, icon: Icon, place: Place) -> str:
    where = PLACE_PHRASE[place]
    if icon.estimate is not None:
        n, high = icon.estimate, icon.estimate_high or icon.estimate
        noun = CATEGORY_SINGULAR[icon.category] if high == 1 else CATEGORY_PLURAL[icon.category]
        about = f"{n} to {high}" if high > n else f"about {n}"
        return f"{about} {adjective(k, icon.state)} {noun} {where} (sighted by {icon.scouted_by})"
    text = f"{adjective(k, icon.state)} {_known_noun(icon.ids, icon.category)} {where}"
    if icon.bearing is not None and icon.side == "enemy":
        text += f" to {icon.bearing.value} of us"
    return f"{text}: {ids_text(icon.ids)}"
