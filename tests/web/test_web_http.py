"""The web desk over plain HTTP against the real stack: the app in process
(Starlette's TestClient) with a real Backend talking gRPC to the running
orders and reports services.  Login, the campaign page, the order form's
refusals by field, CSRF, other players' URLs, session expiry, logout, the
security headers, size limits and a service that is down."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from services.web.backend import Backend
from services.web.config import WebSettings
from services.web.routes import create_app
from tests.web.conftest import Stack

pytestmark = pytest.mark.e2e

COMMANDER = "cornwallis"  # commands BR1FL, the lead of a squadron in ECH (training scenario)
OTHER = "calder"  # another British commander
FRENCH = "ganteaume"


def settings(stack: Stack | None, **kw: object) -> WebSettings:
    base: dict[str, object] = {  # noqa: RUF100
        "addr": "127.0.0.1:0",
        "orders_addr": stack.cluster.orders_addr if stack else "127.0.0.1:1",
        "reports_addr": stack.cluster.reports_addr if stack else "127.0.0.1:1",
        "secret": b"s" * 32,
        "max_body_bytes": 64 * 1024,
    }
    base.update(kw)
    return WebSettings(**base)  # type: ignore[arg-type]


@pytest.fixture
def web(stack: Stack) -> Iterator[tuple[TestClient, Backend]]:
    s = settings(stack)
    backend = Backend(s.orders_addr, s.reports_addr)
    with TestClient(create_app(backend, s), base_url="http://desk.test") as client:
        yield client, backend


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert found, "the page has no CSRF token"
    return found.group(1)


def login(client: TestClient, campaign: str, player: str, password: str) -> None:
    token = csrf(client.get("/login").text)
    r = client.post(
        "/login",
        data={"csrf": token, "campaign": campaign, "player": player, "password": password, "kept": ""},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    assert r.headers["location"] == f"/c/{campaign}"


def test_login_sets_a_strict_httponly_cookie_and_shows_my_ships(web, stack: Stack) -> None:
    client, _ = web
    token = csrf(client.get("/login").text)
    r = client.post(
        "/login",
        data={
            "csrf": token,
            "campaign": stack.campaign,
            "player": COMMANDER,
            "password": stack.passwords[COMMANDER],
        },
        follow_redirects=False,
    )
    cookie = r.headers["set-cookie"]
    assert "pate_session=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Secure" not in cookie  # plain HTTP here; under TLS the cookie is Secure
    page = client.get(f"/c/{stack.campaign}")
    assert page.status_code == 200
    assert "BR1FL" in page.text and "Squadron of BR1FL" in page.text
    assert "BR2FR" not in page.text  # calder's frigate: not his
    assert "no orders yet" in page.text and "the default orders (rule 4.11)" in page.text
    squadron = page.text.split('id="ship-BR1SL"', 1)[1].split("</li>", 1)[0]
    assert "copied from BR1FL" in squadron and "no orders yet" not in squadron  # rule 4.2
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp


def test_the_campaign_and_game_master_pages_say_which_rules_it_plays(web, stack: Stack) -> None:
    """The training campaign plays PATE's combat rules; both pages say so."""
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    assert '<strong id="combat-rules">PATE</strong>' in client.get(f"/c/{stack.campaign}").text
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    assert '<strong id="combat-rules">PATE</strong>' in client.get(f"/c/{stack.campaign}/gm").text


def test_under_tls_the_cookies_are_secure(stack: Stack) -> None:
    s = settings(stack)
    backend = Backend(s.orders_addr, s.reports_addr)
    with TestClient(create_app(backend, s), base_url="https://desk.test") as client:
        page = client.get("/login")
        assert "Secure" in page.headers["set-cookie"]  # the browser cookie the CSRF token is bound to
        r = client.post(
            "/login",
            data={
                "csrf": csrf(page.text),
                "campaign": stack.campaign,
                "player": COMMANDER,
                "password": stack.passwords[COMMANDER],
            },
            follow_redirects=False,
        )
        cookie = r.headers["set-cookie"]
        assert "pate_session=" in cookie and "Secure" in cookie and "HttpOnly" in cookie


def test_wrong_password_is_refused_without_saying_which_part(web, stack: Stack) -> None:
    client, _ = web
    token = csrf(client.get("/login").text)
    r = client.post(
        "/login",
        data={"csrf": token, "campaign": stack.campaign, "player": COMMANDER, "password": "wrong-one"},
    )
    assert r.status_code == 401
    assert "not recognised" in r.text
    assert "pate_session" not in r.headers.get("set-cookie", "")
    # a campaign id no campaign can have, or a password of the length the services take
    # (8 to 1,024 characters), is "not recognised" too: never a field name or a pattern
    for campaign, password in ((stack.campaign.upper(), "wrong-one"), (stack.campaign, "Q" * 1024)):
        data = {"csrf": token, "campaign": campaign, "player": COMMANDER, "password": password}
        r = client.post("/login", data=data)
        assert r.status_code == 401 and "not recognised" in r.text, campaign
        assert "campaign_id" not in r.text and "[a-z0-9]" not in r.text


def test_a_mistake_is_shown_by_its_field_and_nothing_is_accepted_then_fixed(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    form_page = client.get(f"/c/{stack.campaign}/ships/BR2FR")
    assert form_page.status_code == 200
    data = {
        "csrf": csrf(form_page.text),
        "ships": "BR2FR",
        "turn": "1",
        "0.minimum": "2",
        "0.join_allies": "on",
    }
    r = client.post(f"/c/{stack.campaign}/orders", data=data)
    assert r.status_code == 422
    err = re.search(r'id="err-0-minimum"[^>]*>([^<]+)<', r.text)
    assert err and "rule 4.6" in err.group(1)
    assert 'aria-invalid="true"' in r.text
    page = client.get(f"/c/{stack.campaign}")
    assert "no orders yet" in page.text.split('id="ship-BR2FR"', 1)[1].split("</li>", 1)[0]

    data["0.mode"] = "pursue"
    r = client.post(f"/c/{stack.campaign}/orders", data=data, follow_redirects=False)
    assert r.status_code == 303
    page = client.get(r.headers["location"])
    block = page.text.split('id="ship-BR2FR"', 1)[1].split("</li>", 1)[0]
    assert "the commander&#39;s order" in block and "contact pursue" in block
    assert "no orders yet" not in block


def test_missing_or_wrong_csrf_is_403_and_changes_nothing(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    before = client.get(f"/c/{stack.campaign}").text.split('id="ship-BR2FL"', 1)[1].split("</li>", 1)[0]
    for token in ("", "0" * 64):
        data = {"ships": "BR2FL", "turn": "1", "0.mode": "evade", "0.join_allies": "on"}
        if token:
            data["csrf"] = token
        r = client.post(f"/c/{stack.campaign}/orders", data=data)
        assert r.status_code == 403
    after = client.get(f"/c/{stack.campaign}").text.split('id="ship-BR2FL"', 1)[1].split("</li>", 1)[0]
    assert before == after and "contact evade" not in after
    r = client.post("/logout", data={})
    assert r.status_code == 403
    assert client.get(f"/c/{stack.campaign}").status_code == 200  # still logged in


def test_another_players_ship_campaign_and_report_are_never_shown(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    for url in (
        f"/c/{stack.campaign}/ships/FR1SL",  # a French ship
        f"/c/{stack.campaign}/ships/BR2FR",  # calder's
        f"/c/{stack.campaign}/squadron/BR2FR",
        f"/c/{stack.campaign}/ships/NOSUCH",
    ):
        r = client.get(url)
        assert r.status_code == 404, url
        assert "Not found" in r.text and "BR2FR " not in r.text
    r = client.get("/c/some-other-campaign")
    assert r.status_code == 401 and "Log in" in r.text  # no session for that campaign: the login
    r = client.get(f"/c/{stack.campaign}/reports/7")
    assert r.status_code == 404
    page = client.get(f"/c/{stack.campaign}/ships/BR1FL").text
    r = client.post(
        f"/c/{stack.campaign}/orders",
        data={"csrf": csrf(page), "ships": "BR2FR", "turn": "1", "0.join_allies": "on"},
    )
    assert r.status_code == 404  # ordering another's ship by a forged form
    assert client.get(f"/c/{stack.campaign}/gm").status_code == 404  # not a game master


def _revoke(stack: Stack, player: str) -> None:
    """The orders service ends every session of the player (as at expiry)."""
    from pate.v1 import sessions_pb2

    stack.client.sessions.RevokeSessions(
        sessions_pb2.RevokeSessionsRequest(campaign_id=stack.campaign, player_id=player),
        metadata=stack.client.admin_md,
        timeout=10,
    )


@pytest.mark.parametrize("how", ["revoked", "time_up"])
def test_an_expired_session_goes_to_the_login_and_keeps_the_form(web, stack: Stack, how: str) -> None:
    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    page = client.get(f"/c/{stack.campaign}/ships/BR3SL").text
    if how == "revoked":  # the service no longer knows the token
        _revoke(stack, OTHER)
    else:  # the cookie's time is up
        campaign, player, _, token = client.cookies["pate_session"].strip('"').split(":")
        client.cookies.delete("pate_session")
        client.cookies.set("pate_session", f"{campaign}:{player}:1000:{token}", domain="desk.test")
    data = {"csrf": csrf(page), "ships": "BR3SL", "turn": "1", "0.mode": "evade", "0.maximum": "4"}
    r = client.post(f"/c/{stack.campaign}/orders", data=data)
    assert r.status_code == 401
    assert 'name="kept"' in r.text and "Log in" in r.text
    kept = re.search(r'name="kept" value="([^"]*)"', r.text)
    assert kept is not None and "evade" in kept.group(1)
    import html

    r = client.post(
        "/login",
        data={
            "csrf": csrf(r.text),
            "campaign": stack.campaign,
            "player": OTHER,
            "password": stack.passwords[OTHER],
            "kept": html.unescape(kept.group(1)),
        },
    )
    assert r.status_code == 200
    assert '<option value="evade" selected>' in r.text  # the form again, as it was typed
    assert 'name="0.maximum" inputmode="numeric" value="4"' in r.text
    page = client.get(f"/c/{stack.campaign}").text
    assert "contact evade" not in page.split('id="ship-BR3SL"', 1)[1].split("</li>", 1)[0]  # nothing was sent


def test_logout_forgets_the_session(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    page = client.get(f"/c/{stack.campaign}")
    old = client.cookies["pate_session"]
    r = client.post("/logout", data={"csrf": csrf(page.text)}, follow_redirects=False)
    assert r.status_code == 303
    assert client.get(f"/c/{stack.campaign}").status_code == 401
    client.cookies.set(
        "pate_session", old, domain="desk.test"
    )  # a stolen copy of the old cookie is no use either
    assert client.get(f"/c/{stack.campaign}").status_code == 401


def test_oversized_posts_and_uploads_are_refused_by_size(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    token = csrf(client.get(f"/c/{stack.campaign}/orders/text").text)
    r = client.post(f"/c/{stack.campaign}/orders/text", data={"csrf": token, "text": "x" * 100_000})
    assert r.status_code == 413
    r = client.post(
        f"/c/{stack.campaign}/orders/text",
        data={"csrf": token},
        files={"file": ("orders.txt", b"y" * 100_000, "text/plain")},
    )
    assert r.status_code == 413


def test_pasted_order_text_is_checked_by_the_desk(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    token = csrf(client.get(f"/c/{stack.campaign}/orders/text").text)
    r = client.post(
        f"/c/{stack.campaign}/orders/text", data={"csrf": token, "text": "order BR1FL\n  move QQQ\n"}
    )
    assert r.status_code == 422
    assert "Nothing was accepted" in r.text


def test_reports_archive_and_text_download(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    archive = client.get(f"/c/{stack.campaign}/reports")
    assert archive.status_code == 200 and "Start of the campaign" in archive.text
    page = client.get(f"/c/{stack.campaign}/reports/0")
    assert page.status_code == 200 and "<iframe" in page.text
    body = client.get(f"/c/{stack.campaign}/reports/0/body")
    assert body.status_code == 200 and "<svg" in body.text
    assert "sandbox" in body.headers["content-security-policy"]
    text = client.get(f"/c/{stack.campaign}/reports/0/text")
    assert text.status_code == 200 and "attachment" in text.headers["content-disposition"]


def test_a_service_down_gives_a_clear_page_and_the_web_keeps_serving() -> None:
    s = settings(None)
    backend = Backend(s.orders_addr, s.reports_addr)
    with TestClient(create_app(backend, s)) as client:
        token = csrf(client.get("/login").text)
        r = client.post(
            "/login", data={"csrf": token, "campaign": "c1", "player": "p1", "password": "secret-pw"}
        )
        assert r.status_code == 503
        assert "orders service is not answering" in r.text
        assert "Traceback" not in r.text
        assert client.get("/healthz").status_code == 200


def test_notification_choices_are_saved_and_bad_ones_refused_by_field(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, FRENCH, stack.passwords[FRENCH])
    page = client.get(f"/c/{stack.campaign}/notifications")
    token = csrf(page.text)
    r = client.post(
        f"/c/{stack.campaign}/notifications",
        data={"csrf": token, "email": "", "webhook": "file:///etc/passwd", "kind.deadline": "on"},
    )
    assert r.status_code == 422 and "Webhook URL: an http:// or https:// URL" in r.text
    # the form's limits are the service's: a webhook of 300 characters is taken, a CR refused in words
    long_hook = "https://hooks.flotte.test/" + "a" * 274
    r = client.post(
        f"/c/{stack.campaign}/notifications",
        data={"csrf": token, "email": "", "webhook": long_hook, "kind.deadline": "on"},
    )
    assert r.status_code == 200 and "saved" in r.text
    r = client.post(
        f"/c/{stack.campaign}/notifications",
        data={
            "csrf": token,
            "email": "g@flotte.test\r\nBcc: x@evil.test",
            "webhook": "",
            "kind.deadline": "on",
        },
    )
    assert r.status_code == 422 and "Email address:" in r.text and "notifications.email" not in r.text
    r = client.post(
        f"/c/{stack.campaign}/notifications",
        data={"csrf": token, "email": "g@flotte.test", "webhook": "", "kind.deadline": "on"},
    )
    assert r.status_code == 200 and "saved" in r.text
    assert 'value="g@flotte.test"' in r.text and 'id="kind-deadline" name="kind.deadline" checked' in r.text
    r = client.post(f"/c/{stack.campaign}/notifications", data={"email": "x@evil.test"})
    assert r.status_code == 403
    assert 'value="g@flotte.test"' in client.get(f"/c/{stack.campaign}/notifications").text


def test_pasted_text_survives_an_expired_session(web, stack: Stack) -> None:
    client, _ = web
    login(client, stack.campaign, FRENCH, stack.passwords[FRENCH])
    token = csrf(client.get(f"/c/{stack.campaign}/orders/text").text)
    _revoke(stack, FRENCH)
    r = client.post(
        f"/c/{stack.campaign}/orders/text", data={"csrf": token, "text": "order FR1FL\n  commerce raid\n"}
    )
    assert r.status_code == 401
    kept = re.search(r'name="kept" value="([^"]*)"', r.text)
    assert kept is not None
    import html

    r = client.post(
        "/login",
        data={
            "csrf": csrf(r.text),
            "campaign": stack.campaign,
            "player": FRENCH,
            "password": stack.passwords[FRENCH],
            "kept": html.unescape(kept.group(1)),
        },
    )
    assert r.status_code == 200 and "commerce raid" in r.text and "<textarea" in r.text


def test_the_reports_service_killed_gives_a_clear_page_and_the_rest_serves(web, stack: Stack) -> None:
    """Last in this module: it kills the stack's reports service."""
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    assert client.get(f"/c/{stack.campaign}/reports").status_code == 200
    stack.cluster.kill("reports")
    r = client.get(f"/c/{stack.campaign}/reports")
    assert r.status_code == 503 and "the reports service is not answering" in r.text
    assert "Traceback" not in r.text and "grpc" not in r.text.lower()
    assert client.get(f"/c/{stack.campaign}").status_code == 200  # the orders side still works
    assert client.get("/healthz").status_code == 200
