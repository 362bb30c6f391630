"""The game master's pages over HTTP against the real stack: deadlines,
passwords, a new campaign, every player's reports; none of it for a player
without the administrator role."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import grpc
import pytest
from starlette.testclient import TestClient

from pate.core.world.state import COMBAT_RULESETS, NAVAL_RULESETS
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e


def _admin(stack: Stack) -> dict[str, str]:
    """What the create form needs besides its fields: the server administrator's token."""
    return {"admin_token": stack.cluster.admin_token}


def _gm(client: TestClient, stack: Stack) -> str:
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    page = client.get(f"/c/{stack.campaign}/gm")
    assert page.status_code == 200
    return csrf(page.text)


def test_the_master_sets_then_extends_the_deadline(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    token = _gm(client, stack)
    r = client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "deadline": "2031-05-01T12:00"})
    assert r.status_code == 200 and "2031-05-01 12:00 UTC" in r.text
    assert stack.client.campaign(stack.campaign).deadline.ToDatetime(tzinfo=UTC) == datetime(
        2031, 5, 1, 12, tzinfo=UTC
    )
    r = client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "extend_hours": "6"})
    assert r.status_code == 200
    got = stack.client.campaign(stack.campaign).deadline.ToDatetime(tzinfo=UTC)
    assert got == datetime(2031, 5, 1, 18, tzinfo=UTC)
    r = client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "deadline": "tomorrow"})
    assert r.status_code == 422 and "YYYY-MM-DDTHH:MM" in r.text
    r = client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "clear": "on"})
    assert r.status_code == 200 and not stack.client.campaign(stack.campaign).HasField("deadline")


def test_the_deadline_shows_on_the_players_page_with_a_countdown(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    token = _gm(client, stack)
    soon = (datetime.now(UTC) + timedelta(hours=30)).strftime("%Y-%m-%dT%H:%M")
    client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "deadline": soon})
    login(client, stack.campaign, "calder", stack.passwords["calder"])
    page = client.get(f"/c/{stack.campaign}").text
    assert re.search(r'class="countdown" data-deadline="[^"]+"[^>]*>(29|30) h left', page)
    assert 'class="local" data-deadline=' in page and " UTC</time>" in page
    client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": _gm(client, stack), "clear": "on"})


def test_the_master_sets_a_password_and_the_player_logs_in_with_it(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    token = _gm(client, stack)
    r = client.post(
        f"/c/{stack.campaign}/gm/password", data={"csrf": token, "player": "allemand", "password": "short"}
    )
    assert r.status_code == 422 and "8 to 1024" in r.text
    r = client.post(
        f"/c/{stack.campaign}/gm/password",
        data={"csrf": token, "player": "allemand", "password": "a-new-one-1805"},
    )
    assert r.status_code == 200 and "password of allemand set" in r.text
    login(client, stack.campaign, "allemand", "a-new-one-1805")
    stack.passwords["allemand"] = "a-new-one-1805"


def test_the_master_creates_a_campaign_and_sees_its_passwords_once(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    token = _gm(client, stack)
    new = stack.campaign + "-b"
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data={
            "csrf": token,
            "admin_token": stack.cluster.admin_token,
            "new_id": new,
            "scenario": "training",
            "turn_hours": "48",
        },
    )
    assert r.status_code == 200 and f"campaign {new} created" in r.text
    logins = dict(re.findall(r"<tr><td>([a-z]+)</td><td><code>([^<]+)</code>", r.text))
    assert "cornwallis" in logins
    stack.client.wait_open(new, 1)
    login(client, new, "cornwallis", logins["cornwallis"])
    assert "BR1FL" in client.get(f"/c/{new}").text
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)  # a login makes new tokens
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data={
            "csrf": token,
            "admin_token": stack.cluster.admin_token,
            "new_id": "Bad Id",
            "scenario": "training",
        },
    )
    assert r.status_code == 422


def _rules_select(page: str) -> str:
    found = re.search(
        r'<select id="new-rules" name="combat_rules"[^>]*>(.*?)</select>(.*?)<label', page, re.S
    )
    assert found, "the create form has no combat rules select"
    return found.group(0)


def test_the_master_chooses_the_naval_rules_of_a_new_campaign(web, stack: Stack) -> None:  # noqa: F811
    """Through the web: the naval rules select offers the core's naval rule sets
    (and the scenario's own); the choice reaches CreateCampaign and the campaign
    remembers it; an unknown one is refused beside the select."""
    client, _ = web
    token = _gm(client, stack)
    page = client.get(f"/c/{stack.campaign}/gm").text
    found = re.search(r'<select id="new-naval" name="naval_rules"[^>]*>(.*?)</select>', page, re.S)
    assert found and re.findall(r'<option value="([^"]*)"', found.group(0)) == ["", *NAVAL_RULESETS]
    new = stack.campaign + "-ops"
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data={
            **_admin(stack),
            "csrf": token,
            "new_id": new,
            "scenario": "training",
            "naval_rules": "eia-operations",
        },
    )
    assert r.status_code == 200, r.text
    assert "Empires in Arms, fleet operations" in r.text
    assert stack.client.campaign(new).naval_rules == "eia-operations"
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data={
            **_admin(stack),
            "csrf": token,
            "new_id": stack.campaign + "-ops2",
            "scenario": "training",
            "naval_rules": "x",
        },
    )
    assert r.status_code == 422 and 'id="err-create-naval_rules"' in r.text


def test_the_master_chooses_the_combat_rules_of_a_new_campaign(web, stack: Stack) -> None:  # noqa: F811
    """Through the web: the select offers the core's rule sets (and the scenario's
    own), the choice reaches CreateCampaign, and a refusal shows beside the select."""
    client, _ = web
    token = _gm(client, stack)

    def create(**fields: str) -> dict[str, str]:  # the server administrator's form
        return {"csrf": token, "admin_token": stack.cluster.admin_token, **fields}

    select = _rules_select(client.get(f"/c/{stack.campaign}/gm").text)
    assert re.findall(r'<option value="([^"]*)"', select) == ["", *COMBAT_RULESETS]
    assert "Empires in Arms, advanced naval rules</option>" in select

    new = stack.campaign + "-eia"
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data=create(new_id=new, scenario="training", combat_rules="eia-advanced"),
    )
    assert r.status_code == 200, r.text
    assert f"campaign {new} created (Empires in Arms, advanced naval rules rules)" in r.text
    assert stack.client.campaign(new).combat_rules == "eia-advanced"

    plain = stack.campaign + "-own"
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data=create(new_id=plain, scenario="training"),
    )
    assert r.status_code == 200 and "(PATE rules)" in r.text
    assert stack.client.campaign(plain).combat_rules == "pate"  # the training scenario's own

    bad = stack.campaign + "-bad"
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data=create(new_id=bad, scenario="training", combat_rules="eia-basic"),
    )
    assert r.status_code == 422
    select = _rules_select(r.text)  # the orders service's refusal, beside the select it is about
    assert 'aria-invalid="true" aria-describedby="err-create-combat_rules"' in select
    said = re.search(r'<span class="field-error" id="err-create-combat_rules" role="alert">([^<]+)', select)
    assert said and "is not a known rule set (pate, eia-advanced, eia-advanced-revolution)" in said.group(1)
    assert 'id="gm-error"' not in r.text  # shown by its field, not at the top
    assert f'name="new_id" maxlength="40" pattern="[a-z0-9-]{{1,40}}" value="{bad}"' in r.text  # kept
    with pytest.raises(grpc.RpcError) as err:
        stack.client.campaign(bad)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND  # nothing was created

    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data=create(new_id=new, scenario="training", combat_rules="pate"),
    )
    assert r.status_code == 422 and 'id="err-create-new_id"' in r.text and "already exists" in r.text
    assert stack.client.campaign(new).combat_rules == "eia-advanced"  # the first one stands


def test_the_master_reads_every_players_report(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    _gm(client, stack)
    page = client.get(f"/c/{stack.campaign}/gm/reports")
    assert page.status_code == 200
    for player in ("cornwallis", "ganteaume", "barham"):
        assert f"Turn 0: {player}" in page.text
    body = client.get(f"/c/{stack.campaign}/gm/reports/0/ganteaume")
    assert body.status_code == 200 and "<svg" in body.text


def test_a_player_reaches_none_of_the_masters_pages(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "cornwallis", stack.passwords["cornwallis"])
    token = csrf(client.get(f"/c/{stack.campaign}").text)
    for url in ("/gm", "/gm/reports", "/gm/reports/0/ganteaume"):
        assert client.get(f"/c/{stack.campaign}{url}").status_code == 404, url
    r = client.post(f"/c/{stack.campaign}/gm/close", data={"csrf": token, "turn": "1"})
    assert r.status_code == 404
    assert stack.client.campaign(stack.campaign).turn == 1


def test_pause_stops_the_deadline_and_resume_gives_back_the_time_left(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    token = _gm(client, stack)
    soon = (datetime.now(UTC) + timedelta(hours=10)).strftime("%Y-%m-%dT%H:%M")
    client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "deadline": soon})
    r = client.post(f"/c/{stack.campaign}/gm/pause", data={"csrf": token, "action": "pause"})
    assert r.status_code == 200 and "paused with 9 h" in r.text and 'id="paused"' in r.text
    assert not stack.client.campaign(stack.campaign).HasField(
        "deadline"
    )  # the scheduler has nothing to close
    r = client.post(f"/c/{stack.campaign}/gm/pause", data={"csrf": token, "action": "pause"})
    assert r.status_code == 422 and "already paused" in r.text
    login(client, stack.campaign, "calder", stack.passwords["calder"])
    assert "Paused by the game master" in client.get(f"/c/{stack.campaign}").text
    token = _gm(client, stack)
    r = client.post(f"/c/{stack.campaign}/gm/pause", data={"csrf": token, "action": "resume"})
    assert r.status_code == 200 and "resumed" in r.text
    left = stack.client.campaign(stack.campaign).deadline.ToDatetime(tzinfo=UTC) - datetime.now(UTC)
    assert timedelta(hours=9) < left <= timedelta(hours=10)
    client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "clear": "on"})


def test_the_minister_assigns_officers_who_command_from_the_next_turn(web, stack: Stack) -> None:  # noqa: F811
    """Rule 2.3, through the web, the orders service and the resolver: barham
    makes calder commander of BR1FR; cornwallis keeps her for this turn; after
    the turn is resolved she is calder's."""
    client, _ = web
    login(client, stack.campaign, "barham", stack.passwords["barham"])
    page = client.get(f"/c/{stack.campaign}/minister")
    assert page.status_code == 200 and 'name="BR1FR.commander"' in page.text
    assert "<title>Ports and stores · PATE</title>" in page.text  # the title is text, not a copy of the form
    assert page.text.count('action="/c/' + stack.campaign + '/minister/officers"') == 1
    token = csrf(page.text)
    keep = {"BR1FR.deputy": ""}
    r = client.post(
        f"/c/{stack.campaign}/minister/officers",
        data={"csrf": token, "BR1FR.commander": "calder", "BR1FR.deputy": "calder"},
    )
    assert r.status_code == 422 and "another player than the commander (rule 2.3)" in r.text
    # after the refusal both selects still show what he chose, not the ship's officers
    for role in ("commander", "deputy"):
        select = r.text.split(f'name="BR1FR.{role}"', 1)[1].split("</select>", 1)[0]
        assert '<option value="calder" selected>' in select
    r = client.post(
        f"/c/{stack.campaign}/minister/officers", data={"csrf": token, "BR1FR.commander": "calder", **keep}
    )
    assert r.status_code == 200 and "1 assignments sent" in r.text
    assert "<td>calder / none</td>" in r.text  # sent, not yet in force
    login(client, stack.campaign, "cornwallis", stack.passwords["cornwallis"])
    assert 'id="ship-BR1FR"' in client.get(f"/c/{stack.campaign}").text  # still his this turn

    stack.client.close_turn(stack.campaign, 1)
    stack.client.wait_open(stack.campaign, 2, timeout=120)
    assert 'id="ship-BR1FR"' not in client.get(f"/c/{stack.campaign}").text
    login(client, stack.campaign, "calder", stack.passwords["calder"])
    block = client.get(f"/c/{stack.campaign}").text.split('id="ship-BR1FR"', 1)[1].split("</li>", 1)[0]
    assert "you are its commander" in block
