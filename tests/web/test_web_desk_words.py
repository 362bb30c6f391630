"""Over HTTP against the real stack: every form of the desk refuses in the
players' words (no "orders[0].movement.port", "stores_moves[0].amount",
"assignments[0].deputy" or "orders_text: ...; ..." on one line), and every
side's replay is the players' only once the campaign is over."""

from __future__ import annotations

import re
import time
import uuid

import pytest

from pate.v1 import admin_pb2
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e
INTERNAL = re.compile(r"\w\[\d+\]|orders_text|stores_moves|assignments|sea_areas|to_kind|\w_\w")
SHIP_ID = re.compile(r"\b[A-Z]{2}\d+[A-Z]{2}\b")


def _refused(page: str) -> list[str]:
    """Each refusal the page lists, as the player reads it."""
    block = re.search(r'<(div|p) class="error"[^>]*>(.*?)</\1>', page, re.S)
    assert block, "no refusal shown"
    items = re.findall(r"<li>(.*?)</li>", block.group(2), re.S) or [re.sub(r"<[^>]+>", " ", block.group(2))]
    for item in items:
        assert not INTERNAL.search(item), item
    return [re.sub(r"\s+", " ", i).strip() for i in items]


def test_the_order_form_and_the_paste_page_name_the_ship_and_the_line(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    c = stack.campaign
    login(client, c, "cornwallis", stack.passwords["cornwallis"])
    token = csrf(client.get(f"/c/{c}/orders/text").text)
    text = "order BR1FL\n  move ECH port Nowhere harbor\norder BR1SL\n  stores 99999\n"
    said = _refused(client.post(f"/c/{c}/orders/text", data={"csrf": token, "text": text}).text)
    assert said[0].startswith("BR1FL, movement port: no port named") and said[1].startswith("BR1SL, stores:")
    text = "order BR1FL\n  frobnicate\n  stores x\n"
    said = _refused(client.post(f"/c/{c}/orders/text", data={"csrf": token, "text": text}).text)
    assert [s.split(",")[0] for s in said] == ["line 2", "line 3"]  # one line each
    r = client.post(f"/c/{c}/orders", data={"csrf": token, "ships": "BR1FL", "turn": "1", "0.stores": "999"})
    assert r.status_code == 422 and "BR1FL can carry 0 to 24 stores (rule 3.4)" in r.text


def test_the_ministers_forms_name_the_move_and_the_ship(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    c = stack.campaign
    login(client, c, "barham", stack.passwords["barham"])
    token = csrf(client.get(f"/c/{c}/minister").text)
    move = {"0.origin": "Aberdeen", "0.destination": "Antigua", "0.amount": "9999"}
    said = _refused(client.post(f"/c/{c}/minister/stores", data={"csrf": token, **move}).text)
    assert said and all(s.startswith("store move 1 (Aberdeen to Antigua), ") for s in said)
    move = {"0.origin": "Aberdeen", "0.destination": "Leith", "0.amount": "lots"}
    said = _refused(client.post(f"/c/{c}/minister/stores", data={"csrf": token, **move}).text)
    assert said == ["store move 1 (Aberdeen to Leith), amount: a whole number, please"]
    # what was typed is named in at most 40 characters, without a right-to-left override
    move = {"0.origin": "Z" * 50_000 + "\u202e", "0.destination": "Plymouth", "0.amount": "5"}
    r = client.post(f"/c/{c}/minister/stores", data={"csrf": token, **move})
    said = _refused(r.text)
    assert said[0].startswith("store move 1 (" + "Z" * 40 + "... to Plymouth), ")
    assert "Z" * 100 not in "".join(said) and "\u202e" not in "".join(said)
    pair = {"BR1FL.commander": "cornwallis", "BR1FL.deputy": "cornwallis"}
    said = _refused(client.post(f"/c/{c}/minister/officers", data={"csrf": token, **pair}).text)
    assert said == ["BR1FL, deputy: the deputy must be another player than the commander (rule 2.3)"]


def test_the_messages_page_says_to_and_message_and_takes_long_letters(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    c = stack.campaign
    login(client, c, "cornwallis", stack.passwords["cornwallis"])
    token = csrf(client.get(f"/c/{c}/messages").text)
    for to, body, start in (
        ("player:ganteaume", "hi", "To: no player of your state"),
        ("bogus", "hi", "To: "),
        ("allies", "x" * 2001, "Message: write 1 to 2000 characters"),
    ):
        said = _refused(client.post(f"/c/{c}/messages", data={"csrf": token, "to": to, "body": body}).text)
        assert said[0].startswith(start), said
    letter = (
        "Off Ushant at dawn.\n" + "The squadron keeps the wind. " * 60
    )  # over 1,700 characters, two lines
    r = client.post(f"/c/{c}/messages", data={"csrf": token, "to": "player:calder", "body": letter})
    assert r.status_code == 200 and 'id="message-sent"' in r.text


def test_every_side_is_replayed_by_a_player_only_once_the_campaign_is_over(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    cid = f"end-{uuid.uuid4().hex[:8]}"
    req = admin_pb2.CreateCampaignRequest(id=cid, scenario="training", passwords=stack.passwords, turns=1)
    stack.client.admin.CreateCampaign(req, metadata=stack.client.admin_md, timeout=60)
    stack.client.wait_open(cid, 1)
    stack.client.passwords.update({(cid, p): pw for p, pw in stack.passwords.items()})
    login(client, cid, "cornwallis", stack.passwords["cornwallis"])
    assert client.get(f"/c/{cid}/replay/all").status_code == 404  # before the end: his own only
    mine = client.get(f"/c/{cid}/replay?turn=0").text
    assert set(SHIP_ID.findall(mine)) <= set(SHIP_ID.findall(stack.client.report(cid, 0, "cornwallis").body))
    assert (
        'id="replay-all"' not in mine and 'id="replay-all-link"' not in client.get(f"/c/{cid}/reports").text
    )
    stack.client.close_turn(cid, 1)
    end = time.monotonic() + 180
    while stack.client.campaign(cid).status != admin_pb2.TURN_STATUS_FINISHED:
        assert time.monotonic() < end, "the campaign did not end"
        time.sleep(0.3)
    assert 'id="replay-all-link"' in client.get(f"/c/{cid}/reports").text
    over = client.get(f"/c/{cid}").text  # the campaign page says so and offers no orders
    assert 'id="campaign-over"' in over and f"/c/{cid}/replay/all" in over
    assert 'class="open-panel"' not in over and 'id="confirm"' not in over and "/orders/text" not in over
    every = client.get(f"/c/{cid}/replay/all?turn=1")
    assert every.status_code == 200 and 'id="replay-mine"' in every.text
    shown = set(SHIP_ID.findall(every.text))
    assert {s[:2] for s in shown} >= {"BR", "FR"}  # the other side too, now that it is over
    login(client, cid, "ganteaume", stack.passwords["ganteaume"])
    assert set(SHIP_ID.findall(client.get(f"/c/{cid}/replay/all?turn=1").text)) == shown  # the same for all
