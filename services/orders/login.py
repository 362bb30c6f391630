"""gRPC face of the player sessions (pate.v1.Sessions), served by the orders process."""

from __future__ import annotations

import asyncio
import json

import grpc

from pate.v1 import sessions_pb2, sessions_pb2_grpc
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import abort, call_credentials, require_game_master
from services.platform.security import sessions
from services.platform.security.auth import Authenticator, Credentials, check_id
from services.platform.telemetry.logging import get_logger

log = get_logger("sessions")


def _reply(token: str, session: sessions.Session, row: object) -> sessions_pb2.LoginResponse:
    out = sessions_pb2.LoginResponse(
        token=token,
        campaign_id=session.campaign,
        player_id=session.player,
        state=getattr(row, "state", None) or "",
        roles=sorted(json.loads(getattr(row, "roles_json", "[]"))),
    )
    out.expires_at.FromDatetime(session.expires_at)
    return out


class SessionsServicer(sessions_pb2_grpc.SessionsServicer):
    def __init__(
        self, auth: Authenticator, admin_token: str, trusted_proxies: frozenset[str] = frozenset()
    ) -> None:
        self.auth = auth
        self.admin_token = admin_token
        self.trusted_proxies = trusted_proxies

    async def Login(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        try:
            creds = call_credentials(context, self.trusted_proxies)
            token, session, row = await asyncio.to_thread(
                self.auth.login, request.campaign_id, request.player_id, request.password, creds.source
            )
        except DeskError as err:
            log.info("login_refused", campaign=request.campaign_id[:64], code=err.code.value)
            await abort(context, err)
        log.info("login", campaign=session.campaign, player=session.player)
        return _reply(token, session, row)

    async def _token(self, context: grpc.aio.ServicerContext) -> str:
        try:
            creds = call_credentials(context, self.trusted_proxies)
        except DeskError as err:
            await abort(context, err)
        if not creds.token:
            await abort(
                context, DeskError(Code.UNAUTHENTICATED, "authorization: give 'Bearer <session token>'")
            )
        return creds.token

    async def Logout(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        token = await self._token(context)
        try:
            revoked = await asyncio.to_thread(self.auth.logout, token, everywhere=request.all)
        except DeskError as err:
            await abort(context, err)
        return sessions_pb2.LogoutResponse(revoked=revoked)

    async def RevokeSessions(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        try:
            check_id("campaign_id", request.campaign_id)
            check_id("player_id", request.player_id)
        except DeskError as err:
            await abort(context, err)
        await require_game_master(
            context, self.admin_token, self.auth, request.campaign_id, self.trusted_proxies
        )
        revoked = await asyncio.to_thread(self.auth.revoke_player, request.campaign_id, request.player_id)
        log.info(
            "sessions_revoked", campaign=request.campaign_id[:64], player=request.player_id[:64], n=revoked
        )
        return sessions_pb2.RevokeSessionsResponse(revoked=revoked)

    async def WhoAmI(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        token = await self._token(context)
        try:
            session = await asyncio.to_thread(self.auth.session, token)
            row = await asyncio.to_thread(self.auth.caller, session.campaign, Credentials(token=token))
        except DeskError as err:
            await abort(context, err)
        return _reply("", session, row)
