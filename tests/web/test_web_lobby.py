"""The web desk's lobby pages on the real stack (docs/lobby.md, docs/web.md "The lobby"): the
game master publishes his campaign from his page, anyone browses and filters, a signed-in
account takes a seat with the listing's button and finds it under "My campaigns" with his
record; a campaign on approval shows the game master each ask with the asker's record, and
his approval gives the seat."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from pate.datafiles import load_scenario
from services.platform.security.accounts import Accounts
from services.platform.store import account_tables as at
from services.platform.store.db import make_engine
from services.web.backend import Backend
from services.web.routes import create_app
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, settings

pytestmark = pytest.mark.e2e
PASSWORD = "a long enough password"


@pytest.fixture
def gm(stack: Stack) -> Iterator[TestClient]:
    yield from _client(stack)


@pytest.fixture
def player(stack: Stack) -> Iterator[TestClient]:
    yield from _client(stack)


def _client(stack: Stack) -> Iterator[TestClient]:
    s = settings(stack)
    backend = Backend(s.orders_addr, s.reports_addr)
    with TestClient(create_app(backend, s), base_url="http://desk.test") as client:
        yield client


def member(stack: Stack, email: str, name: str) -> None:
    """A verified account, made in the stack's database (the mail round trip is tested with the
    account pages)."""
    engine = make_engine(stack.cluster.database_url)
    try:
        for attempt in range(20):  # the running services hold SQLite's write lock now and then
            try:
                Accounts(engine).sign_up(name, email, PASSWORD, "", "192.0.2.1")
                with engine.begin() as conn:
                    verified = update(at.accounts).where(at.accounts.c.email == email)
                    conn.execute(verified.values(verified_at=datetime.now(UTC)))
                return
            except OperationalError:
                time.sleep(0.25 * (attempt + 1))
        raise AssertionError("the stack's database stayed locked")
    finally:
        engine.dispose()


def post(client: TestClient, page: str, path: str, **data: str) -> str:
    token = csrf(client.get(page).text)
    r = client.post(path, data={"csrf": token, **data}, follow_redirects=True)
    assert r.status_code == 200, r.text[:500]
    return str(r.text)


def account_login(client: TestClient, email: str) -> None:
    assert "My campaigns" in post(client, "/account", "/account/login", email=email, password=PASSWORD)


def test_publish_browse_take_and_my_campaigns(stack: Stack, gm: TestClient, player: TestClient) -> None:
    c = stack.campaign
    login(gm, c, "admin", stack.passwords["admin"])
    assert f'href="/c/{c}/gm/lobby"' in gm.get(f"/c/{c}/gm").text
    assert 'id="lobby-publish"' in gm.get(f"/c/{c}/gm/lobby").text
    page = post(
        gm, f"/c/{c}/gm/lobby", f"/c/{c}/gm/lobby/publish",
        seat_policy="first_come", start="by_game_master", seats="calder ganteaume",
        time_zone="Europe/Paris", description="Blockade of Brest", min_reliability="0",
    )  # fmt: skip
    assert "Published" in page and "open: 2 seat(s) free" in page
    lobby = player.get("/lobby").text
    assert f'href="/lobby/{c}"' in lobby and "Log in to your account" in lobby
    assert "No campaign in the lobby matches" in player.get("/lobby?scenario=grand1805").text
    listing = player.get(f"/lobby/{c}").text
    assert "calder: British commander" in listing and "Blockade of Brest" in listing
    assert "log in to take it" in listing and "times in Europe/Paris" in listing

    member(stack, "hood@example.org", "Hood")
    account_login(player, "hood@example.org")
    assert "Take calder" in player.get(f"/lobby/{c}").text
    took = post(player, f"/lobby/{c}", f"/lobby/{c}/take", player="calder")
    assert "The seat is yours" in took and "Take calder" not in took
    again = post(player, f"/lobby/{c}", f"/lobby/{c}/take", player="ganteaume")
    assert "you hold a seat in this campaign already" in again
    mine = player.get("/account").text
    assert "My campaigns" in mine and f"<td>{c}</td><td>calder</td>" in mine and "100% reliable" in mine
    started = post(gm, f"/c/{c}/gm/lobby", f"/c/{c}/gm/lobby/start")
    assert "Started" in started and "running" in started


def test_an_ask_is_shown_with_the_record_and_approved(
    stack: Stack, gm: TestClient, player: TestClient
) -> None:
    c = f"ask-{uuid.uuid4().hex[:6]}"
    passwords = {p: f"{p}-pw-1805" for p in load_scenario("training").world.players}
    stack.client.create(c, passwords=passwords)
    stack.client.wait_open(c, 1)
    login(gm, c, "admin", passwords["admin"])
    post(
        gm, f"/c/{c}/gm/lobby", f"/c/{c}/gm/lobby/publish",
        seat_policy="approval", start="when_full", seats="barham", time_zone="UTC",
        description="", min_reliability="0",
    )  # fmt: skip
    member(stack, "keith@example.org", "Keith")
    account_login(player, "keith@example.org")
    asked = post(player, f"/lobby/{c}", f"/lobby/{c}/ask", player="barham")
    assert "Asked: the game master answers" in asked
    page = gm.get(f"/c/{c}/gm/lobby").text
    assert "Keith" in page and "100%: 0 of 0 turns sent" in page
    ask_id = page.split('name="ask_id" value="', 1)[1].split('"', 1)[0]
    approved = post(gm, f"/c/{c}/gm/lobby", f"/c/{c}/gm/lobby/decide", ask_id=ask_id, decision="approve")
    assert "Approved" in approved and "running" in approved  # the one seat filled it: started
    assert f"<td>{c}</td><td>barham</td>" in player.get("/account").text


def test_the_lobby_pages_of_a_campaign_not_listed_are_not_found(player: TestClient, stack: Stack) -> None:
    assert player.get("/lobby/no-such-campaign").status_code == 404
    r: Any = player.post("/lobby/x/take", data={"player": "calder"})
    assert r.status_code in (400, 403)  # no CSRF token: nothing done
