"""The campaign page's map draws the courses the player has ordered this
turn, over HTTP against the real stack: arrows through the places of each
ordered ship's course at those places' points, and nobody else's."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pate.render.geography import load_geography
from pate.render.svg_map import TOP
from tests.web.conftest import Stack
from tests.web.test_web_http import COMMANDER, csrf, login, web  # noqa: F401  (the fixture)
from tests.web.test_web_map import SVG, _map_section

pytestmark = pytest.mark.e2e
LEAD = "BR1FL"  # cornwallis's squadron lead in ECH (training)


def _point(place: str) -> tuple[float, float]:
    geo = load_geography().maps["europe"]
    x, y = geo.labels.get(place) or geo.ports[place]
    scale = 1200 / geo.width
    return round(x * scale, 1), round(y * scale + TOP, 1)


def _courses(page: str) -> dict[str, ET.Element]:
    section = _map_section(page)
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", section, re.S).group(0))  # type: ignore[union-attr]
    return {g.get("data-ship", ""): g for g in svg.iter(f"{SVG}g") if g.get("class") == "course"}


def test_an_order_sent_is_drawn_on_the_campaign_map_as_its_course(web: tuple[Any, Any], stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    page = client.get(f"/c/{stack.campaign}").text
    own = set(re.findall(r'id="ship-([A-Z0-9]+)"', page))
    assert not _courses(page)  # nothing ordered yet, nothing drawn
    data = {
        "csrf": csrf(client.get(f"/c/{stack.campaign}?ship={LEAD}").text),
        "ships": LEAD,
        "turn": "1",
        "panel": "1",
        "0.sea1": "BIS",
        "0.port": "Rochefort",
        "0.harbor": "on",
        "0.mode": "pursue",
    }
    r = client.post(f"/c/{stack.campaign}/orders", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    courses = _courses(client.get(r.headers["location"]).text)
    course = courses[LEAD]
    assert course.get("data-places") == "ECH BIS Rochefort"
    points = [tuple(map(float, p.split(","))) for p in (course.get("data-points") or "").split()]
    assert points == [_point("ECH"), _point("BIS"), _point("Rochefort")]
    arrows = [(ln.get("data-from"), ln.get("data-to")) for ln in course.iter(f"{SVG}line")]
    assert arrows == [("ECH", "BIS"), ("BIS", "Rochefort")]
    assert all((ln.get("marker-end") or "").startswith("url(#head-") for ln in course.iter(f"{SVG}line"))
    assert course.get("data-contact") == "pursue" and "contact pursue" in (
        course.findtext(f"{SVG}title") or ""
    )
    assert any(c.get("class") == "course-end" for c in course.iter(f"{SVG}circle"))  # it lands at Rochefort
    # the lead and the ships attached to it, no one else's: the ships copying their lead's
    # orders (4.2) share its drawing: one course, not three
    assert set(courses) == {LEAD}
    assert set((course.get("data-ships") or "").split()) == {LEAD, "BR1SL", "BR2SL"} <= own


def test_the_legend_is_beside_the_zoomable_map_and_names_the_ports_states(
    web: tuple[Any, Any],  # noqa: F811
    stack: Stack,
) -> None:
    """Inside the zoomable drawing a legend zooms and pans off the screen: it is HTML under it."""
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    for path in (
        f"/c/{stack.campaign}",
        f"/c/{stack.campaign}?ship={LEAD}",
        f"/c/{stack.campaign}/ships/{LEAD}",
    ):
        page = client.get(path).text
        view = re.search(r'<div class="map-view".*?</svg>\s*</div>', page, re.S)
        assert view and 'class="legend"' not in view.group(0), path  # not in the drawing
        legend = re.search(r'<div class="map-legend".*?</div>', page, re.S)
        assert legend and legend.start() > view.end(), path
        words = re.sub(r"<[^>]+>", " ", legend.group(0))
        for said in (
            "Ports held by",
            "British (BR)",
            "French (FR)",
            "Spanish (SP)",
            "my ships (their number)",
        ):
            assert said in words, (path, said)
    page = client.get(f"/c/{stack.campaign}").text
    assert "my course: pursues (4.6)" in page  # the orders sent above have their keys
