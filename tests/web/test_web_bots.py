"""The bot admiral on the web desk (docs/bots.md): a player handed to the bot
is told so on his desk page, and the game master's page lists whom the bot plays."""

from __future__ import annotations

import pytest

from pate.v1 import bots_pb2, bots_pb2_grpc
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e


def test_the_desk_and_the_game_masters_page_show_who_the_bot_plays(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    bots = bots_pb2_grpc.BotAdmiralsStub(stack.client.orders_ch)
    seat = bots_pb2.BotSeatRequest(campaign_id=stack.campaign, player_id="calder")
    bots.HandToBot(seat, metadata=stack.client.admin_md, timeout=10)
    try:
        login(client, stack.campaign, "calder", stack.passwords["calder"])
        page = client.get(f"/c/{stack.campaign}").text
        assert 'id="bot-admiral"' in page and "handed you to the bot admiral" in page
        login(client, stack.campaign, "admin", stack.passwords["admin"])
        gm = client.get(f"/c/{stack.campaign}/gm").text
        assert '<li data-player="calder">calder: played by the bot since turn' in gm
    finally:
        bots.TakeBack(seat, metadata=stack.client.admin_md, timeout=10)
    login(client, stack.campaign, "calder", stack.passwords["calder"])
    assert 'id="bot-admiral"' not in client.get(f"/c/{stack.campaign}").text


def test_the_master_creates_a_solo_campaign_with_the_bot_in_every_other_seat(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, "admin", stack.passwords["admin"])
    token = csrf(client.get(f"/c/{stack.campaign}/gm").text)
    new = stack.campaign + "-solo"
    admin = {"admin_token": stack.cluster.admin_token}  # creating a campaign is the server administrator's
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data={**admin, "csrf": token, "new_id": new, "scenario": "training", "solo": "cornwallis"},
    )
    assert r.status_code == 200 and "solo: the bot admiral plays every seat but cornwallis" in r.text
    bots = bots_pb2_grpc.BotAdmiralsStub(stack.client.orders_ch)
    got = bots.GetBotSeats(bots_pb2.GetBotSeatsRequest(campaign_id=new), metadata=stack.client.admin_md)
    held = {s.player_id for s in got.seats}
    assert got.solo and "ganteaume" in held and "barham" in held and "cornwallis" not in held
    r = client.post(
        f"/c/{stack.campaign}/gm/create",
        data={**admin, "csrf": token, "new_id": new + "-2", "scenario": "training", "solo": "nelson"},
    )
    assert (
        r.status_code == 422 and 'id="err-create-solo"' in r.text and "no player &#39;nelson&#39;" in r.text
    )
