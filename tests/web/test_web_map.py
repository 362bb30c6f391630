"""The campaign page's map and the replay, over HTTP against the real stack:
the real geography with the player's own ships and what his last report
says his ships saw, and nothing else of anyone's (the fog of war holds on
the map as in his report)."""

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
    # every ship named on the map is one of his, or one his report of the start saw
    report = stack.client.report(stack.campaign, 0, COMMANDER).body
    assert set(SHIP_ID.findall(section)) <= own | set(SHIP_ID.findall(report))
    never = {s for s in load_scenario("training").world.ships if s not in own and s not in report}
    assert never and not never & set(SHIP_ID.findall(section))
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
    assert markers and all(m in own or m.endswith((" ships", " seen")) or m == "sighted" for m in markers)
    assert any(m.endswith(" seen") for m in markers)  # the French his ships saw at the start (5.1)
    assert 'src="/static/map.js"' in page and client.get("/static/map.js").status_code == 200


def _ids_known(body: str) -> set[str]:
    """Every ship id the player's own report of a turn holds (his ships,
    their contacts, the ships his events name)."""
    return set(SHIP_ID.findall(body))


def test_the_replay_shows_each_turn_as_his_report_told_it_and_all_sides_to_the_master(
    web,  # noqa: F811
    stack: Stack,
) -> None:
    client, _ = web
    stack.client.close_turn(stack.campaign, 1)
    stack.client.wait_open(stack.campaign, 2, timeout=120)
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    # turn 2's campaign page: his ships and what his report of turn 1 saw, no more
    section = _map_section(client.get(f"/c/{stack.campaign}").text)
    told = set(SHIP_ID.findall(stack.client.report(stack.campaign, 1, COMMANDER).body))  # his ships too
    assert set(SHIP_ID.findall(section)) <= told
    assert 'id="replay-link"' in client.get(f"/c/{stack.campaign}/reports").text
    first = client.get(f"/c/{stack.campaign}/replay")
    assert first.status_code == 200 and "The start of the campaign" in first.text
    assert 'id="replay-next"' in first.text and 'id="replay-prev"' not in first.text
    for turn in (0, 1):
        page = client.get(f"/c/{stack.campaign}/replay?turn={turn}").text
        body = stack.client.report(stack.campaign, turn, COMMANDER).body
        # the fog of war: no ship on the replay of a turn that his report of it lacks
        assert set(SHIP_ID.findall(page)) <= _ids_known(body), turn
        assert "<svg" in page and 'class="sea-area"' in page
    one = client.get(f"/c/{stack.campaign}/replay?turn=1").text
    assert 'id="replay-prev"' in one and "Turn 1, as your report told it" in one
    for bad in ("7", "-1", "x", "1" * 50):
        assert client.get(f"/c/{stack.campaign}/replay?turn={bad}").status_code == 404
    assert client.get(f"/c/{stack.campaign}/gm/replay").status_code == 404  # not the game master
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    every = client.get(f"/c/{stack.campaign}/gm/replay?turn=1").text
    french = {s for s in load_scenario("training").world.ships if s.startswith("FR")}
    british = {s for s in load_scenario("training").world.ships if s.startswith("BR")}
    shown = set(SHIP_ID.findall(every))
    assert shown & french and shown & british  # every side at once
