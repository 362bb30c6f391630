"""gRPC face of accounts (pate.v1.Accounts, docs/accounts.md), served by the orders process,
which owns the sessions and the players.  Every handler reads the caller's credentials, runs
the blocking work off the event loop and turns a DeskError into its status; the account's
token is checked before anything costly (services/platform/security/accounts.py)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import grpc
from sqlalchemy import Engine

from pate.v1 import accounts_pb2, accounts_pb2_grpc
from services.orders.account_api import AccountApi
from services.orders.account_api_rpc import ApiTokenRpcs
from services.orders.account_seats import AccountSeats, Seat
from services.platform.errors import DeskError
from services.platform.runtime.rpc import abort, call_credentials
from services.platform.security import api_tokens
from services.platform.security.accounts import MAIL_ON_ITS_WAY, Accounts
from services.platform.security.auth import Authenticator, Credentials
from services.platform.telemetry.logging import get_logger

log = get_logger("accounts")
T = TypeVar("T")


@functools.cache
def accounts_for(engine: Engine, session_ttl: float, link_base: str = "") -> Accounts:
    """One per engine in a process; it shares the login throttle's table with the seat login."""
    return Accounts(engine, session_ttl=session_ttl, link_base=link_base)


def _seat(seat: Seat) -> accounts_pb2.AccountSeat:
    return accounts_pb2.AccountSeat(
        campaign_id=seat.campaign, player_id=seat.player, state=seat.state, status=seat.status, turn=seat.turn
    )


def _login_reply(token: str, expires: datetime, name: str, zone: str) -> accounts_pb2.AccountLoginResponse:
    out = accounts_pb2.AccountLoginResponse(token=token, display_name=name, time_zone=zone)
    out.expires_at.FromDatetime(expires)
    return out


class AccountsServicer(ApiTokenRpcs, accounts_pb2_grpc.AccountsServicer):
    def __init__(
        self, accounts: Accounts, auth: Authenticator, trusted_proxies: frozenset[str] = frozenset()
    ) -> None:
        self.accounts = accounts
        self.seats = AccountSeats(accounts, auth)
        self.api = AccountApi(accounts, auth)
        self.trusted_proxies = trusted_proxies

    async def _creds(self, context: grpc.aio.ServicerContext) -> Credentials:
        try:
            return call_credentials(context, self.trusted_proxies)
        except DeskError as err:
            await abort(context, err)

    async def _run(self, context: grpc.aio.ServicerContext, what: str, fn: Callable[..., T], *args: Any) -> T:
        try:
            return await asyncio.to_thread(fn, *args)
        except DeskError as err:
            log.info("account_refused", call=what, code=err.code.value)  # never the address
            await abort(context, err)

    async def SignUp(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        r = request
        await self._run(
            context,
            "signup",
            self.accounts.sign_up,
            r.display_name,
            r.email,
            r.password,
            r.time_zone,
            c.source,
        )
        return accounts_pb2.MailResponse(message=MAIL_ON_ITS_WAY)

    async def Verify(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._run(context, "verify", self.accounts.verify, request.token)
        return accounts_pb2.VerifyResponse()

    async def Login(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        token, expires, me = await self._run(
            context, "login", self.accounts.login, request.email, request.password, c.source
        )
        return _login_reply(token, expires, me.display_name, me.time_zone)

    async def ListSeats(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        me = await self._run(context, "seats", self.accounts.authenticate, c.token)
        seats = await self._run(context, "seats", self.seats.seats, c.token)
        return accounts_pb2.ListSeatsResponse(
            display_name=me.display_name,
            email=me.email,
            time_zone=me.time_zone,
            seats=[_seat(s) for s in seats],
        )

    async def ClaimSeat(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        r = request
        seat = await self._run(
            context, "claim", self.seats.claim, c.token, r.campaign_id, r.player_id, r.password, c.source
        )
        log.info("seat_claimed", campaign=seat.campaign, player=seat.player)
        return accounts_pb2.SeatResponse(seat=_seat(seat))

    async def OpenSeat(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        r = request
        if api_tokens.looks_like(c.token):  # a player's own program (docs/api.md)
            token, session, row = await self._run(
                context, "open_seat_api", self.api.open_seat, c.token, r.campaign_id, r.player_id, c.source
            )
        else:
            token, session, row = await self._run(
                context, "open_seat", self.seats.open_seat, c.token, r.campaign_id, r.player_id
            )
        out = accounts_pb2.OpenSeatResponse(token=token, state=row.state or "")
        out.expires_at.FromDatetime(session.expires_at)
        return out

    async def ListSessions(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        found = await self._run(context, "sessions", self.accounts.sessions, c.token)
        out = accounts_pb2.ListSessionsResponse()
        for s in found:
            item = out.sessions.add(session_id=s.id, campaign_id=s.campaign, player_id=s.player)
            item.created_at.FromDatetime(s.created_at)
            item.expires_at.FromDatetime(s.expires_at)
        return out

    async def RevokeSessions(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        n = await self._run(context, "revoke", self.seats.revoke, c.token, request.session_id)
        return accounts_pb2.RevokeAccountSessionsResponse(revoked=n)

    async def RequestReset(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        await self._run(context, "reset_request", self.accounts.request_reset, request.email, c.source)
        return accounts_pb2.MailResponse(message=MAIL_ON_ITS_WAY)

    async def ResetPassword(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._run(context, "reset", self.seats.reset, request.token, request.new_password)
        return accounts_pb2.ResetPasswordResponse()

    async def ChangePassword(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        r = request
        token, expires = await self._run(
            context, "change", self.seats.change_password, c.token, r.password, r.new_password, c.source
        )
        me = await self._run(context, "change", self.accounts.authenticate, token)
        return _login_reply(token, expires, me.display_name, me.time_zone)

    async def DeleteAccount(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)
        await self._run(context, "delete", self.seats.delete, c.token, request.password, c.source)
        log.info("account_deleted")
        return accounts_pb2.DeleteAccountResponse()
