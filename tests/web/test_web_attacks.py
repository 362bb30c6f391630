"""The red team's attacks on the web desk now fail: a campaign's game master cannot create
campaigns server-wide, a CSRF value planted before login is worthless after it, status text
comes from this server's own flash cookie and never from the URL; and a failed turn shows on
the game master's page (with its reason) and is recovered from there."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import delete

from pate.v1 import admin_pb2
from services.platform.store import failures, recovery_tables
from services.platform.store.db import make_engine
from services.web import security
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e

SPOOF = "Your+account+is+locked:+call+0800-PHISH"


def test_the_game_master_cannot_create_a_campaign(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)
    new = stack.campaign + "-gm"
    said = {"": "give his token", "wrong-token": "this is not the server administrator&#39;s token"}
    for given, why in said.items():
        r = client.post(
            f"/c/{stack.campaign}/gm/create",
            data={"csrf": token, "admin_token": given, "new_id": new, "scenario": "training"},
        )
        assert r.status_code == 403 and why in r.text  # beside the token's input, each its own
        assert 'id="logins"' not in r.text  # no passwords shown
    listed = stack.client.admin.ListCampaigns(
        admin_pb2.ListCampaignsRequest(), metadata=stack.client.admin_md
    )
    assert new not in {c.id for c in listed.campaigns}


def test_the_server_administrator_token_is_not_a_game_masters(web, stack: Stack) -> None:  # noqa: F811
    """And the other way: the administrator token opens no campaign's game master page."""
    client, _ = web
    client.cookies.set("pate_session", stack.cluster.admin_token, domain="desk.test")
    assert client.get(f"/c/{stack.campaign}/gm").status_code in (401, 404)


def test_a_csrf_value_planted_before_login_is_worthless_after_it(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    planted = "attacker-chosen-browser-id"
    client.cookies.set(security.BROWSER_COOKIE, planted, domain="desk.test")
    before = csrf(client.get("/login").text)  # the token the attacker can compute for his cookie
    r = client.post(
        "/login",
        data={"csrf": before, "campaign": stack.campaign, "player": "admin",
              "password": stack.passwords["admin"], "kept": ""},
        follow_redirects=False,
    )  # fmt: skip
    assert r.status_code == 303
    fresh = client.cookies.get(security.BROWSER_COOKIE, domain="desk.test")
    assert fresh and fresh != planted  # a new value at login
    r = client.post(f"/c/{stack.campaign}/gm/close", data={"csrf": before, "turn": "99"})
    assert r.status_code == 403  # the old token does nothing
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)
    assert token != before
    client.post("/logout", data={"csrf": token})
    assert client.cookies.get(security.BROWSER_COOKIE, domain="desk.test") != fresh  # a new one again


def test_status_text_in_the_url_is_not_shown(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    assert "PHISH" not in client.get(f"/c/{stack.campaign}/gm?done={SPOOF}").text
    assert "PHISH" not in client.get(f"/c/{stack.campaign}?sent={SPOOF}").text
    assert "Orders accepted for" not in client.get(f"/c/{stack.campaign}?sent=BR1FL").text
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)
    r = client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "deadline": "2031-05-01T12:00"})
    assert "deadline of turn 1: 2031-05-01 12:00 UTC" in r.text  # this server's own message
    again = client.get(f"/c/{stack.campaign}/gm").text
    assert "2031-05-01 12:00 UTC</p>" not in again.split('id="gm-done"')[-1][:80]  # shown once
    forged = client.cookies.get(security.FLASH_COOKIE, domain="desk.test") or "e30.00"
    client.cookies.set(security.FLASH_COOKIE, forged.split(".")[0] + ".00", domain="desk.test")
    assert 'id="gm-done"' not in client.get(f"/c/{stack.campaign}/gm").text  # unsigned: ignored
    client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "clear": "on"})


def test_a_failed_turn_shows_on_the_gm_page_and_is_retried(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    engine = make_engine(stack.cluster.database_url)
    try:
        with engine.begin() as conn:
            failures.record_failure(
                conn, stack.campaign, 1, stage="resolver", reason="KeyError: 'BR2TR'",
                subject=f"pate.turn_closed.{stack.campaign}", payload=b"", headers={},
            )  # fmt: skip
        login(client, stack.campaign, "calder", stack.passwords["calder"])
        seen = client.get(f"/c/{stack.campaign}").text
        assert "BR2TR" not in seen and "KeyError" not in seen  # a player is not told why
        told = re.search(r'<strong id="turn-failed">[^<]*</strong>([^<]*)', seen)  # but what happens next
        assert told and "game master has been told" in told.group(1) and "No deadline runs" in told.group(1)
        login(client, stack.campaign, "admin", stack.passwords["admin"])
        page = client.get(f"/c/{stack.campaign}/gm").text
        assert 'id="failed-turn"' in page and "KeyError: &#39;BR2TR&#39;" in page
        r = client.post(
            f"/c/{stack.campaign}/gm/failed", data={"csrf": csrf(page), "action": "retry", "turn": "1"}
        )
        assert r.status_code == 200 and "turn 1 sent to be resolved again" in r.text
        assert 'id="failed-turn"' not in r.text
        r = client.post(
            f"/c/{stack.campaign}/gm/failed", data={"csrf": csrf(r.text), "action": "retry", "turn": "1"}
        )
        assert r.status_code == 422 and "has not failed" in r.text  # nothing failed any more
    finally:
        with engine.begin() as conn:
            conn.execute(
                delete(recovery_tables.turn_failures).where(
                    recovery_tables.turn_failures.c.campaign == stack.campaign
                )
            )
        engine.dispose()


def test_a_token_of_another_session_does_not_act_in_this_one(web, stack: Stack) -> None:  # noqa: F811
    """The attacker (a sibling host that can set the desk's cookies after the victim's login)
    plants his own browser cookie, whose token he knows from his own session: the token is bound
    to the session as well, so the victim's session refuses it and nothing is done."""
    client, _ = web
    login(client, stack.campaign, "cornwallis", stack.passwords["cornwallis"])  # the attacker's own
    his_token = csrf(client.get(f"/c/{stack.campaign}").text)
    his_browser = client.cookies.get(security.BROWSER_COOKIE, domain="desk.test")
    assert his_browser
    client.cookies.clear()
    login(client, stack.campaign, "admin", stack.passwords["admin"])  # the victim, in his browser
    page = client.get(f"/c/{stack.campaign}/gm").text
    client.cookies.set(security.BROWSER_COOKIE, his_browser, domain="desk.test")  # planted after login
    r = client.post(
        f"/c/{stack.campaign}/gm/deadline", data={"csrf": his_token, "deadline": "2033-03-03T12:00"}
    )
    assert r.status_code == 401 and "your session changed" in r.text  # the login page; nothing done
    assert "2033-03-03" not in page and "2033-03-03" not in client.get(f"/c/{stack.campaign}/gm").text
    # and the victim's own form, with his own cookies, still works
    client.cookies.delete(security.BROWSER_COOKIE, domain="desk.test")
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)
    r = client.post(f"/c/{stack.campaign}/gm/deadline", data={"csrf": token, "deadline": "2033-03-03T12:00"})
    assert r.status_code == 200 and "2033-03-03 12:00 UTC" in r.text


def test_a_token_of_another_campaigns_page_does_not_act_here(web, stack: Stack) -> None:  # noqa: F811
    """A token is for its campaign's session: one from a page outside any campaign (the login
    page, which an attacker's frame could make the browser load) does nothing in a campaign."""
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    unbound = csrf(client.get("/login").text)
    r = client.post(
        f"/c/{stack.campaign}/gm/deadline", data={"csrf": unbound, "deadline": "2034-04-04T12:00"}
    )
    assert r.status_code == 401
    assert "2034-04-04" not in client.get(f"/c/{stack.campaign}/gm").text
