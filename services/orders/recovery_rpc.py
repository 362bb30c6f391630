"""The administrator's RPCs for a failed turn (admin.proto; docs/operations.md, "A failed turn").

A mixin of ``CampaignAdminServicer``: each call needs the administrator token,
checks its fields before any work, and acts on the one campaign named.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

import grpc
from sqlalchemy import Connection, Engine

from pate.v1 import admin_pb2
from services.orders import recovery
from services.orders.campaign_view import campaign_pb
from services.platform.runtime.rpc import in_reader
from services.platform.store import failures
from services.platform.store import repository as repo

MAX_TURN = 1000  # above any campaign's length (CreateCampaign allows 100 turns)


class FailedTurnsAdmin:
    engine: Engine

    async def _admin(self, context: grpc.aio.ServicerContext, *, campaign: str | None = None) -> None:
        raise NotImplementedError

    async def _run(self, context: grpc.aio.ServicerContext, work: Any) -> Any:
        raise NotImplementedError

    async def ListFailedTurns(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context)

        def work(conn: Connection) -> list[admin_pb2.Campaign]:
            failed = failures.all_failures(conn)
            rows = [repo.get_campaign(conn, cid) for cid in failed]
            return [campaign_pb(r, failed[r.id]) for r in rows if r is not None]

        return admin_pb2.ListFailedTurnsResponse(campaigns=await in_reader(self.engine, work))

    async def RetryTurn(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, campaign=request.campaign_id)
        turn = _turn(request.turn)
        return await self._reply(context, lambda c: recovery.retry_turn(c, request.campaign_id, turn))

    async def ReopenTurn(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, campaign=request.campaign_id)
        turn = _turn(request.turn)
        deadline = request.deadline.ToDatetime(tzinfo=UTC) if request.HasField("deadline") else None
        return await self._reply(
            context, lambda c: recovery.reopen_turn(c, request.campaign_id, turn, deadline)
        )

    async def ResolveWithDefaults(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, campaign=request.campaign_id)
        turn = _turn(request.turn)
        return await self._reply(
            context,
            lambda c: recovery.resolve_with_defaults(c, request.campaign_id, turn, request.player_id),
        )

    async def _reply(self, context: grpc.aio.ServicerContext, work: Any) -> admin_pb2.Campaign:
        def act(conn: Connection) -> admin_pb2.Campaign:
            row = work(conn)
            fresh = repo.get_campaign(conn, row.id)
            return campaign_pb(fresh or row, failures.get_failure(conn, row.id))

        reply: admin_pb2.Campaign = await self._run(context, act)
        return reply


def _turn(turn: int) -> int:
    """Out of range turns match no failed turn: refused there, by the field's name."""
    return turn if 1 <= turn <= MAX_TURN else -1
