"""The campaign page's order panel and its one-line ship list, over HTTP
against the real stack: the panel is the order form (same fields, the same
refusals beside them), it shows the wind his own report gave, and neither
the panel nor the list holds anything of anyone's that his own ship list
and his report lack (the fog of war)."""

from __future__ import annotations

import json
import re

import pytest

from pate.datafiles import load_scenario
from tests.web.conftest import Stack
from tests.web.test_web_http import COMMANDER, OTHER, csrf, login, web  # noqa: F401  (the fixture)
from tests.web.test_web_map import SHIP_ID

pytestmark = pytest.mark.e2e
LEAD = "BR1FL"  # cornwallis's squadron lead in ECH (training)


def _panel(page: str) -> str:
    found = re.search(r'<aside class="order-panel".*?</aside>', page, re.S)
    assert found, "no order panel on the page"
    return found.group(0)


def _rows(page: str) -> set[str]:
    return set(re.findall(r'<li class="ship-row[^"]*" id="ship-([A-Z0-9]+)"', page))


def _his_ships(player: str) -> set[str]:
    world = load_scenario("training").world
    return {s.id for s in world.ships.values() if player in (s.commander, s.deputy)}


def test_the_panel_and_the_list_hold_nothing_his_knowledge_lacks(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    known = set(SHIP_ID.findall(stack.client.report(stack.campaign, 0, COMMANDER).body))
    own = _his_ships(COMMANDER)
    everyone = set(load_scenario("training").world.ships)
    for query in ("", f"?ship={LEAD}", f"?squadron={LEAD}", "?map=off"):
        page = client.get(f"/c/{stack.campaign}{query}")
        assert page.status_code == 200, query
        assert _rows(page.text) == own, query  # one line for each of his ships, and no other
        named = set(SHIP_ID.findall(page.text)) & everyone
        assert named <= own | known, (query, named - own - known)
    never = everyone - own - known
    assert never  # there are ships he knows nothing of, and none of them was on any page
    panel = _panel(client.get(f"/c/{stack.campaign}?squadron={LEAD}").text)
    assert set(SHIP_ID.findall(panel)) & everyone <= own
    # another player's ship, or no ship at all, opens no panel: the same 404 for both
    for bad in ("BR2FR", "FR1FL", "XX9XX", "B" * 65, "<script>"):
        assert client.get(f"/c/{stack.campaign}?ship={bad}").status_code == 404, bad
        assert client.get(f"/c/{stack.campaign}?squadron={bad}").status_code == 404, bad


def test_the_panel_is_the_order_form_with_the_course_map_and_the_reported_wind(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    page = client.get(f"/c/{stack.campaign}?squadron={LEAD}").text
    panel = _panel(page)
    for stable in (
        'id="f0-sea1"',
        'id="f0-sea2"',
        'id="f0-port"',
        'id="route-choices"',
        'id="route-now"',
        'id="route-clear"',
        'id="route-refused"',
        'class="orders panel-form"',
        'name="0.mode"',
    ):
        assert stable in panel, stable
    assert re.search(r'<div class="desk has-panel route-map"', page) and 'class="map-view"' in page
    assert 'src="/static/route.js"' in page and client.get("/static/panel.js").status_code == 200
    ships = re.search(r'name="ships" value="([^"]+)"', panel).group(1).split(",")  # type: ignore[union-attr]
    assert ships[0] == LEAD and len(ships) > 1  # the squadron: a lead and the ships attached to it (4.4)
    assert panel.count('class="ship-more"') == len(ships) - 1  # the attached ships fold
    # the wind: what his report of the start gave for the lead's sea area, and that area's chances
    knowledge = json.loads(stack.client.report(stack.campaign, 0, COMMANDER).body)
    area = re.search(r'data-here="([A-Z]{3})"', panel).group(1)  # type: ignore[union-attr]
    wind = next(w for w in knowledge["winds"] if w["sea_area"] == area)
    said = re.search(r'<p id="wind-now">(.*?)</p>', panel, re.S).group(1)  # type: ignore[union-attr]
    assert f"{wind['strength']} from the {wind['direction']}" in said and "report of the start" in said
    assert "40% a new direction" in panel and f"Chances in {area} (rule 1.4): from the" in panel


def test_a_refusal_in_the_panel_comes_back_in_the_panel_beside_its_field(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    page = client.get(f"/c/{stack.campaign}?ship=BR2FL").text
    data = {"csrf": csrf(page), "ships": "BR2FL", "turn": "1", "panel": "1", "0.minimum": "2"}
    r = client.post(f"/c/{stack.campaign}/orders", data=data)
    assert r.status_code == 422
    panel = _panel(r.text)
    err = re.search(r'id="err-0-minimum"[^>]*>([^<]+)<', panel)
    assert err and "rule 4.6" in err.group(1) and "Nothing was accepted" in panel
    assert re.search(r'<details class="more-orders" open>', panel)  # the refused field is not folded away
    assert 'value="2"' in panel and 'id="ship-BR2FL"' in r.text  # what was typed, and the list below
    data["0.mode"] = "pursue"
    r = client.post(f"/c/{stack.campaign}/orders", data=data, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("#sent")
    row = client.get(r.headers["location"]).text.split('id="ship-BR2FL"', 1)[1].split("</li>", 1)[0]
    assert "contact pursue" in row and "orders accepted" in row


def test_long_lists_fold_by_place_and_squadron() -> None:
    from pate.v1 import desk_pb2
    from services.web import ship_list

    def ship(i: int, place: str, lead: str = "") -> desk_pb2.MyShip:
        return desk_pb2.MyShip(id=f"BR{i}SL", location=place, sea_area=place, attached_to=lead)

    few = [ship(1, "ECH"), ship(2, "ECH", "BR1SL"), ship(3, "BIS")]
    assert all(p.opened for p in ship_list.places(few)) and not ship_list.folded(few)
    many = [ship(i, "ECH" if i % 2 else "BIS", "BR1SL" if i % 2 and i > 1 else "") for i in range(1, 60)]
    places = {p.code: p for p in ship_list.places(many, keep_open={"BR4SL"})}
    assert ship_list.folded(many) and not places["ECH"].opened and places["BIS"].opened
    assert places["ECH"].squadrons[0].rows[0].id == "BR1SL" and len(places["ECH"].squadrons[0].rows) == 30
    assert not places["ECH"].squadrons[0].opened
    assert [sq.rows[0].id for sq in places["BIS"].squadrons if sq.opened] == ["BR4SL"]
    assert places["ECH"].ships + places["BIS"].ships == 59
