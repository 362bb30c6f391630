"""gRPC face of the lobby (pate.v1.Lobby, docs/lobby.md), served by the orders process.

Who asks is settled before any work: the game master's calls check x-pate-admin-token, an
account's calls look its session up (one indexed read), and every field is checked for its
form before a campaign is read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import grpc
from sqlalchemy import Connection, Engine, insert

from pate.v1 import bots_pb2, lobby_pb2, lobby_pb2_grpc
from services.orders import reliability, solo
from services.orders.lobby import browse, listing, taking
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import (
    abort,
    call_credentials,
    in_reader,
    in_transaction,
    require_game_master,
    run_cpu,
)
from services.platform.security import account_store, sessions
from services.platform.security.accounts import Account, Accounts
from services.platform.security.auth import Authenticator
from services.platform.security.field_shapes import CAMPAIGN_ID
from services.platform.security.passwords import NO_LOGIN
from services.platform.store import account_tables as at
from services.platform.telemetry.logging import get_logger

log = get_logger("lobby")
T = TypeVar("T")
ACCOUNT_OWNER = "@account"  # solo_owners.owner_campaign of a solo game an account started


def record_pb(rec: reliability.Record, name: str = "") -> lobby_pb2.Reliability:
    return lobby_pb2.Reliability(
        turns_due=rec.turns_due,
        turns_sent=rec.turns_sent,
        deadlines_missed=rec.deadlines_missed,
        campaigns_finished=rec.campaigns_finished,
        campaigns_left=rec.campaigns_left,
        percent=rec.percent,
        display_name=name,
    )


def ask_pb(conn: Connection, row: Any) -> lobby_pb2.SeatAsk:
    out = lobby_pb2.SeatAsk(
        ask_id=row.id,
        campaign_id=row.campaign,
        player_id=row.player,
        display_name=row.display_name,
        state=row.state,
        reliability=record_pb(reliability.record(conn, row.account), row.display_name),
    )
    out.asked_at.FromDatetime(row.asked_at)
    return out


class LobbyServicer(lobby_pb2_grpc.LobbyServicer):
    def __init__(
        self,
        engine: Engine,
        admin_token: str,
        accounts: Accounts,
        auth: Authenticator,
        trusted_proxies: frozenset[str] = frozenset(),
        limits: solo.SoloLimits | None = None,
    ) -> None:
        self.engine = engine
        self.admin_token = admin_token
        self.accounts = accounts
        self.auth = auth
        self.trusted_proxies = trusted_proxies
        self.limits = solo.SoloLimits.from_env() if limits is None else limits

    async def _gm(
        self, context: grpc.aio.ServicerContext, campaign: str, work: Callable[[Connection], T]
    ) -> T:
        """``work`` for the administrator or ``campaign``'s game master (his own session)."""
        await require_game_master(context, self.admin_token, self.auth, campaign, self.trusted_proxies)
        return await self._tx(context, work)

    async def _tx(self, context: grpc.aio.ServicerContext, work: Callable[[Connection], T]) -> T:
        try:
            return await in_transaction(self.engine, work)
        except DeskError as err:
            log.info("lobby_refused", code=err.code.value)
            await abort(context, err)

    async def _read(self, context: grpc.aio.ServicerContext, work: Callable[[Connection], T]) -> T:
        try:
            return await in_reader(self.engine, work)
        except DeskError as err:
            await abort(context, err)

    async def _me(self, context: grpc.aio.ServicerContext) -> Account:
        try:
            token = call_credentials(context, self.trusted_proxies).token
            return await self._read(context, lambda conn: self.accounts.authenticate_in(conn, token))
        except DeskError as err:
            await abort(context, err)

    async def Publish(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await require_game_master(
            context, self.admin_token, self.auth, request.campaign_id, self.trusted_proxies
        )
        try:
            ask = listing.check_publish(request)
        except DeskError as err:
            await abort(context, err)
        now = self.auth.clock()

        def work(conn: Connection) -> lobby_pb2.Listing:
            listing.publish(conn, ask, now)
            return listing.listing_pb(conn, ask.campaign)

        out = await self._tx(context, work)
        log.info("lobby_published", campaign=ask.campaign)
        return out

    async def StartCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        now = self.auth.clock()

        def work(conn: Connection) -> lobby_pb2.Listing:
            listing.start(conn, request.campaign_id, now)
            return listing.listing_pb(conn, request.campaign_id)

        return await self._gm(context, request.campaign_id, work)

    async def Browse(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        try:
            ask = browse.check_browse(request)
        except DeskError as err:
            await abort(context, err)
        return await self._read(context, lambda conn: browse.browse(conn, ask))

    async def GetListing(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return await self._read(context, lambda conn: listing.listing_pb(conn, request.campaign_id))

    async def TakeSeat(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        me = await self._me(context)
        now = self.auth.clock()
        r = request
        took = await self._tx(context, lambda conn: taking.take(conn, me.id, r.campaign_id, r.player_id, now))
        self.auth.live.forget_player(took.campaign, took.player)
        log.info("lobby_seat_taken", campaign=took.campaign, player=took.player)
        return lobby_pb2.TakenSeat(
            campaign_id=took.campaign,
            player_id=took.player,
            plays_from=took.plays_from,
            reports_from=took.reports_from,
            started=took.started,
        )

    async def AskSeat(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        me = await self._me(context)
        now = self.auth.clock()
        r = request

        def work(conn: Connection) -> lobby_pb2.SeatAsk:
            ask_id = taking.ask(conn, me.id, r.campaign_id, r.player_id, now)
            return ask_pb(conn, taking.ask_row(conn, r.campaign_id, ask_id))

        return await self._tx(context, work)

    async def ListRequests(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        def work(conn: Connection) -> lobby_pb2.ListRequestsResponse:
            found = taking.asks(conn, request.campaign_id)
            return lobby_pb2.ListRequestsResponse(asks=[ask_pb(conn, row) for row in found])

        return await self._gm(context, request.campaign_id, work)

    async def _decide(self, request, context, approve: bool):  # type: ignore[no-untyped-def]
        now = self.auth.clock()

        def work(conn: Connection) -> lobby_pb2.SeatAsk:
            return ask_pb(conn, taking.decide(conn, request.campaign_id, request.ask_id, approve, now))

        out = await self._gm(context, request.campaign_id, work)
        if approve:
            self.auth.live.forget_player(out.campaign_id, out.player_id)
        return out

    async def Approve(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return await self._decide(request, context, True)

    async def Refuse(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return await self._decide(request, context, False)

    async def OpenReplacementSeat(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        now = self.auth.clock()
        r = request

        def work(conn: Connection) -> lobby_pb2.Listing:
            taking.open_replacement(conn, r.campaign_id, r.player_id, now)
            return listing.listing_pb(conn, r.campaign_id)

        return await self._gm(context, request.campaign_id, work)

    async def LeaveSeat(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        me = await self._me(context)
        now = self.auth.clock()
        r = request
        await self._tx(context, lambda conn: taking.leave(conn, me.id, r.campaign_id, r.player_id, now))
        self.auth.live.forget_player(r.campaign_id, r.player_id)
        return lobby_pb2.LeaveSeatResponse(campaign_id=r.campaign_id, player_id=r.player_id)

    async def GetReliability(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        me = await self._me(context)
        rec = await self._read(context, lambda conn: reliability.record(conn, me.id))
        return record_pb(rec, me.display_name)

    async def StartSolo(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        """A solo game for the account: the form, then the session and the limits (cheap), then
        the scenario; no password is hashed (the seat is the account's, NO_LOGIN)."""
        r = request
        form = bots_pb2.CreateSoloRequest(
            campaign_id=r.campaign_id,
            scenario=r.scenario,
            seat=r.seat,
            combat_rules=r.combat_rules,
            naval_rules=r.naval_rules,
        )
        try:
            if not CAMPAIGN_ID.fullmatch(r.campaign_id):
                raise DeskError(
                    Code.INVALID_ARGUMENT, "campaign_id: 1 to 40 lowercase letters, digits and dashes"
                )
            ask = solo.check_form(form)
        except DeskError as err:
            await abort(context, err)
        me = await self._me(context)
        owner = (ACCOUNT_OWNER, me.id)
        now = self.auth.clock()
        await self._read(context, lambda conn: solo.check_limits(conn, owner, now, self.limits))
        try:
            scenario = await run_cpu(lambda: solo.scenario_for(ask))
        except DeskError as err:
            await abort(context, err)
        hashes = dict.fromkeys(scenario.world.players, NO_LOGIN)

        def work(conn: Connection) -> tuple[str, sessions.Session]:
            solo.lock_solo(conn)
            solo.make_solo(conn, owner, ask, hashes, now, self.limits)
            conn.execute(
                insert(at.account_seats).values(
                    campaign=ask.campaign, player=ask.seat, account=me.id, claimed_at=now
                )
            )
            token, session = sessions.issue(conn, ask.campaign, ask.seat, now=now, ttl=self.auth.session_ttl)
            account_store.link_seat_session(conn, me.id, token)
            return token, session

        token, session = await self._tx(context, work)
        log.info("lobby_solo_started", campaign=ask.campaign)
        out = lobby_pb2.StartSoloResponse(campaign_id=ask.campaign, player_id=ask.seat, token=token)
        out.expires_at.FromDatetime(session.expires_at)
        return out
