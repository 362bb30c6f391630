"""The overview maps a player can read: no label covers another,
and a legend says what the colours and marks mean.  The boxes are measured
from the SVG drawn (position, font size, anchor and length of each text),
generously, as :mod:`pate.render.labels` estimates text width."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from itertools import combinations

import pytest

from pate.core.campaign import start_campaign
from pate.core.intel.knowledge import is_naval_minister, knowledge_for
from pate.core.world.geography import MapName
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.render.labels import NAME_REACH, Box, text_box
from pate.render.svg_map import Icon, render_map
from pate.reports.svg import overview_maps
from tests.support.map_geometry import markers

SVG = "{http://www.w3.org/2000/svg}"


def label_boxes(svg: str) -> list[tuple[str, Box]]:
    out = []
    for t in ET.fromstring(svg).iter(f"{SVG}text"):
        text = "".join(t.itertext())
        size = float(t.get("font-size", "16"))
        box = text_box(float(t.get("x", 0)), float(t.get("y", 0)), text, size, t.get("text-anchor", "start"))
        out.append((text, box))
    return out


def overlapping(svg: str) -> list[tuple[str, str]]:
    boxes = label_boxes(svg)
    return [(a, b) for (a, ba), (b, bb) in combinations(boxes, 2) if ba.overlaps(bb)]


@cache
def _ministers_maps(name: str) -> list[tuple[str, MapName, str]]:
    ctx = turn_context()
    scenario = load_scenario(name)
    w = start_campaign(ctx, scenario.world, "maps", scenario.world.seed, 15, place=True)
    out = []
    for pid, player in sorted(w.players.items()):
        if is_naval_minister(player):
            k = knowledge_for(pid, w, w, (), ctx.map, ctx.rules)
            out += [(pid, which, svg) for which, svg in overview_maps(k, ctx.map)]
    return out


@pytest.mark.parametrize("scenario", ["training", "trafalgar", "grand1805"])
def test_no_two_labels_overlap_on_the_overview_maps_of_a_scenario(scenario: str) -> None:
    maps = _ministers_maps(scenario)
    assert maps
    for player, which, svg in maps:
        assert not overlapping(svg), f"{scenario}, {player}, {which.value}: {overlapping(svg)[:5]}"


@pytest.mark.parametrize("which", list(MapName))
def test_no_two_labels_overlap_with_markers_at_every_sea_area(which: MapName) -> None:
    """The worst case: a count and a sighting beside every sea area, and markers at ports."""
    wmap = turn_context().map
    icons = []
    for code, area in sorted(wmap.sea_areas.items()):
        if area.map is which:
            icons += [Icon(code, "888 ships", "#c0392b"), Icon(code, "sighted", "#000000")]
    icons += [Icon("Brest", "3 ships"), Icon("Portsmouth", "12 ships"), Icon("Havana", "1 ship")]
    svg = render_map(wmap, which, icons=icons, highlight=frozenset({"ECH"}), marks=[("#c0392b", "ships")])
    # the Sea of Marmara's water lies nearly all under its code: one marker finds room beside it,
    # a second must cover the code (pate.render.markers, its last pass)
    assert set(overlapping(svg)) <= {("MAR", "sighted")}, overlapping(svg)[:5]
    texts = [text for text, _ in label_boxes(svg)]
    ports = [p for p in wmap.ports.values() if wmap.sea_areas[p.sea_area].map is which]
    bare = dict(label_boxes(render_map(wmap, which)))
    assert len([p for p in ports if p.name not in bare]) <= len(ports) // 20  # a few crowded coasts
    # a marker's room comes before a name's: a name is left out only where a marker lies over it
    drawn = [Box(*m.box).grown(3.0) for m in markers(svg)]  # as placed: rounded up to whole letters
    for p in ports:
        if p.name in bare and p.name not in texts:
            assert any(bare[p.name].overlaps(m) for m in drawn), p.name
            assert f"<title>{p.name}: held by" in svg  # its tooltip still names it
    assert texts.count("888 ships") + texts.count("888") == sum(
        1 for a in wmap.sea_areas.values() if a.map is which
    )


def _port_centres(svg: str) -> dict[str, tuple[float, float]]:
    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") != "port":
            continue
        rect = g.find(f"{SVG}rect")
        if rect is not None:
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
            size = float(rect.get("width", 0))
            out[g.get("data-port", "")] = (x + size / 2, y + size / 2)
        else:
            poly = g.find(f"{SVG}polygon")
            assert poly is not None
            xs, ys = zip(*(map(float, pt.split(",")) for pt in poly.get("points", "").split()), strict=True)
            out[g.get("data-port", "")] = (sum(xs) / len(xs), sum(ys) / len(ys))
    return out


@pytest.mark.parametrize("which", list(MapName))
def test_a_port_name_is_drawn_beside_its_own_port(which: MapName) -> None:
    """A name pushed far along a leader line reads as another place's (the
    Channel's crowd once put "Marseille" over Brittany): each name drawn is
    placed at most NAME_REACH out from its port's marker, so that no point of
    the text is farther than twice that from the port (a diagonal step)."""
    svg = render_map(turn_context().map, which)
    centres = _port_centres(svg)
    for text, box in label_boxes(svg):
        if text not in centres:
            continue

        x, y = centres[text]
        dx = max(box.x0 - x, 0.0, x - box.x1)
        dy = max(box.y0 - y, 0.0, y - box.y1)
        own = (dx * dx + dy * dy) ** 0.5
        assert own <= 2 * NAME_REACH, (text, own)


def test_the_overview_has_a_legend_of_port_colours_and_marks() -> None:
    _, _, svg = next(m for m in _ministers_maps("training") if m[1] is MapName.EUROPE)
    legend = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "legend")
    words = ["".join(t.itertext()) for t in legend.iter(f"{SVG}text")]
    for meaning in ("sea area", "on the Atlantic edge (6.11)", "port", "strait port (6.3)"):
        assert meaning in words
    assert "your ships (their number)" in words and "enemies sighted by your frigates (5.2)" in words
    # the states holding the map's ports, in words and code (data/nations.toml)
    assert "British (BR)" in words and "French (FR)" in words and "Spanish (SP)" in words
    assert "#c0392b" in {e.get("fill") for e in legend.iter()}  # each controller's colour shown


@pytest.mark.parametrize("which", list(MapName))
def test_the_legend_wraps_within_the_map_and_the_drawing_is_tall_enough_for_it(which: MapName) -> None:
    """A row of marks as long as a report of the EiA operations rules gives once ran past the
    right edge, cut off; now it wraps, and the drawing grows to hold it."""
    icons = [Icon("ECH", "3 ships")]
    marks = [
        ("#0b5394", "your ships (their number)"),
        ("#000000", "enemies sighted by your frigates (5.2)"),
        ("#b03a2e", "trade routes you know of (dashed; EiA new naval rules)"),
        ("#27569b", "blockade boxes: a ring round the port (EiA new naval rules)"),
    ]
    svg = render_map(turn_context().map, which, icons=icons, highlight=frozenset({"ECH"}), marks=marks)
    root = ET.fromstring(svg)
    width, height = (float(v) for v in (root.get("viewBox") or "").split()[2:])
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    boxes = [
        text_box(
            float(t.get("x", 0)), float(t.get("y", 0)), "".join(t.itertext()), float(t.get("font-size", 10))
        )
        for t in legend.iter(f"{SVG}text")
    ]
    assert len(boxes) > 10 and all(b.x0 >= 0 and b.x1 <= width and b.y1 <= height for b in boxes)
    keys = [g.get("transform", "") for g in legend.iter(f"{SVG}g") if g.get("class") == "key"]
    assert max(float(k.split("(")[1].split()[0]) + 24 for k in keys) <= width  # each mark too
    assert render_map(turn_context().map, which, legend=False).count('class="legend"') == 0


def test_a_port_label_pushed_away_is_joined_to_its_port() -> None:
    svg = render_map(turn_context().map, MapName.EUROPE)
    assert 'class="leader"' in svg  # the Channel's ports are too close for every name beside its port
    assert render_map(turn_context().map, MapName.EUROPE) == svg  # deterministic, cache or not


def test_every_map_of_the_html_report_opens_large_without_a_script() -> None:
    """A report runs no script (the desk shows it sandboxed): each map is the label of a
    checkbox of its own, which the report's style turns into the map at full size."""
    from pate.reports.html import render_html

    ctx = turn_context()
    scenario = load_scenario("training")
    w = start_campaign(ctx, scenario.world, "maps", scenario.world.seed, 15, place=True)
    k = knowledge_for("cornwallis", w, w, (), ctx.map, ctx.rules)
    html = render_html(k, ctx.map)
    grown = re.findall(
        r'<input type="checkbox" class="grow" id="([^"]+)"><label class="growable" for="\1"><svg', html
    )
    assert len(grown) == html.count("<svg xmlns") and len(set(grown)) == len(grown)  # every map, each its own
    assert 'class="seamap"' in html and '<div class="overview">' in html
    assert ".grow:checked+.growable svg{width:max(100%,800px)" in html
