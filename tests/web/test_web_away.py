"""The player's Away page over HTTP against the real stack (docs/web.md, docs/bots.md
"Absence"): declare an absence and end it, write standing instructions, refusals shown above
their form with what he typed kept, CSRF required."""

from __future__ import annotations

import pytest

from pate.v1 import absence_pb2, absence_pb2_grpc
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e


def _state(stack: Stack, player: str) -> absence_pb2.AbsenceState:
    stub = absence_pb2_grpc.AbsencesStub(stack.client.orders_ch)
    req = absence_pb2.GetAbsenceRequest(campaign_id=stack.campaign)
    return stub.GetAbsence(req, metadata=stack.client.player_md(stack.campaign, player), timeout=10)


def test_a_player_declares_an_absence_ends_it_and_writes_his_instructions(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "calder", stack.passwords["calder"])
    page = f"/c/{stack.campaign}/away"
    assert 'id="away-link"' in client.get(f"/c/{stack.campaign}").text
    r = client.get(page)
    assert r.status_code == 200 and "You have used 0 of your 3 absent turns" in r.text
    token = csrf(r.text)
    r = client.post(
        f"{page}/absence", data={"csrf": token, "action": "declare", "from_turn": "2", "to_turn": "3"}
    )
    assert r.status_code == 200 and "away from turn 2 to turn 3" in r.text
    assert "Turns 2 to 3" in r.text and "You have used 2 of your 3" in r.text
    assert [(a.from_turn, a.to_turn) for a in _state(stack, "calder").absences] == [(2, 3)]
    r = client.post(
        f"{page}/absence", data={"csrf": token, "action": "declare", "from_turn": "4", "to_turn": "5"}
    )
    assert r.status_code == 422 and 'id="absence-error"' in r.text and "2 turns asked, 1 left" in r.text
    assert 'name="from_turn" inputmode="numeric" pattern="[0-9]{1,3}" maxlength="3" value="4"' in r.text
    r = client.post(f"{page}/absence", data={"csrf": token, "action": "cancel", "from_turn": "2"})
    assert r.status_code == 200 and "absence ended" in r.text and list(_state(stack, "calder").absences) == []

    text = "if superior enemy sighted then return Plymouth for BR2FL\nkeep blockade Brest"
    r = client.post(f"{page}/standing", data={"csrf": token, "text": text})
    assert r.status_code == 200 and "2 standing instructions kept" in r.text
    assert "keep blockade Brest</textarea>" in r.text
    r = client.post(f"{page}/standing", data={"csrf": token, "text": "keep in port\nsail home"})
    assert r.status_code == 422 and 'id="standing-error"' in r.text
    assert "line 2: action: " in r.text and "sail home</textarea>" in r.text
    r = client.post(f"{page}/standing", data={"csrf": token, "text": "keep in port for BR1FL"})
    assert r.status_code == 422 and "line 1: for: BR1FL is not a ship you order" in r.text
    r = client.post(f"{page}/standing", data={"csrf": token, "text": ""})
    assert r.status_code == 200 and "standing instructions cleared" in r.text


def test_without_csrf_nothing_changes(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "calder", stack.passwords["calder"])
    r = client.post(
        f"/c/{stack.campaign}/away/absence", data={"action": "declare", "from_turn": "2", "to_turn": "2"}
    )
    assert r.status_code == 403 and list(_state(stack, "calder").absences) == []


def test_the_game_master_without_a_state_has_no_away_page(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    assert 'id="away-link"' not in client.get(f"/c/{stack.campaign}").text
    r = client.get(f"/c/{stack.campaign}/away")
    assert r.status_code == 404 and "There is nothing here for you." in r.text
