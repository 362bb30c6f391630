"""The web desk's Confirm orders flag, the game master's early close and the
messages between allies, over HTTP against the real stack (the app in process,
the orders and reports services running)."""

from __future__ import annotations

import re
import time

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e

BRITISH, OTHER_BRITISH, FRENCH = "cornwallis", "calder", "ganteaume"


def _confirm(client: TestClient, cid: str, yes: bool = True) -> str:
    page = client.get(f"/c/{cid}").text
    turn = re.search(r'name="turn" value="(\d+)"', page)
    assert turn, "no Confirm orders form"
    data = {"csrf": csrf(page), "turn": turn.group(1), "confirmed": "yes" if yes else "no"}
    r = client.post(f"/c/{cid}/confirm", data=data, follow_redirects=False)
    assert r.status_code == 303
    return client.get(f"/c/{cid}").text


def _write(client: TestClient, cid: str, to: str, body: str) -> TestClient:
    token = csrf(client.get(f"/c/{cid}/messages").text)
    return client.post(f"/c/{cid}/messages", data={"csrf": token, "to": to, "body": body})


def test_the_page_counts_ships_with_orders_and_confirming_is_undone_by_a_change(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    cid = stack.campaign
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    page = client.get(f"/c/{cid}").text
    assert re.search(r"<strong>\d+ of \d+</strong> ships have orders", page)
    page = _confirm(client, cid)
    assert 'id="confirmed"' in page
    token = csrf(page)
    r = client.post(f"/c/{cid}/orders/text", data={"csrf": token, "text": "order BR1FL\n  stores 20\n"})
    assert r.status_code in (200, 303)
    assert 'id="confirmed"' not in client.get(f"/c/{cid}").text  # any later change clears it


def test_allies_read_their_messages_and_an_enemy_reads_none(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    cid = stack.campaign
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    sent = _write(client, cid, f"player:{OTHER_BRITISH}", "Rendezvous off Ushant")
    assert 'id="message-sent"' in sent.text
    assert "Rendezvous off Ushant" in client.get(f"/c/{cid}/messages").text
    refused = _write(client, cid, f"player:{FRENCH}", "a spy's letter")
    assert refused.status_code == 422 and "To: no player" in refused.text and "to_kind" not in refused.text
    login(client, cid, OTHER_BRITISH, stack.passwords[OTHER_BRITISH])
    assert "Rendezvous off Ushant" in client.get(f"/c/{cid}/messages").text
    login(client, cid, FRENCH, stack.passwords[FRENCH])
    page = client.get(f"/c/{cid}/messages").text
    assert "Rendezvous off Ushant" not in page and "a spy" not in page


def test_pasting_a_block_for_a_ship_not_his_keeps_the_text_and_names_it(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    cid = stack.campaign
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    token = csrf(client.get(f"/c/{cid}/orders/text").text)
    text = "order BR1FL\n  stores 20\norder FR99SL\n  stores 3\n"
    r = client.post(f"/c/{cid}/orders/text", data={"csrf": token, "text": text})
    assert r.status_code == 422 and "Not found" not in r.text
    assert "order FR99SL" in r.text and "Nothing was accepted" in r.text  # the text stays in its box
    assert "orders[" not in r.text and "orders_text:" not in r.text  # no internal field names
    assert 'href="/help/orders"' in r.text and "docs/formats" not in r.text


def test_the_help_page_and_my_campaigns_by_id(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    assert "How to write orders" in client.get("/help/orders").text
    login(client, stack.campaign, BRITISH, stack.passwords[BRITISH])
    assert f'<a href="/c/{stack.campaign}">{stack.campaign}</a>' in client.get("/").text


def test_the_turn_closes_early_once_every_player_with_ships_confirmed(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    cid = stack.campaign
    login(client, cid, "admin", stack.passwords["admin"])
    gm = client.get(f"/c/{cid}/gm").text
    assert 'id="confirmations"' in gm and f'id="confirmed-{BRITISH}"' in gm
    r = client.post(
        f"/c/{cid}/gm/early-close",
        data={"csrf": csrf(gm), "enabled": "on", "after": "close"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    waiting = re.findall(r'id="confirmed-([a-z]+)">[a-z]+: not yet', client.get(f"/c/{cid}/gm").text)
    assert waiting
    for player in waiting:
        login(client, cid, player, stack.passwords[player])
        _confirm(client, cid)
    login(client, cid, BRITISH, stack.passwords[BRITISH])
    for _ in range(100):
        status = re.search(r'id="turn-status">([a-z]+)<', client.get(f"/c/{cid}").text)
        turn = re.search(r'id="turn">(\d+)<', client.get(f"/c/{cid}").text)
        if status and turn and (status.group(1) != "open" or turn.group(1) != "1"):
            return
        time.sleep(0.1)
    raise AssertionError("the turn did not close when every player had confirmed")
