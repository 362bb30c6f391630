"""The game master's hand-over buttons over HTTP against the real stack (docs/bots.md): hand a
player to the bot admiral, take him back, set the civil-disorder rule; refusals beside their
fields; CSRF required; nothing of it for a player who is not the game master."""

from __future__ import annotations

import pytest

from pate.v1 import absence_pb2, absence_pb2_grpc, bots_pb2, bots_pb2_grpc
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e


def _seats(stack: Stack) -> bots_pb2.BotSeats:
    stub = bots_pb2_grpc.BotAdmiralsStub(stack.client.orders_ch)
    req = bots_pb2.GetBotSeatsRequest(campaign_id=stack.campaign)
    return stub.GetBotSeats(req, metadata=stack.client.admin_md, timeout=10)


def test_the_master_hands_a_player_over_takes_him_back_and_sets_civil_disorder(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    gm = f"/c/{stack.campaign}/gm"
    token = csrf(client.get(gm).text)
    r = client.post(f"{gm}/bots/seats", data={"csrf": token, "action": "hand", "player": "calder"})
    assert r.status_code == 200 and "the bot admiral plays calder" in r.text
    assert '<li data-player="calder">calder: played by the bot since turn' in r.text
    assert {s.player_id for s in _seats(stack).seats} == {"calder"}
    r = client.post(f"{gm}/bots/seats", data={"csrf": token, "action": "take", "player": "calder"})
    assert r.status_code == 200 and "calder plays himself again" in r.text
    assert list(_seats(stack).seats) == []
    r = client.post(f"{gm}/bots/civil-disorder", data={"csrf": token, "after": "2"})
    assert r.status_code == 200 and "after 2 deadline(s) missed in a row" in r.text
    assert _seats(stack).civil_disorder_after == 2
    assert 'id="civil-after" name="after" inputmode="numeric" size="3" maxlength="2" value="2"' in r.text
    client.post(f"{gm}/bots/civil-disorder", data={"csrf": token, "after": "0"})


def test_refusals_are_shown_beside_their_fields(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    gm = f"/c/{stack.campaign}/gm"
    token = csrf(client.get(gm).text)
    r = client.post(f"{gm}/bots/civil-disorder", data={"csrf": token, "after": "99"})
    assert r.status_code == 422 and 'id="err-bots-after"' in r.text
    assert 'aria-describedby="err-bots-after"' in r.text and "0 (never) to 15 deadlines" in r.text
    r = client.post(f"{gm}/bots/seats", data={"csrf": token, "action": "hand", "player": "nelson"})
    assert r.status_code == 422 and 'id="err-bots-hand-player"' in r.text
    assert "choose a player of the campaign" in r.text
    # the game master's own seat has no state: the orders service refuses it, shown by the field
    r = client.post(f"{gm}/bots/seats", data={"csrf": token, "action": "take", "player": "admin"})
    assert r.status_code == 422 and 'id="err-bots-take-player"' in r.text
    assert list(_seats(stack).seats) == [] and _seats(stack).civil_disorder_after == 0


def test_without_csrf_or_as_a_plain_player_nothing_changes(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    gm = f"/c/{stack.campaign}/gm"
    r = client.post(f"{gm}/bots/seats", data={"action": "hand", "player": "calder"})
    assert r.status_code == 403
    login(client, stack.campaign, "calder", stack.passwords["calder"])
    token = csrf(client.get(f"/c/{stack.campaign}").text)
    r = client.post(f"{gm}/bots/seats", data={"csrf": token, "action": "hand", "player": "cornwallis"})
    assert r.status_code == 404
    r = client.post(f"{gm}/bots/civil-disorder", data={"csrf": token, "after": "1"})
    assert r.status_code == 404
    assert list(_seats(stack).seats) == [] and _seats(stack).civil_disorder_after == 0


def test_the_master_sets_the_absence_allowance(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    gm = f"/c/{stack.campaign}/gm"
    token = csrf(client.get(gm).text)
    r = client.post(f"{gm}/bots/absence", data={"csrf": token, "allowance": "99"})
    assert (
        r.status_code == 422
        and 'id="err-bots-allowance"' in r.text
        and "0 (no absence) to 15 turns" in r.text
    )
    r = client.post(f"{gm}/bots/absence", data={"csrf": token, "allowance": "5"})
    assert r.status_code == 200 and "absence: each player may be away 5 turns" in r.text
    stub = absence_pb2_grpc.AbsencesStub(stack.client.orders_ch)
    req = absence_pb2.GetAbsenceRequest(campaign_id=stack.campaign)
    got = stub.GetAbsence(req, metadata=stack.client.player_md(stack.campaign, "barham"), timeout=10)
    assert got.allowance == 5
    client.post(f"{gm}/bots/absence", data={"csrf": token, "allowance": "3"})  # as the other tests expect
