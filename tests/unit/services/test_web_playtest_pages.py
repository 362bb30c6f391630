"""What a play-test of the web desk found, checked without a server: every "Not found" is the
desk's own page, the favicon is served, no page quotes a service's pattern, ids are matched
whole, and roles and ship types are said in words."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from services.web import create_form, security, wording
from services.web.backend import Backend, Session
from services.web.backend_errors import RefusedError
from services.web.pages import ID_PATTERN
from services.web.routes import NOT_FOUND, create_app
from tests.web.test_web_http import settings

REGEX_REFUSAL = "player_id: 'x\\n' is not a player id ([A-Za-z0-9][A-Za-z0-9_.-]{0,63})"


class RefusingBackend(Backend):
    """A backend whose services refuse everything, quoting their pattern as the limits do."""

    async def report(self, s: Session, turn: int, fmt: str) -> str:
        raise RefusedError(REGEX_REFUSAL)

    async def my_campaign(self, s: Session):  # type: ignore[no-untyped-def]
        raise RefusedError(REGEX_REFUSAL)


@pytest.fixture
def client() -> Iterator[TestClient]:
    s = settings(None)
    app = create_app(RefusingBackend(s.orders_addr, s.reports_addr), s)
    with TestClient(app, base_url="http://desk.test") as c:
        session = Session("t" * 24, "demo", "nelson", time.time() + 3600)
        c.cookies.set(security.SESSION_COOKIE, session.cookie())
        c.cookies.set(security.BROWSER_COOKIE, "browser-1")
        yield c


def _styled_not_found(r) -> None:  # type: ignore[no-untyped-def]
    assert r.status_code == 404
    assert '<link rel="stylesheet" href="/static/style.css">' in r.text
    assert "<h1>Not found</h1>" in r.text and NOT_FOUND in r.text


def test_every_not_found_is_the_desks_styled_page(client: TestClient) -> None:
    """A URL no route takes (a negative turn, a page that does not exist) reads as a page
    not yours: the same styled "Not found", not a bare "404"."""
    for url in ("/c/demo/reports/-1", "/no/such/page", "/c/demo/reports/x/text"):
        _styled_not_found(client.get(url))


def test_the_favicon_is_served_and_linked() -> None:
    s = settings(None)
    with TestClient(create_app(Backend(s.orders_addr, s.reports_addr), s)) as c:
        icon = c.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
        assert icon.text.startswith("<svg")
        page = c.get("/help/orders")
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text
        assert c.get("/static/favicon.svg").status_code == 200


def test_no_page_quotes_a_services_pattern(client: TestClient) -> None:
    """A refusal no page expected: a GET is "Not found", a form "Not accepted" in words."""
    r = client.get("/c/demo/reports/1")
    _styled_not_found(r)
    assert "{0,63}" not in r.text and "[A-Za-z0-9]" not in r.text
    token = security.Csrf(b"s" * 32).token_for("browser-1", "t" * 24)
    r = client.post("/c/demo/gm/early-close", data={"csrf": token, "enabled": "on"})
    assert r.status_code == 422 and "Not accepted" in r.text
    assert "player id: &#39;x\\n&#39; is not a player id" in r.text
    assert "{0,63}" not in r.text and "[A-Za-z0-9]" not in r.text and "player_id" not in r.text


def test_ids_are_matched_whole() -> None:
    """re.match with "^...$" let a trailing newline through."""
    for pattern in (ID_PATTERN, create_form.PLAYER_ID, create_form.CAMPAIGN_ID):
        assert pattern.fullmatch("demo") and not pattern.fullmatch("demo\n")
    assert wording.plain(REGEX_REFUSAL) == "player_id: 'x\\n' is not a player id"
    assert wording.plain("'x' is not a known rule set (pate, eia-advanced)").endswith("(pate, eia-advanced)")


def test_roles_and_ship_types_are_said_in_words() -> None:
    assert wording.roles(["admin"]) == "game master"
    assert wording.roles(["commander", "naval_minister"]) == "commander, naval minister"
    assert wording.ship_type("FR") == "frigate" and wording.ship_type("TR") == "transport group"
    assert wording.ship_type("SL") == "ship of the line" and wording.ship_type("??") == "??"


def test_the_refusals_shown_beside_a_field_quote_no_pattern() -> None:
    from services.web import handover, readiness

    assert handover._plain(REGEX_REFUSAL) == "'x\\n' is not a player id"
    assert (
        readiness.readable("to: 'x' is not a player id ([A-Za-z0-9]{0,63})") == "To: 'x' is not a player id"
    )
