"""The campaign page's map, over HTTP against the real stack: the real
geography with the player's own ships, and nothing else of anyone's (the
fog of war holds on the map as on his ship list)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pate.datafiles import load_scenario
from tests.web.conftest import Stack
from tests.web.test_web_http import COMMANDER, login, web  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e
SHIP_ID = re.compile(r"\b[A-Z]{2}\d+[A-Z]{2}\b")
SVG = "{http://www.w3.org/2000/svg}"


def _map_section(page: str) -> str:
    found = re.search(r'<section class="desk-map".*?</section>', page, re.S)
    assert found, "the campaign page has no map"
    return found.group(0)


def test_the_campaign_page_opens_on_a_map_of_his_own_ships_only(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    page = client.get(f"/c/{stack.campaign}").text
    section = _map_section(page)
    own = set(re.findall(r'id="ship-([A-Z0-9]+)"', page))
    assert own
    # every ship named on the map is one of his, listed on his page
    assert set(SHIP_ID.findall(section)) <= own
    others = {s for s in load_scenario("training").world.ships if s not in own}
    assert not others & set(SHIP_ID.findall(section))
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", section, re.S).group(0))  # type: ignore[union-attr]
    areas = {p.get("data-area"): p for p in svg.iter(f"{SVG}path") if p.get("class") == "sea-area"}
    assert {"ECH", "BIS", "NOS"} <= set(areas)  # the real polygons, not a schematic
    shaded = {c for c, p in areas.items() if p.get("fill") == "#f9e79f"}
    places = set(re.findall(r'data-place="([^"]+)"', page))
    assert shaded and shaded <= places  # only where his own ships are
    markers = [
        "".join(t.itertext())
        for g in svg.iter(f"{SVG}g")
        if g.get("class") == "icon"
        for t in g.iter(f"{SVG}text")
    ]
    assert markers and all(m in own or m.endswith(" ships") for m in markers)
    assert 'src="/static/map.js"' in page and client.get("/static/map.js").status_code == 200
