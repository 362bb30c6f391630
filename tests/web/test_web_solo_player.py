"""A plain player's solo campaign from his home page, over HTTP against the real stack
(docs/web.md, "Solo campaigns"): he makes one, plays its first turn, which closes when he
confirms once the bot admiral has played the other seats; another player can neither see it nor
act in it; the server's limits hold; every error of the form is shown at once, beside its field."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from services.web.backend import Backend
from services.web.routes import create_app
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, settings, web  # noqa: F401 (the fixture)
from tests.web.test_web_solo_browser import _bot_played

pytestmark = pytest.mark.e2e


def _solo(client: TestClient, **fields: str):  # type: ignore[no-untyped-def]
    token = csrf(client.get("/").text)
    return client.post("/solo", data={"csrf": token, **fields})


def test_a_player_makes_a_solo_campaign_plays_a_turn_and_it_is_his_alone(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    stack.cluster.start("admiral")
    stack.cluster.wait_serving()
    # no accounts: the login page tells a newcomer how a solo game is started
    said = re.search(r'<p class="note" id="login-solo">([^<]+)', client.get("/login").text)
    assert said and "log in to a campaign you play in" in said.group(1) and "solo game" in said.group(1)
    login(client, stack.campaign, "cornwallis", stack.passwords["cornwallis"])
    home = client.get("/").text
    assert 'id="solo"' in home and '<option value="trafalgar/nelson"' in home
    # each seat says whose side, which role and what ships, not a bare player id
    assert "training — ganteaume: French commander, 4 ships (" in home
    new = stack.campaign + "-p1"
    r = _solo(client, new_id=new, seat="training/ganteaume", combat_rules="eia-advanced")
    assert r.status_code == 200, r.text
    assert 'id="solo-created"' in r.text and re.search(r'<code id="solo-password">[^<]{8,}</code>', r.text)
    assert stack.client.campaign(new).combat_rules == "eia-advanced"
    stack.client.wait_open(new, 1)
    _bot_played(stack, new, 1, {"allemand", "barham", "calder", "cornwallis", "decres"})
    page = client.get(f"/c/{new}")  # logged in to it already, as ganteaume
    assert page.status_code == 200 and 'id="ship-FR1FL"' in page.text
    r = client.post(f"/c/{new}/confirm", data={"csrf": csrf(page.text), "turn": "1", "confirmed": "yes"})
    assert r.status_code == 200
    stack.client.wait_open(new, 2)  # closed by his confirmation, resolved, the next one opened

    s = settings(stack)
    other = TestClient(create_app(Backend(s.orders_addr, s.reports_addr), s))
    with other:
        login(other, stack.campaign, "calder", stack.passwords["calder"])
        seen = other.get(f"/c/{new}")
        assert 'id="ship-FR1FL"' not in seen.text and 'name="password"' in seen.text  # the login form
        token = csrf(other.get("/").text)
        r = other.post(f"/c/{new}/confirm", data={"csrf": token, "turn": "2", "confirmed": "yes"})
        assert 'name="password"' in r.text
    assert stack.client.campaign(new).turn == 2


def test_the_limit_per_hour_holds(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "decres", stack.passwords["decres"])
    for n in (1, 2):  # the default: 2 an hour (services/orders/solo.py)
        assert _solo(client, new_id=f"{stack.campaign}-d{n}", seat="training/barham").status_code == 200
    r = _solo(client, new_id=f"{stack.campaign}-d3", seat="training/barham")
    assert r.status_code == 422
    said = re.search(r'<span class="field-error" id="err-solo-new_id" role="alert">([^<]+)', r.text)
    assert said and "2 solo campaigns an hour at most" in said.group(1)


def test_every_error_of_the_solo_form_at_once(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "allemand", stack.passwords["allemand"])
    r = _solo(client, new_id="Bad Id!", seat="nowhere/nobody", naval_rules="x")
    assert r.status_code == 422
    for field in ("new_id", "seat", "naval_rules"):
        assert f'id="err-solo-{field}"' in r.text, field
    assert 'aria-describedby="err-solo-seat"' in r.text and "no scenario named &#39;nowhere&#39;" in r.text


def test_the_create_form_reports_a_bad_id_and_an_unknown_scenario_together(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data={
            "csrf": token,
            "admin_token": stack.cluster.admin_token,
            "new_id": "BAD ID",
            "scenario": "atlantis",
            "turn_hours": "0",
        },
    )
    assert r.status_code == 422
    for field in ("new_id", "scenario", "turn_hours"):
        assert f'id="err-create-{field}"' in r.text, field
    assert "no scenario named &#39;atlantis&#39;" in r.text
