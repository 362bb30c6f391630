"""Who is ready, shown to players when the game master chooses it, and the unread messages
count beside Messages, over HTTP against the real stack (docs/web.md, "Ready for the turn" and
"Messages")."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e

BRITISH, OTHER_BRITISH, FRENCH = "cornwallis", "calder", "ganteaume"


def _show_ready(client: TestClient, stack: Stack, on: bool) -> None:
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    page = client.get(f"/c/{stack.campaign}/gm").text
    assert 'id="show-ready"' in page
    data = {"csrf": csrf(page), **({"show_ready": "on"} if on else {})}
    r = client.post(f"/c/{stack.campaign}/gm/options", data=data, follow_redirects=False)
    assert r.status_code == 303
    shown = re.search(
        r'id="show-ready" name="show_ready"( checked)?', client.get(f"/c/{stack.campaign}/gm").text
    )
    assert shown and bool(shown.group(1)) == on


def test_players_see_who_is_ready_only_when_the_game_master_shows_it(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    cid = stack.campaign
    login(client, cid, FRENCH, stack.passwords[FRENCH])
    page = client.get(f"/c/{cid}").text
    r = client.post(f"/c/{cid}/confirm", data={"csrf": csrf(page), "turn": "1", "confirmed": "yes"})
    assert r.status_code == 200
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    page = client.get(f"/c/{cid}").text
    assert 'id="ready"' not in page and "Confirmed this turn" not in page  # off by default
    # a player cannot turn it on: the game master's form is "Not found" to him, as any page not his
    r = client.post(f"/c/{cid}/gm/options", data={"csrf": csrf(page), "show_ready": "on"})
    assert r.status_code == 404 and "show_ready" not in r.text
    assert 'id="ready"' not in client.get(f"/c/{cid}").text

    _show_ready(client, stack, True)
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    ready = re.search(r'<p id="ready">(.*?)</p>', client.get(f"/c/{cid}").text)
    assert ready and f"<strong>{FRENCH}</strong>" in ready.group(1)
    assert OTHER_BRITISH in ready.group(1) and "admin" not in ready.group(1)  # every seat of a state
    _show_ready(client, stack, False)
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    assert 'id="ready"' not in client.get(f"/c/{cid}").text


def _unread(page: str) -> int:
    found = re.search(r'id="unread-messages">\((\d+) unread\)', page)
    return int(found.group(1)) if found else 0


def test_unread_messages_are_counted_until_the_messages_page_is_opened(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    cid = stack.campaign
    login(client, cid, OTHER_BRITISH, stack.passwords[OTHER_BRITISH])
    client.get(f"/c/{cid}/messages")  # whatever earlier tests sent him is read
    assert _unread(client.get(f"/c/{cid}").text) == 0
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    for body in ("Rendezvous off Ushant", "Bring the frigates"):
        token = csrf(client.get(f"/c/{cid}/messages").text)
        r = client.post(
            f"/c/{cid}/messages", data={"csrf": token, "to": f"player:{OTHER_BRITISH}", "body": body}
        )
        assert r.status_code == 200
    assert _unread(client.get(f"/c/{cid}").text) == 0  # his own letters are not unread to him
    login(client, cid, OTHER_BRITISH, stack.passwords[OTHER_BRITISH])
    assert _unread(client.get(f"/c/{cid}").text) == 2
    home = client.get("/").text
    assert re.search(rf'id="unread-{cid}">Messages: 2 unread</a>', home)
    assert "Bring the frigates" in client.get(f"/c/{cid}/messages").text  # he opens them
    assert _unread(client.get(f"/c/{cid}").text) == 0
    assert f'id="unread-{cid}"' not in client.get("/").text
