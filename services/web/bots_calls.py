"""The web's calls of the bot admirals (pate.v1.BotAdmirals, docs/bots.md): a player's solo
campaign, and the game master's hand-over and civil-disorder rule, beside the Backend they go
through.  A solo campaign is asked with the player's own session; the game master's calls with
his (``act_as``), once the web checked his role there."""

from __future__ import annotations

from typing import Any

import grpc

from pate.v1 import bots_pb2, bots_pb2_grpc
from services.web.backend import CALL_TIMEOUT, Backend, Session
from services.web.backend_errors import translate

SOLO_TIMEOUT = 60.0  # the campaign's start and every seat's password hash, on a loaded server


async def _call(b: Backend, method: str, req: Any, timeout: float = CALL_TIMEOUT) -> Any:
    stub = bots_pb2_grpc.BotAdmiralsStub(b._orders())
    try:
        return await getattr(stub, method)(req, metadata=b._admin_md(), timeout=timeout)
    except grpc.RpcError as err:
        raise translate(err, "orders") from None


async def create_solo(
    b: Backend, asker: Session, campaign: str, scenario: str, seat: str, combat_rules: str, naval_rules: str
) -> tuple[Session, str]:
    """(his session in the new campaign, his password there, shown once)."""
    req = bots_pb2.CreateSoloRequest(
        session_token=asker.token,
        campaign_id=campaign,
        scenario=scenario,
        seat=seat,
        combat_rules=combat_rules,
        naval_rules=naval_rules,
    )
    stub = bots_pb2_grpc.BotAdmiralsStub(b._orders())
    try:  # his own session: the web holds no administrator token for him
        out: bots_pb2.CreateSoloResponse = await stub.CreateSolo(
            req, metadata=b._md(asker), timeout=SOLO_TIMEOUT
        )
    except grpc.RpcError as err:
        raise translate(err, "orders") from None
    return Session(out.token, out.campaign_id, out.player_id, out.expires_at), out.password


async def hand_to_bot(b: Backend, campaign: str, player: str) -> bots_pb2.BotSeats:
    req = bots_pb2.BotSeatRequest(campaign_id=campaign, player_id=player)
    out: bots_pb2.BotSeats = await _call(b, "HandToBot", req)
    return out


async def take_back(b: Backend, campaign: str, player: str) -> bots_pb2.BotSeats:
    req = bots_pb2.BotSeatRequest(campaign_id=campaign, player_id=player)
    out: bots_pb2.BotSeats = await _call(b, "TakeBack", req)
    return out


async def bot_seats(b: Backend, campaign: str) -> bots_pb2.BotSeats:
    out: bots_pb2.BotSeats = await _call(b, "GetBotSeats", bots_pb2.GetBotSeatsRequest(campaign_id=campaign))
    return out


async def set_civil_disorder(b: Backend, campaign: str, after: int) -> bots_pb2.BotSeats:
    req = bots_pb2.SetCivilDisorderRequest(campaign_id=campaign, after_missed=after)
    out: bots_pb2.BotSeats = await _call(b, "SetCivilDisorder", req)
    return out
