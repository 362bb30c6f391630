"""The web desk's account pages, a gRPC client of pate.v1.Accounts, on the real stack with the
notifier sending its mail to a local SMTP server: sign up, confirm the address from the mailed
link (the link's page spends nothing by itself), log in, claim a seat made by the game master,
play it, end the sessions (docs/accounts.md)."""

from __future__ import annotations

import time
from email import message_from_bytes
from typing import Any

import pytest
from starlette.testclient import TestClient

from services.web.account_pages import ACCOUNT_COOKIE
from tests.support.mailsink import link_token
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e
WITH_NOTIFIER = True
EMAIL = "keith@example.org"
SEAT = "calder"


def _mail_to(stack: Stack, address: str, count: int) -> Any:
    assert stack.sinks is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        mails = [m for m in stack.sinks.mails if address in m.rcpt_tos]
        if len(mails) >= count:
            return message_from_bytes(mails[count - 1].content)
        time.sleep(0.2)
    raise AssertionError(f"no mail number {count} to {address}")


def _post(client: TestClient, path: str, **data: str) -> str:
    """Post a form of the account page; the page it lands on."""
    token = csrf(client.get("/account").text)
    r = client.post(path, data={"csrf": token, **data}, follow_redirects=True)
    assert r.status_code == 200, r.text[:500]
    return str(r.text)


def test_an_account_signs_up_confirms_claims_a_seat_and_plays_it(
    web: tuple[TestClient, Any],  # noqa: F811 (the fixture)
    stack: Stack,
) -> None:
    client, _ = web
    said = _post(client, "/account/signup", display_name="Keith", email=EMAIL, password="a keen password")
    assert "a mail is on its way" in said
    again = _post(client, "/account/signup", display_name="X", email="new-" + EMAIL, password="another one!")
    assert "a mail is on its way" in again  # the same words for a known address as for a new one
    link = link_token(_mail_to(stack, EMAIL, 1))
    page = client.get(f"/account/verify?token={link}").text
    assert 'id="account-verify"' in page  # a button to press; opening the link spent nothing
    token = csrf(page)
    r = client.post("/account/verify", data={"csrf": token, "token": link}, follow_redirects=True)
    assert "Your address is confirmed" in r.text
    home = _post(client, "/account/login", email=EMAIL, password="a keen password")
    assert client.cookies.get(ACCOUNT_COOKIE, domain="desk.test")
    assert "Keith &lt;keith@example.org&gt;" in home and "No seats yet" in home
    home = _post(
        client, "/account/claim", campaign=stack.campaign, player=SEAT, password=stack.passwords[SEAT]
    )
    assert f"The seat {SEAT} in {stack.campaign} is yours" in home and 'id="account-seats"' in home
    token = csrf(client.get("/account").text)
    r = client.post(
        "/account/play",
        data={"csrf": token, "campaign": stack.campaign, "player": SEAT},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == f"/c/{stack.campaign}"
    assert client.get(f"/c/{stack.campaign}").status_code == 200  # the seat's session works
    ended = _post(client, "/account/revoke", session_id="")
    assert "2 session(s) ended." in ended
    assert 'id="account-login"' in client.get("/account").text  # logged out of the account


def test_a_seat_password_is_refused_on_the_account_page_as_an_unknown_seat(
    web: tuple[TestClient, Any],  # noqa: F811 (the fixture)
    stack: Stack,
) -> None:
    client, _ = web
    said = _post(client, "/account/claim", campaign=stack.campaign, player="barham", password="wrong one")
    assert "log in to your account" in said  # no account session: nothing checked
