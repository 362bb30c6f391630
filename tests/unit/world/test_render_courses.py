"""The player's ordered courses drawn on the whole map (pate.render.courses):
arrows through the places of the course, at those places' points on the map,
the contact stance in the stroke and a word, a ring where it ends in a port."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

from pate.core.world.geography import MapName
from pate.datafiles import load_world_map
from pate.render.courses import Course
from pate.render.geography import load_geography
from pate.render.svg_map import TOP, render_map

SVG = "{http://www.w3.org/2000/svg}"


def _point(place: str) -> tuple[float, float]:
    """A place's point as the map draws it: its label's or port's, scaled to 1200 wide."""
    geo = load_geography().maps["europe"]
    x, y = geo.labels.get(place) or geo.ports[place]
    scale = 1200 / geo.width
    return round(x * scale, 1), round(y * scale + TOP, 1)


def _pair(text: str) -> tuple[float, float]:
    x, y = text.split(",")
    return float(x), float(y)


def _courses(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-ship", ""): g for g in root.iter(f"{SVG}g") if g.get("class") == "course"}


def _on_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> bool:
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    inside = min(a[0], b[0]) - 0.2 <= p[0] <= max(a[0], b[0]) + 0.2
    return abs(cross) / length < 0.5 and inside


def test_a_course_is_arrows_through_its_places_points() -> None:
    course = Course(
        "BR1FL", ("ECH", "BIS", "Rochefort"), "pursue", port="Rochefort", harbor=True, title="BR1FL"
    )
    svg = render_map(load_world_map(), MapName.EUROPE, courses=[course])
    g = _courses(svg)["BR1FL"]
    points = [_pair(p) for p in (g.get("data-points") or "").split()]
    assert points == [_point("ECH"), _point("BIS"), _point("Rochefort")]
    lines = list(g.iter(f"{SVG}line"))
    assert [(ln.get("data-from"), ln.get("data-to")) for ln in lines] == [
        ("ECH", "BIS"),
        ("BIS", "Rochefort"),
    ]
    for ln, (a, b) in zip(lines, pairwise(points), strict=True):
        start = (float(ln.get("x1", 0)), float(ln.get("y1", 0)))
        end = (float(ln.get("x2", 0)), float(ln.get("y2", 0)))
        assert _on_segment(start, a, b) and _on_segment(end, a, b)  # stops short of the codes, on the way
        head = (ln.get("marker-end") or "")[5:-1]
        assert any(m.get("id") == head for m in ET.fromstring(svg).iter(f"{SVG}marker"))  # an arrowhead
    ring = next(c for c in g.iter(f"{SVG}circle") if c.get("class") == "course-end")
    assert (float(ring.get("cx", 0)), float(ring.get("cy", 0))) == _point("Rochefort")  # where it lands
    assert "pursues" in "".join(t.text or "" for t in g.iter(f"{SVG}text"))
    assert g.get("stroke") != _courses(
        render_map(load_world_map(), MapName.EUROPE, courses=[Course("BR1FL", ("ECH", "BIS"), "accept")])
    )["BR1FL"].get("stroke")  # pursuing is drawn apart from accepting


def test_evading_is_dashed_and_a_course_off_this_map_is_not_drawn() -> None:
    evade = Course("FR1FL", ("Brest", "ECH", "NOS"), "evade", title="FR1FL evades")
    far = Course("BR9SL", ("ECH", "CAR"), "accept")  # the Caribbean: American waters
    g = _courses(render_map(load_world_map(), MapName.EUROPE, courses=[evade, far]))
    assert set(g) == {"FR1FL"}
    assert g["FR1FL"].get("stroke-dasharray") and g["FR1FL"].findtext(f"{SVG}title") == "FR1FL evades"
    assert not list(g["FR1FL"].iter(f"{SVG}circle"))  # it ends at sea: no ring
    assert 'class="course"' not in render_map(
        load_world_map(), MapName.EUROPE
    )  # nothing ordered, nothing drawn
