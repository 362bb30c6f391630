"""The bot admiral's own token (PATE_ADMIRAL_TOKEN, docs/security.md "Least privilege"): it
reads campaigns and plays the seats the bot holds, and nothing a game master does is open
to it; a wrong one, or one the server was not given, opens nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine

from pate.v1 import admin_pb2, bots_pb2
from services.orders import admirals
from services.orders.campaign_admin import CampaignAdminServicer
from services.platform.security.auth import authenticator_for

ADMIN, ADMIRAL = "a" * 32, "b" * 32


class AbortedError(Exception):
    pass


class Context:
    def __init__(self, key: str, token: str) -> None:
        self.md = ((key, token),)
        self.code: grpc.StatusCode | None = None

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self.md

    def peer(self) -> str:
        return "ipv4:127.0.0.1:5000"

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.code = code
        raise AbortedError(details)


def _code(call: Any, request: Any, key: str = "x-pate-admiral-token", token: str = ADMIRAL) -> Any:
    context = Context(key, token)
    try:
        asyncio.run(call(request, context))
    except AbortedError:
        return context.code
    return "OK"


@pytest.fixture
def servicers(engine: Engine) -> tuple[admirals.BotAdmiralsServicer, CampaignAdminServicer]:
    bots = admirals.BotAdmiralsServicer(engine, ADMIN, admiral_token=ADMIRAL)
    admin = CampaignAdminServicer(engine, ADMIN, authenticator_for(engine, 3600.0), ADMIRAL)
    return bots, admin


def test_the_admiral_token_reads_campaigns_and_plays_bot_seats(servicers: Any) -> None:
    bots, admin = servicers
    nowhere = "no-such-campaign"
    # past the token check: the calls look for the campaign
    assert (
        _code(bots.GetBotSeats, bots_pb2.GetBotSeatsRequest(campaign_id=nowhere)) == grpc.StatusCode.NOT_FOUND
    )
    login = bots_pb2.BotSeatRequest(campaign_id=nowhere, player_id="nelson")
    assert _code(bots.BotLogin, login) == grpc.StatusCode.NOT_FOUND
    assert _code(bots.WaitForWork, bots_pb2.WaitForWorkRequest(timeout_seconds=1)) == "OK"
    assert (
        _code(admin.GetCampaign, admin_pb2.GetCampaignRequest(campaign_id=nowhere))
        == grpc.StatusCode.NOT_FOUND
    )
    assert _code(admin.ListCampaigns, admin_pb2.ListCampaignsRequest()) == "OK"


def test_nothing_a_game_master_does_is_open_to_it(servicers: Any) -> None:
    bots, admin = servicers
    denied = grpc.StatusCode.PERMISSION_DENIED
    seat = bots_pb2.BotSeatRequest(campaign_id="c", player_id="nelson")
    assert _code(bots.HandToBot, seat) == denied
    assert _code(bots.TakeBack, seat) == denied
    assert (
        _code(bots.SetCivilDisorder, bots_pb2.SetCivilDisorderRequest(campaign_id="c", after_missed=1))
        == denied
    )
    assert _code(bots.MakeSolo, bots_pb2.MakeSoloRequest(campaign_id="c")) == denied
    assert _code(admin.CloseTurn, admin_pb2.CloseTurnRequest(campaign_id="c", turn=1)) == denied
    assert _code(admin.CreateCampaign, admin_pb2.CreateCampaignRequest(id="c", scenario="training")) == denied
    password = admin_pb2.SetPlayerPasswordRequest(campaign_id="c", player_id="nelson", password="x" * 12)
    assert _code(admin.SetPlayerPassword, password) == denied
    # the administrator's token still opens all of it (here: past the check, to the campaign)
    assert _code(bots.HandToBot, seat, "x-pate-admin-token", ADMIN) == grpc.StatusCode.NOT_FOUND


def test_a_wrong_or_unconfigured_admiral_token_opens_nothing(engine: Engine) -> None:
    denied = grpc.StatusCode.PERMISSION_DENIED
    request = bots_pb2.GetBotSeatsRequest(campaign_id="c")
    configured = admirals.BotAdmiralsServicer(engine, ADMIN, admiral_token=ADMIRAL)
    assert _code(configured.GetBotSeats, request, token="c" * 32) == denied
    unconfigured = admirals.BotAdmiralsServicer(engine, ADMIN)  # no PATE_ADMIRAL_TOKEN on the server
    assert _code(unconfigured.GetBotSeats, request, token="") == denied
    assert _code(unconfigured.GetBotSeats, request) == denied
