"""The map on the campaign page: the player's own ships where they are, on
the real geography (pate.render), one map for each side of the Atlantic he
has ships on, and what his ships saw of others at the end of the last turn,
taken from his own report of it (his knowledge, from the reports service):
nothing that his ship list and his report do not hold."""

from __future__ import annotations

import re
import time
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pate.core.codec import from_plain, parse_json
from pate.core.intel.model import AreaWind, PlayerKnowledge
from pate.core.world.geography import MapName, WorldMap
from pate.datafiles import load_world_map
from pate.render.courses import Course, course_keys
from pate.render.geography import load_geography
from pate.render.legend import KeyRow, map_keys
from pate.render.style import MAP_TITLES, Icon
from pate.render.svg_map import TOP, render_map
from pate.reports.replay import seen_by_place, seen_icon
from pate.reports.svg import earlier_icons
from pate.v1 import desk_pb2
from services.web.backend import Backend, Session
from services.web.backend_errors import ForbiddenError, ServiceDownError
from services.web.forms import describe_order
from services.web.ship_list import ordered_ids

OWN = "#0b5394"  # the player's own ships
ROOM = 160  # SVG units shown round the places of his ships when the map opens
NARROWEST = 480  # the map opens no closer than this many SVG units across
_VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')
MARKS = (
    (OWN, "my ships (their number)"),
    ("#000000", "others my ships saw last turn (5.1, 5.2); paler: seen earlier, not since"),
)
SEEN_KEPT = 2048  # players' last-turn sightings kept in memory (a report never changes)
ASK_AGAIN_SECONDS = 10.0  # a report not there yet (still being written) is asked for again after this


@dataclass(frozen=True, slots=True)
class PlaceOnMap:
    place: str  # a sea-area code or a port name
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LastReport:
    """What the player's own report of the last turn holds for the desk: the
    ships his ships saw, by place, and the winds where his ships were (those
    winds blow for the coming turn's first move, docs/rules/movement.md)."""

    turn: int = -1  # the turn the report is of; -1 when there is none
    seen: tuple[PlaceOnMap, ...] = ()
    winds: tuple[AreaWind, ...] = ()
    earlier: tuple[Icon, ...] = ()  # the picture's sightings not seen since, faded by their age


@dataclass(frozen=True, slots=True)
class ShipMap:
    which: str
    title: str
    svg: str
    places: tuple[PlaceOnMap, ...]
    focus: str  # the viewBox the map opens on: round his ships, the whole map a button away
    legend: tuple[KeyRow, ...]  # drawn beside the zoomable map, not in it, so it never zooms away


def _place(s: desk_pb2.MyShip) -> str:
    return s.port or s.sea_area


def _map_of(world: WorldMap, place: str) -> MapName | None:
    area = world.sea_areas.get(place)
    if area is None and place in world.ports:
        area = world.sea_areas.get(world.ports[place].sea_area)
    return area.map if area else None


def ship_maps(
    ships: Sequence[desk_pb2.MyShip],
    seen: tuple[PlaceOnMap, ...] = (),
    *,
    courses: bool = False,
    earlier: tuple[Icon, ...] = (),
) -> list[ShipMap]:
    """``courses``: draw the courses of his ships that have orders this turn;
    ``earlier``: the faded markers of sightings not seen since."""
    world = load_world_map()
    by_map: dict[MapName, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for s in ships:
        which = _map_of(world, _place(s))
        if which is not None:
            by_map[which][_place(s)].append(s.id)
    drawn = ordered_courses(ships) if courses else ()
    out = []
    for which in sorted(by_map, key=lambda m: m.value):
        places = tuple(PlaceOnMap(p, tuple(sorted(ids))) for p, ids in sorted(by_map[which].items()))
        others = tuple(p for p in seen if _map_of(world, p.place) is which)
        here = tuple(c for c in drawn if _map_of(world, c.places[0]) is which)
        old = tuple(i for i in earlier if _map_of(world, i.at) is which)
        svg = _svg(which, places, others, here, old)
        keys = (*map_keys(world, which, highlight=True, marks=MARKS), *((course_keys(),) if here else ()))
        focus = focus_on(which, [p.place for p in places], svg)
        out.append(ShipMap(which.value, MAP_TITLES[which], svg, places, focus, keys))
    return out


def ordered_courses(ships: Sequence[desk_pb2.MyShip]) -> tuple[Course, ...]:
    """The course of each of his ships with orders this turn (its own, or its
    lead's, rule 4.2) that sails somewhere: its place, then its sea areas and
    port."""
    ordered = ordered_ids(ships)
    out = []
    for s in ships:
        if s.id not in ordered:
            continue
        order = s.effective.order
        mv = order.movement
        places = [_place(s)]
        for step in [*mv.sea_areas, mv.port]:
            if step and step != places[-1]:
                places.append(step)
        if len(places) < 2:
            continue
        out.append(
            Course(
                ship=s.id,
                places=tuple(places),
                contact=order.contact.mode or "accept",
                port=mv.port,
                harbor=mv.harbor,
                lands=bool(order.amphibious.unload_units),
                title=f"{s.id} {s.name}: {describe_order(order)}",
            )
        )
    return tuple(out)


@lru_cache(maxsize=256)
def _svg(
    which: MapName,
    places: tuple[PlaceOnMap, ...],
    seen: tuple[PlaceOnMap, ...] = (),
    courses: tuple[Course, ...] = (),
    earlier: tuple[Icon, ...] = (),
) -> str:
    """The same ships in the same places draw the same map: kept."""
    world = load_world_map()
    icons = [
        Icon(at=p.place, label=_count(p.ships), colour=OWN, title=", ".join(p.ships[:40]), ships=p.ships)
        for p in places
    ]
    icons += [seen_icon(p.place, set(p.ships)) for p in seen]
    icons += earlier
    highlight = frozenset(p.place for p in places if p.place in world.sea_areas)
    title = f"My ships: {MAP_TITLES[which]}"
    return render_map(
        world, which, highlight=highlight, icons=icons, title=title, courses=courses, legend=False
    )


def _count(ships: tuple[str, ...]) -> str:
    return ships[0] if len(ships) == 1 else f"{len(ships)} ships"


def route_map(ships: Sequence[desk_pb2.MyShip]) -> ShipMap | None:
    """The map of the order form: the ship (or squadron) where it is, on
    which a route is plotted by choosing sea areas and a port (route.js
    offers only the choices the form's movement fields allow)."""
    maps = ship_maps(ships[:1])
    return maps[0] if maps else None


def focus_on(which: MapName, places: Sequence[str], svg: str) -> str:
    """A view round the places (their labels' points), at the whole map's
    proportions (so that zooming out from it ends on the whole map)."""
    size = _VIEWBOX.search(svg)
    geo = load_geography().maps[which.value]
    if size is None or not any(p in geo.labels or p in geo.ports for p in places):
        return ""
    width, height = float(size.group(1)), float(size.group(2))
    scale = width / geo.width
    points = [geo.labels.get(p) or geo.ports.get(p) for p in places]
    xs = [pt[0] * scale for pt in points if pt]
    ys = [pt[1] * scale + TOP for pt in points if pt]
    aspect = height / width
    w = min(width, max(max(xs) - min(xs) + 2 * ROOM, (max(ys) - min(ys) + 2 * ROOM) / aspect, NARROWEST))
    h = w * aspect
    x = min(max((min(xs) + max(xs) - w) / 2, 0.0), width - w)
    y = min(max((min(ys) + max(ys) - h) / 2, 0.0), height - h)
    return f"{x:.0f} {y:.0f} {w:.0f} {h:.0f}"


_SEEN: OrderedDict[tuple[str, str, int], LastReport] = OrderedDict()
_MISSED: OrderedDict[tuple[str, str, int], float] = OrderedDict()  # key -> when it was not there


async def last_report(backend: Backend, session: Session, turn: int) -> LastReport:
    """What his ships saw at the end of the turn before ``turn``, by place,
    and the winds there, from his own report of it; nothing when there is
    none yet or the reports service does not answer (the page is served all
    the same)."""
    key = (session.campaign, session.player, turn - 1)
    if turn < 1:
        return LastReport()
    if key in _SEEN:
        _SEEN.move_to_end(key)
        return _SEEN[key]
    if time.monotonic() - _MISSED.get(key, -ASK_AGAIN_SECONDS) < ASK_AGAIN_SECONDS:
        return LastReport()
    try:
        body = await backend.report(session, turn - 1, "json")
    except (ForbiddenError, ServiceDownError):
        _MISSED[key] = time.monotonic()
        while len(_MISSED) > SEEN_KEPT:
            _MISSED.popitem(last=False)
        return LastReport()
    k: PlayerKnowledge = from_plain(PlayerKnowledge, parse_json(body))
    seen = seen_by_place(load_world_map(), k)
    out = LastReport(
        turn - 1,
        tuple(PlaceOnMap(p, tuple(sorted(ids))) for p, ids in sorted(seen.items())),
        k.winds,
        tuple(earlier_icons(k, load_world_map())),
    )
    _SEEN[key] = out
    while len(_SEEN) > SEEN_KEPT:
        _SEEN.popitem(last=False)
    return out
