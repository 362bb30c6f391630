"""The API-token and account-edit calls of pate.v1.Accounts (docs/api.md, docs/accounts.md),
mixed into AccountsServicer: each authenticates the account's session before anything else."""

from __future__ import annotations

from pate.v1 import accounts_pb2
from services.orders.account_api import AccountApi
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import abort
from services.platform.security import account_edits
from services.platform.security.accounts import Accounts
from services.platform.security.api_tokens import MAX_SEATS, ApiToken
from services.platform.telemetry.logging import get_logger

log = get_logger("accounts")


def token_info(t: ApiToken) -> accounts_pb2.ApiTokenInfo:
    out = accounts_pb2.ApiTokenInfo(
        token_id=t.id,
        prefix=t.prefix,
        name=t.name,
        read_only=t.read_only,
        all_seats=t.all_seats,
        seats=[accounts_pb2.ApiTokenSeat(campaign_id=c, player_id=p) for c, p in t.seats],
    )
    out.created_at.FromDatetime(t.created_at)
    out.expires_at.FromDatetime(t.expires_at)
    if t.last_used_at is not None:
        out.last_used_at.FromDatetime(t.last_used_at)
    return out


class ApiTokenRpcs:
    """Needs ``api`` (AccountApi), ``accounts``, ``_creds`` and ``_run`` of AccountsServicer."""

    api: AccountApi
    accounts: Accounts

    async def CreateApiToken(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)  # type: ignore[attr-defined]
        if len(request.seats) > MAX_SEATS:  # counted before anything is read
            await abort(context, DeskError(Code.INVALID_ARGUMENT, f"seats: at most {MAX_SEATS}"))
        seats = [(s.campaign_id, s.player_id) for s in request.seats]
        secret, made = await self._run(  # type: ignore[attr-defined]
            context,
            "api_token_create",
            lambda: self.api.create(
                c.token,
                request.name,
                read_only=request.read_only,
                all_seats=request.all_seats,
                seats=seats,
                days=request.expires_in_days,
            ),
        )
        log.info("api_token_created", token_id=made.id, read_only=made.read_only)  # never the secret
        return accounts_pb2.CreateApiTokenResponse(token=secret, info=token_info(made))

    async def ListApiTokens(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)  # type: ignore[attr-defined]
        found = await self._run(context, "api_tokens", self.api.listed, c.token)  # type: ignore[attr-defined]
        return accounts_pb2.ListApiTokensResponse(tokens=[token_info(t) for t in found])

    async def RevokeApiToken(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)  # type: ignore[attr-defined]
        n = await self._run(  # type: ignore[attr-defined]
            context, "api_token_revoke", self.api.revoke, c.token, request.token_id
        )
        log.info("api_token_revoked", count=n)
        return accounts_pb2.RevokeApiTokenResponse(revoked=n)

    async def UpdateAccount(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        c = await self._creds(context)  # type: ignore[attr-defined]
        r = request
        change = account_edits.Change(r.display_name, r.time_zone, r.clear_time_zone, r.email, r.password)
        me, pending = await self._run(  # type: ignore[attr-defined]
            context,
            "update",
            account_edits.update_account,
            self.accounts,
            c.token,
            change,
            c.source,
        )
        return accounts_pb2.UpdateAccountResponse(
            display_name=me.display_name, time_zone=me.time_zone, email=me.email, email_pending=pending
        )
