"""Logging in and out of the web desk: a revoked session is no longer shown as logged in and the
login page names its player again; logout is a post-redirect-get that says it is done; pages
behind the login are never stored; and in Chromium, Back after logout shows the login, never a
"Confirm Form Resubmission"."""

from __future__ import annotations

from typing import Any

import pytest

from services.web import security
from tests.web.conftest import Stack
from tests.web.test_web_browser import _login, _wait_for, browser  # noqa: F401 (the fixture)
from tests.web.test_web_http import COMMANDER, OTHER, _revoke, csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e


def test_a_revoked_session_is_not_shown_as_logged_in(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    assert "Log out" in client.get(f"/c/{stack.campaign}").text
    _revoke(stack, COMMANDER)
    r = client.get(f"/c/{stack.campaign}")
    assert r.status_code == 401 and "<h1>Log in</h1>" in r.text
    assert "Log out" not in r.text and f"{stack.campaign} ({COMMANDER})" not in r.text
    assert f'name="player" value="{COMMANDER}"' in r.text  # his player id, not a blank field
    assert not client.cookies.get(security.SESSION_COOKIE, domain="desk.test")  # gone from the cookie
    assert "Log out" not in client.get("/login").text


def test_a_revoked_session_leaves_the_home_page(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    _revoke(stack, COMMANDER)
    r = client.get("/", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    assert not client.cookies.get(security.SESSION_COOKIE, domain="desk.test")


def test_a_wrong_password_keeps_the_player_id(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    token = csrf(client.get("/login").text)
    data = {
        "csrf": token,
        "campaign": stack.campaign,
        "player": COMMANDER,
        "password": "wrong-pw-1",
        "kept": "",
    }
    r = client.post("/login", data=data)
    assert r.status_code == 401 and f'name="player" value="{COMMANDER}"' in r.text


def test_logout_redirects_says_so_and_nothing_behind_the_login_is_stored(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    for path in (f"/c/{stack.campaign}", f"/c/{stack.campaign}/reports", f"/c/{stack.campaign}/ships/BR1FL"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store", path
    r = client.post(
        "/logout", data={"csrf": csrf(client.get(f"/c/{stack.campaign}").text)}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == "/login"  # post-redirect-get
    assert r.headers["cache-control"] == "no-store"
    page = client.get("/login")
    assert 'id="login-notice"' in page.text and "You are logged out." in page.text
    assert "Log out" not in page.text
    assert "You are logged out." not in client.get("/login").text  # said once
    r = client.get(f"/c/{stack.campaign}")
    assert r.status_code == 401 and r.headers["cache-control"] == "no-store"


def test_back_after_logout_shows_the_login_and_resends_nothing(browser: Any, stack: Stack) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    driver = browser
    _login(driver, stack, COMMANDER)
    driver.find_element(By.CSS_SELECTOR, "header form.inline button[type=submit]").click()
    _wait_for(driver, "/login")
    assert "You are logged out." in driver.page_source
    driver.back()
    _wait_for(driver, f"/c/{stack.campaign}")  # the campaign page, asked again (never stored)
    source = driver.page_source
    assert "ERR_CACHE_MISS" not in source and "Resubmission" not in source
    assert "<h1>Log in</h1>" in source and "Log out" not in source
    assert driver.find_element(By.ID, "player").get_attribute("value") == ""  # logged out: no entry


def test_the_form_kept_across_a_login_is_sent_with_the_token_of_the_new_session(web, stack: Stack) -> None:  # noqa: F811
    """The CSRF token binds the session: the form the login gives back carries a token of the new
    session (not the ended one's), and sending it works."""
    import html
    import re

    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    page = client.get(f"/c/{stack.campaign}/ships/BR3SL").text
    _revoke(stack, OTHER)
    data = {"csrf": csrf(page), "ships": "BR3SL", "turn": "1", "0.mode": "evade", "0.maximum": "4"}
    r = client.post(f"/c/{stack.campaign}/orders", data=data)
    assert r.status_code == 401
    kept = re.search(r'name="kept" value="([^"]*)"', r.text)
    assert kept is not None
    again = {"csrf": csrf(r.text), "campaign": stack.campaign, "player": OTHER,
             "password": stack.passwords[OTHER], "kept": html.unescape(kept.group(1))}  # fmt: skip
    r = client.post("/login", data=again)
    assert r.status_code == 200 and '<option value="evade" selected>' in r.text
    fresh = csrf(r.text)
    assert fresh != data["csrf"]
    r = client.post(f"/c/{stack.campaign}/orders", data={**data, "csrf": fresh}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/c/{stack.campaign}#sent"
    r = client.post(f"/c/{stack.campaign}/orders", data=data, follow_redirects=False)
    assert r.status_code == 403  # the ended session's token: another browser cookie since the login
