"""The Absences service of the orders process (pate.v1.Absences, proto/pate/v1/absence.proto):
a player's absence and standing instructions, and the game master's allowance.

A player calls with his seat's session, or with his account's session naming one of his seats
(docs/accounts.md); either is checked before any other read, and the fields' limits before that.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import grpc
from sqlalchemy import Connection, Engine, and_, select

from pate.v1 import absence_pb2_grpc
from services.orders import absence, botwork, standing
from services.orders.account_seats import check_playing
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import (
    abort,
    call_credentials,
    in_reader,
    in_transaction,
    require_game_master,
)
from services.platform.security import account_store, sessions
from services.platform.security.auth import READ_ONLY, Authenticator, Credentials, check_id
from services.platform.store import repository as repo
from services.platform.store.account_tables import account_seats

T = TypeVar("T")


def seat_caller(conn: Connection, campaign: str, player: str, creds: Credentials, now: datetime) -> Any:
    """The player row of the seat the call acts for: his seat session's, or, with an account
    session, the seat ``player`` of that account.  Whether a seat exists that is not his is
    not said."""
    check_id("campaign_id", campaign)
    if player:
        check_id("player_id", player)
    if not creds.token:
        raise DeskError(Code.UNAUTHENTICATED, "authorization: a seat or account session token is needed")
    found = sessions.lookup(conn, creds.token, now=now)
    if found is not None:
        if found.read_only:  # an API token's that may only read reports (docs/api.md)
            raise DeskError(Code.PERMISSION_DENIED, READ_ONLY)
        if found.campaign != campaign or (player and player != found.player):
            raise DeskError(Code.UNAUTHENTICATED, "session token: it is for another seat")
        player = found.player
    else:
        account = account_store.session_account(conn, creds.token, now=now)
        if account is None:
            raise DeskError(Code.UNAUTHENTICATED, "session token unknown, expired or revoked: log in again")
        if not player:
            raise DeskError(
                Code.INVALID_ARGUMENT, "player_id: name your seat when you call with your account"
            )
        t = account_seats
        held = conn.execute(
            select(t.c.account).where(
                and_(t.c.campaign == campaign, t.c.player == player, t.c.account == account)
            )
        ).first()
        if held is None:
            raise DeskError(Code.NOT_FOUND, "player_id: no such seat of yours in this campaign")
        check_playing(conn, campaign, player)  # as OpenSeat: the bot plays it until his first turn
    row = repo.get_player(conn, campaign, player)
    if row is None:
        raise DeskError(Code.UNAUTHENTICATED, "session token: the player no longer exists")
    if not row.state:
        raise DeskError(Code.FAILED_PRECONDITION, "player_id: only a player with a state has ships to leave")
    return row


class AbsencesServicer(absence_pb2_grpc.AbsencesServicer):
    def __init__(
        self,
        engine: Engine,
        auth: Authenticator,
        admin_token: str,
        trusted_proxies: frozenset[str] = frozenset(),
    ) -> None:
        self.engine = engine
        self.auth = auth
        self.admin_token = admin_token
        self.trusted_proxies = trusted_proxies

    async def _as_player(
        self,
        context: grpc.aio.ServicerContext,
        request: Any,
        work: Callable[[Connection, Any, datetime], T],
        write: bool = True,
    ) -> T:
        """``work(conn, player row, now)`` for the seat the call acts for, in one transaction."""
        try:
            creds = call_credentials(context, self.trusted_proxies)
        except DeskError as err:
            await abort(context, err)
        now = datetime.now(UTC)

        def run(conn: Connection) -> T:
            row = seat_caller(conn, request.campaign_id, request.player_id, creds, now)
            return work(conn, row, now)

        try:
            return await (in_transaction(self.engine, run) if write else in_reader(self.engine, run))
        except DeskError as err:
            await abort(context, err)

    async def DeclareAbsence(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        r = request
        state = await self._as_player(
            context, r, lambda c, p, now: absence.declare(c, r.campaign_id, p.id, r.from_turn, r.to_turn, now)
        )
        if state.absent_now:
            botwork.BELL.ring()  # the open turn is the bot's to play now
        return state

    async def CancelAbsence(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        r = request
        return await self._as_player(
            context, r, lambda c, p, _: absence.cancel(c, r.campaign_id, p.id, r.from_turn, r.to_turn)
        )

    async def GetAbsence(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        r = request
        return await self._as_player(
            context, r, lambda c, p, _: absence.state_pb(c, r.campaign_id, p.id), write=False
        )

    async def SetStandingInstructions(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        r = request
        try:
            standing.check_size(r.text)
        except DeskError as err:
            await abort(context, err)
        return await self._as_player(
            context, r, lambda c, p, now: standing.set_text(c, r.campaign_id, p, r.text, now)
        )

    async def GetStandingInstructions(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        r = request
        return await self._as_player(
            context, r, lambda c, p, _: standing.get_text(c, r.campaign_id, p.id), write=False
        )

    async def SetAbsenceAllowance(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        """The administrator's, or the campaign's game master's with his own session."""
        r = request
        try:
            check_id("campaign_id", r.campaign_id)
        except DeskError as err:
            await abort(context, err)
        # a malformed header, a spent session or another campaign's: PERMISSION_DENIED alike
        await require_game_master(context, self.admin_token, self.auth, r.campaign_id, self.trusted_proxies)
        try:
            return await in_transaction(
                self.engine, lambda c: absence.set_allowance(c, r.campaign_id, r.allowance)
            )
        except DeskError as err:
            await abort(context, err)
