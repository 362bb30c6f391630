"""What a play-test of the web desk found, over HTTP against the real stack: the minister sees
the store moves he sent and that a new list replaces them; the create form and the game
master's page name fields in words, confirm the early close, show the campaign's id and offer
to the bot only seats it can play; roles, ship types and stances in words; one "every player of
your state"; tactical areas explained; an id with a newline in a URL is "Not found"."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e
INTERNAL = ("new_id:", "admin_token:", "turn_hours:", "first_deadline:", "combat_rules:", "solo:")


def _select(page: str, name: str) -> str:
    return page.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]


def test_the_minister_sees_the_moves_he_sent_and_that_a_new_list_replaces_them(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "barham", stack.passwords["barham"])
    url = f"/c/{stack.campaign}/minister"
    page = client.get(url)
    assert "No store moves sent this turn." in page.text
    assert "replaces the whole list sent before" in page.text
    move = {"csrf": csrf(page.text), "0.origin": "London", "0.destination": "Chatham"}
    r = client.post(f"{url}/stores", data={**move, "0.amount": "10"})
    assert r.status_code == 200 and "1 store move sent, replacing any list sent before this turn" in r.text
    sent = r.text.split('id="stores-sent"', 1)[1].split("</section>", 1)[0]
    assert "<li>10 stores from London to Chatham</li>" in sent
    r = client.post(f"{url}/stores", data={**move, "0.amount": "7"})
    sent = r.text.split('id="stores-sent"', 1)[1].split("</section>", 1)[0]
    assert "<li>7 stores from London to Chatham</li>" in sent and "10 stores" not in sent


def test_the_create_forms_errors_name_each_field_in_words(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)
    bad = {"csrf": token, "new_id": "Bad Id", "scenario": "training", "turn_hours": "0", "solo": "a b"}
    r = client.post(f"/c/{stack.campaign}/gm/create", data=bad)
    assert r.status_code == 403
    for said in (
        "Server administrator token: creating a campaign is the server administrator",
        "Campaign id: 1 to 40 of a-z, 0-9 and -",
        "Hours for each later turn: 1 to 720 hours",
        "Solo players: up to 8 player ids",
    ):
        assert said in r.text.replace("&#39;", "'"), said
    assert not any(name in r.text for name in INTERNAL)
    # the orders service's refusal, named by the input's label too
    taken = {"csrf": token, "new_id": stack.campaign, "scenario": "training"}
    r = client.post(
        f"/c/{stack.campaign}/gm/create", data={**taken, "admin_token": stack.cluster.admin_token}
    )
    assert r.status_code == 422 and 'id="err-create-new_id"' in r.text
    error = r.text.split('id="err-create-new_id"', 1)[1].split("</span>", 1)[0]
    assert (
        "Campaign id: " in error
        and "already exists" in error
        and "id:" not in error.replace("Campaign id:", "")
    )


def test_the_game_masters_page(web, stack: Stack) -> None:  # noqa: F811
    """Its heading names the campaign, not only the scenario; the early close says it was saved;
    the hand-over offers only seats with a state (not the game master's own)."""
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    page = client.get(f"/c/{stack.campaign}/gm")
    assert f'<h1 id="gm-head">Game master: {stack.campaign}</h1>' in page.text
    assert '<p id="gm-scenario">Scenario: training</p>' in page.text
    hand_over = re.search(r'<select[^>]*id="hand-player"[^>]*>(.*?)</select>', page.text, re.S)
    assert hand_over is not None
    offered = re.findall(r'<option value="([^"]+)"', hand_over.group(1))
    assert "admin" not in offered and {"calder", "cornwallis", "barham", "ganteaume"} <= set(offered)
    token = csrf(page.text)
    r = client.post(
        f"/c/{stack.campaign}/gm/early-close", data={"csrf": token, "enabled": "on", "after": "schedule"}
    )
    assert r.status_code == 200
    done = r.text.split('id="gm-done">', 1)[1].split("</p>", 1)[0]
    assert done.startswith("early close saved: on") and "stays on schedule" in done
    r = client.post(f"/c/{stack.campaign}/gm/early-close", data={"csrf": token, "after": "close"})
    assert "early close saved: off" in r.text


def test_roles_ship_types_and_stances_in_words(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    who = client.get(f"/c/{stack.campaign}").text.split('id="who">', 1)[1].split("</span>", 1)[0]
    assert who == "Game Administrator (game master)"
    login(client, stack.campaign, "barham", stack.passwords["barham"])
    who = client.get(f"/c/{stack.campaign}").text.split('id="who">', 1)[1].split("</span>", 1)[0]
    assert "naval minister" in who and "naval_minister" not in who
    login(client, stack.campaign, "cornwallis", stack.passwords["cornwallis"])
    page = client.get(f"/c/{stack.campaign}/ships/BR1FR").text
    assert "BR1FR" in page and "(frigate) at" in page
    # the ship's type never reads as a state; the legend's "French (FR)" is a state, named as one
    assert not re.search(r"BR1FR[^<]*\(FR\)", page) and "(FR) at" not in page
    for name, default in (
        ("stance", "accept"),
        ("mode", "accept"),
        ("gauge", "leeward"),
        ("line", "line_ahead"),
    ):
        select = _select(page, f"0.{name}")
        assert f'value="{default}"' not in select and "(default)</option>" in select, name
    assert 'value="engage"' in _select(page, "0.stance")


def test_one_choice_for_every_player_of_a_state_without_allies(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "cornwallis", stack.passwords["cornwallis"])
    select = _select(client.get(f"/c/{stack.campaign}/messages").text, "to")
    assert "Every player of your state (BR)" in select
    assert select.count("Every player of") == 1 and 'value="state:BR"' not in select


def test_tactical_areas_are_explained(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "cornwallis", stack.passwords["cornwallis"])
    assert 'id="tactical-help"' in client.get(f"/c/{stack.campaign}/reports/0").text
    campaign = client.get(f"/c/{stack.campaign}").text
    assert "(tactical area 1)" in campaign and 'id="tactical-help"' in campaign
    help_page = client.get("/help/orders").text
    assert '<h2 id="tactical-areas">Tactical areas</h2>' in help_page and "rules 1.2, 5.1, 6.8" in help_page


def test_an_id_with_a_newline_in_a_url_is_not_found(web, stack: Stack) -> None:  # noqa: F811
    """ "x%0a" passed "^...$" with re.match and reached the reports service, whose refusal (with
    its pattern) the page quoted as "Something went wrong"."""
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    r = client.get(f"/c/{stack.campaign}/gm/reports/1/ganteaume%0a")
    assert r.status_code == 404 and "<h1>Not found</h1>" in r.text
    assert "{0,63}" not in r.text and "Something went wrong" not in r.text
    assert client.get(f"/c/{stack.campaign}%0a/reports").status_code == 404
