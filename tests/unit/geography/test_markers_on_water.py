"""Every marker a map draws tells the truth about its place: a sea area's
marker has its dot inside that area's polygon and off the land; a port's
has its dot on its port's waters, joined to the port by a line unless it
lies beside it; no two markers lie on one another.  Checked geometrically
(tests.support.map_geometry) on every place of both maps, on every
player's maps of the three shipped scenarios (the report's overview, the
replays, the game master's all-sides replay) and on the desk's map of every
state's ships.  The drawing is one SVG scaled as a whole, so what holds on
it holds at every zoom and width a page shows it at."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from functools import cache

import pytest

from pate.core.campaign import start_campaign
from pate.core.intel.knowledge import knowledge_for
from pate.core.world.geography import MapName
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.render.geography import contains, load_geography
from pate.render.labels import Box, text_box
from pate.render.markers import MOSTLY
from pate.render.style import TOP, Icon
from pate.render.svg_map import render_map
from pate.reports.replay import all_sides_frame, player_frame
from pate.reports.svg import overview_maps
from pate.v1 import desk_pb2
from services.web.campaign_map import ship_maps
from tests.support.map_geometry import SVG, markers, misplaced
from tests.unit.reports.test_reports_maps import label_boxes, overlapping

SCENARIOS = ("training", "trafalgar", "grand1805")


def _places(which: MapName) -> list[str]:
    wmap = turn_context().map
    areas = [c for c, a in wmap.sea_areas.items() if a.map is which]
    ports = [p.name for p in wmap.ports.values() if wmap.sea_areas[p.sea_area].map is which]
    return sorted(areas) + sorted(ports)


@pytest.mark.parametrize("which", list(MapName))
def test_the_markers_of_any_one_place_lie_on_its_water(which: MapName) -> None:
    """A player's own ships and others seen at one place, for each sea area and port."""
    wmap = turn_context().map
    wrong = []
    for place in _places(which):
        icons = [Icon(place, "888 ships", "#0b5394", ships=("BR1FR",)), Icon(place, "12 seen", "#000000")]
        svg = render_map(wmap, which, icons=icons)
        assert len(markers(svg)) == 2, place
        wrong += misplaced(svg, which)
    assert wrong == []


@pytest.mark.parametrize("which", list(MapName))
def test_markers_at_every_sea_area_at_once_lie_on_their_own_water(which: MapName) -> None:
    wmap = turn_context().map
    icons = []
    for code in _places(which):
        if code in wmap.sea_areas:
            icons += [Icon(code, "888 ships", "#c0392b"), Icon(code, "12 seen", "#000000")]
    svg = render_map(wmap, which, icons=icons)
    assert len(markers(svg)) == len(icons)
    assert misplaced(svg, which) == []


def test_a_tiny_sea_keeps_its_marker_on_its_water() -> None:
    """The Sea of Marmara's water is a strip little longer than its code."""
    svg = render_map(turn_context().map, MapName.EUROPE, icons=[Icon("MAR", "888 ships")])
    assert len(markers(svg)) == 1
    assert misplaced(svg, MapName.EUROPE) == []
    assert not overlapping(svg)


@cache
def _scenario_maps(name: str) -> list[tuple[str, MapName, str]]:
    """Every drawing of the start of a campaign of the scenario: each
    player's overview and replay maps, and the all-sides replay's."""
    ctx = turn_context()
    scenario = load_scenario(name)
    world = start_campaign(ctx, scenario.world, "maps", scenario.world.seed, 15, place=True)
    ks = [knowledge_for(pid, world, world, (), ctx.map, ctx.rules) for pid in sorted(world.players)]
    out = []
    for k in ks:
        out += [(f"{k.player} overview", which, svg) for which, svg in overview_maps(k, ctx.map)]
        out += [(f"{k.player} replay", which, svg) for which, svg in player_frame(k, ctx.map).maps]
    out += [("all sides", which, svg) for which, svg in all_sides_frame(ks, ctx.map).maps]
    return out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_marker_of_every_players_maps_lies_on_its_place(scenario: str) -> None:
    maps = _scenario_maps(scenario)
    assert sum(len(markers(svg)) for _, _, svg in maps) > 20
    wrong = [f"{who}, {which.value}: {w}" for who, which, svg in maps for w in misplaced(svg, which)]
    assert wrong == []
    crossed = [(who, overlapping(svg)) for who, _, svg in maps if overlapping(svg)]
    assert crossed == []


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_desk_map_of_every_states_ships_lies_on_their_places(scenario: str) -> None:
    world = load_scenario(scenario).world
    by_state: dict[str, list[desk_pb2.MyShip]] = {}
    for s in world.ships.values():
        loc = s.location
        ship = desk_pb2.MyShip(id=s.id, sea_area=getattr(loc, "area", ""), port=getattr(loc, "port", ""))
        by_state.setdefault(s.id[:2], []).append(ship)
    for state, ships in sorted(by_state.items()):
        for m in ship_maps(ships):
            which = MapName(m.which)
            drawn = markers(m.svg)
            assert {d.at for d in drawn} == {p.place for p in m.places}, state
            assert misplaced(m.svg, which) == [], (state, m.which)


@pytest.mark.parametrize("which", list(MapName))
def test_each_sea_areas_name_lies_mostly_on_its_own_water(which: MapName) -> None:
    """ "English Channel" was written across Normandy: a name drawn lies at
    least three fifths on its own area's water (sampled every 2 units), else
    it is not drawn (hovering on the area still names it)."""
    wmap = turn_context().map
    geo = load_geography().maps[which.value]
    names = {a.name: code for code, a in wmap.sea_areas.items() if a.map is which}
    drawn = [(t, b) for t, b in label_boxes(render_map(wmap, which)) if t in names]
    assert len(drawn) >= len(names) - 3  # the Channel, the Ligurian Sea and the Sea of Marmara are narrow
    for text, box in drawn:
        rings = geo.rings(names[text])
        points = [
            (x, y - TOP)
            for x in range(math.ceil(box.x0), math.floor(box.x1) + 1, 2)
            for y in range(math.ceil(box.y0), math.floor(box.y1) + 1, 2)
        ]
        inside = sum(contains(rings, p) for p in points) / len(points)
        # markers.MOSTLY is 0.6 of the 4-unit cells the box touches; points every 2 units
        # inside the box itself count its edges differently, by up to a twentieth
        assert inside >= MOSTLY - 0.05, (text, round(inside, 2))


@pytest.mark.parametrize("which", list(MapName))
def test_each_ports_name_reads_as_its_own(which: MapName) -> None:
    """ "Toulon" once lay on Ajaccio and "Vlissingen" beside London: a name
    set beside its port, with no line, lies no more than 2 units nearer any
    other port than its own; a name on a line to its port keeps 6 units
    from every other port.  The great dockyards are named."""
    geo = load_geography().maps[which.value]
    points = {name: (x, y + TOP) for name, (x, y) in geo.ports.items()}
    svg = render_map(turn_context().map, which)
    named = 0
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") != "port" or g.find(f"{SVG}text") is None:
            continue
        port, text = g.get("data-port", ""), g.find(f"{SVG}text")
        assert text is not None and "".join(text.itertext()) == port
        box = text_box(
            float(text.get("x", "0")), float(text.get("y", "0")), port, float(text.get("font-size", "9"))
        )
        others = [_distance(box, p) for name, p in points.items() if name != port]
        if g.find(f"{SVG}line") is None:
            assert _distance(box, points[port]) <= min(others) + 2.0, port
        else:
            assert min(others) >= 6.0, port
        named += 1
    assert named >= len(points) - len(points) // 20
    if which is MapName.EUROPE:
        assert {"Portsmouth", "Plymouth", "Brest", "Toulon", "Cadiz", "Ferrol"} <= set(_names(svg))


def _names(svg: str) -> list[str]:
    return [t for t, _ in label_boxes(svg)]


def _distance(box: Box, p: tuple[float, float]) -> float:
    return math.hypot(max(box.x0 - p[0], 0.0, p[0] - box.x1), max(box.y0 - p[1], 0.0, p[1] - box.y1))
