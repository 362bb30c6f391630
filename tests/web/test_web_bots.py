"""The bot admiral on the web desk (docs/bots.md): a player handed to the bot
is told so on his desk page, and the game master's page lists whom the bot plays."""

from __future__ import annotations

import pytest

from pate.v1 import bots_pb2, bots_pb2_grpc
from tests.web.conftest import Stack
from tests.web.test_web_http import login, web  # noqa: F401 (the fixture)

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
