"""The BotAdmirals service of the orders process (pate.v1.BotAdmirals,
docs/bots.md), and a solo campaign's early close."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import grpc
from sqlalchemy import Connection, Engine

from pate.v1 import bots_pb2, bots_pb2_grpc
from services.orders import botwork, campaigns, civil, earlyclose, solo
from services.orders.campaigns import close_turn
from services.orders.turn_players import players_with_ships
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import (
    NOT_ADMIN,
    abort,
    carries_session,
    game_master_session,
    in_transaction,
    is_admin,
    is_admiral,
    run_cpu,
)
from services.platform.security.auth import Authenticator
from services.platform.security.passwords import NO_LOGIN, hash_password
from services.platform.store import bots as store
from services.platform.store import repository as repo

SOLO_CALLER = "send the session named in the request as the call's bearer token (or the administrator token)"


def close_if_all_confirmed(conn: Connection, campaign: str, turn: int, now: datetime) -> bool:
    """A solo campaign's early close: the open ``turn`` closes once every
    player with ships to order is either held by the bot, which has played
    him this turn, or has confirmed his orders.

    Called in the same transaction both when a human confirms and when the
    bot's orders are noted, so the turn closes on whichever comes last; the
    confirmations are read here, so neither caller can leave one out."""
    if not store.solo(conn, campaign):
        return False
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None or row.status != "OPEN" or row.turn != turn:
        return False
    confirmed = earlyclose.confirmed_players(conn, campaign, turn)
    held = {p.player for p in store.bot_players(conn, campaign).values() if p.reason is not None}
    played = set(store.bot_request_ids(conn, campaign, turn))
    for pid in players_with_ships(repo.load_world(conn, campaign, turn)):
        if not ((pid in held and pid in played) or pid in confirmed):
            return False
    close_turn(conn, campaign, turn, "all_confirmed", now)
    return True


def note_bot_orders(
    conn: Connection, request: bots_pb2.NoteBotOrdersRequest, now: datetime
) -> bots_pb2.BotSeats:
    """The bot has played a seat: noted, and the turn closed if that was all it waited for."""
    civil.note_bot_orders(conn, request)
    close_if_all_confirmed(conn, request.campaign_id, request.turn, now)
    return civil.seats_pb(conn, request.campaign_id)


class BotAdmiralsServicer(bots_pb2_grpc.BotAdmiralsServicer):
    def __init__(
        self,
        engine: Engine,
        admin_token: str,
        session_seconds: float = 12 * 3600.0,
        limits: solo.SoloLimits | None = None,
        admiral_token: str = "",
        auth: Authenticator | None = None,
    ) -> None:
        self.engine = engine
        self.admin_token = admin_token
        self.admiral_token = admiral_token
        self.auth = auth  # a game master's own session for his campaign
        self.session_seconds = session_seconds
        self.limits = solo.SoloLimits.from_env() if limits is None else limits
        self._making = asyncio.Semaphore(1)

    async def _run(
        self,
        context: grpc.aio.ServicerContext,
        work: Callable[[Connection], Any],
        *,
        admiral: bool = False,
        campaign: str = "",
    ) -> Any:
        """``work`` in a transaction, for the administrator; ``admiral``: for the bot admiral's
        own token too (the calls with which it finds and plays the bot's seats); ``campaign``:
        for that campaign's game master's own session too."""
        if not is_admiral(context, self.admin_token, self.admiral_token if admiral else ""):
            auth = self.auth
            if not (auth is not None and campaign and await game_master_session(context, auth, campaign)):
                await abort(context, DeskError(Code.PERMISSION_DENIED, NOT_ADMIN))
        return await self._transaction(context, work)

    async def _transaction(self, context: grpc.aio.ServicerContext, work: Callable[[Connection], Any]) -> Any:
        """``work`` in a transaction, its DeskError the call's answer (the caller is checked)."""
        try:
            return await in_transaction(self.engine, work)
        except DeskError as err:
            await abort(context, err)

    async def SetCivilDisorder(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return await self._run(
            context,
            lambda c: civil.set_civil_disorder(c, request.campaign_id, request.after_missed),
            campaign=request.campaign_id,
        )

    async def HandToBot(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        seats = await self._run(
            context,
            lambda c: civil.hand_to_bot(c, request.campaign_id, request.player_id),
            campaign=request.campaign_id,
        )
        botwork.BELL.ring()  # the open turn is the bot's to play now
        return seats

    async def TakeBack(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return await self._run(
            context,
            lambda c: civil.take_back(c, request.campaign_id, request.player_id),
            campaign=request.campaign_id,
        )

    async def GetBotSeats(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        def work(conn: Connection) -> bots_pb2.BotSeats:
            civil.check_campaign(conn, request.campaign_id)
            return civil.seats_pb(conn, request.campaign_id)

        return await self._run(context, work, admiral=True, campaign=request.campaign_id)

    async def BotLogin(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        now = datetime.now(UTC)
        return await self._run(
            context, lambda c: civil.bot_login(c, request.campaign_id, request.player_id, now), admiral=True
        )

    async def NoteBotOrders(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        now = datetime.now(UTC)
        return await self._run(context, lambda c: note_bot_orders(c, request, now), admiral=True)

    async def MakeSolo(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        seats = await self._run(
            context,
            lambda c: civil.make_solo(c, request.campaign_id, list(request.humans)),
            campaign=request.campaign_id,
        )
        botwork.BELL.ring()  # an open turn's seats are the bot's to play now
        return seats

    async def WaitForWork(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        """The admiral's long poll (services/orders/botwork.py): held until a bot seat of an
        open turn is unplayed, or the request's timeout (at most a minute)."""
        if not is_admiral(context, self.admin_token, self.admiral_token):
            await abort(context, DeskError(Code.PERMISSION_DENIED, "administrator token missing or wrong"))
        try:
            timeout = botwork.check_timeout(request.timeout_seconds)
        except DeskError as err:
            await abort(context, err)
        found = await botwork.wait_for_work(self.engine, timeout)
        return bots_pb2.WaitForWorkResponse(campaign_ids=found)

    async def CreateSolo(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        """A plain player's solo campaign (services/orders/solo.py); the web desk asks for him.

        Cheap checks first: the fields' form, then his session and the limits, and only then the
        scenario and the one password hash his seat needs (the bots' seats get none, since no one
        logs in to them).  One solo campaign is made at a time in this process, so one caller's
        hashing cannot take the CPU pool from the others."""
        if not (is_admin(context, self.admin_token) or carries_session(context, request.session_token)):
            await abort(context, DeskError(Code.PERMISSION_DENIED, SOLO_CALLER))
        try:
            ask = solo.check_form(request)
        except DeskError as err:
            await abort(context, err)
        now = datetime.now(UTC)
        await self._transaction(context, lambda c: solo.authorise(c, request.session_token, now, self.limits))
        async with self._making:
            try:
                scenario = await run_cpu(lambda: solo.scenario_for(ask))
            except DeskError as err:
                await abort(context, err)
            password = campaigns.new_password()
            seat_hash = await run_cpu(lambda: hash_password(password))
            hashes = {pid: (seat_hash if pid == ask.seat else NO_LOGIN) for pid in scenario.world.players}

            def work(conn: Connection) -> tuple[str, float]:
                return solo.create_solo(
                    conn, request.session_token, ask, hashes, now, self.limits, self.session_seconds
                )

            token, expires = await self._transaction(context, work)
        return bots_pb2.CreateSoloResponse(
            campaign_id=ask.campaign, player_id=ask.seat, token=token, expires_at=expires, password=password
        )
