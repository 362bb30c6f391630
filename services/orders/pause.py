"""The game master pauses and resumes a campaign.

Pausing takes the open turn's deadline away, so neither the deadline
scheduler nor the notifier's deadline warning acts on it, and keeps the time
that was left; resuming gives that time back from now.  Orders are still
taken while paused, and the game master may still close the turn.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import grpc
from sqlalchemy import Connection, Engine, delete, select

from pate.v1 import desk_pb2, desk_pb2_grpc
from services.orders import earlyclose, options
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import abort, in_transaction, require_game_master
from services.platform.security.auth import Authenticator
from services.platform.store import repository as repo
from services.platform.store import tables


def paused(conn: Connection, campaign: str, turn: int) -> bool:
    """Paused in this turn (a pause ends with the turn it was made in: the
    game master may close a paused turn, and the next one runs its clock)."""
    t = tables.campaign_pauses
    found = conn.execute(select(t.c.turn).where(t.c.campaign == campaign)).first()
    return found is not None and found.turn == turn


def paused_turns(conn: Connection, campaign: str | None = None) -> dict[str, int]:
    """The turn each campaign (or the one named) was paused in; a pause counts only while its
    turn is the open one (see :func:`paused`)."""
    t = tables.campaign_pauses
    q = select(t.c.campaign, t.c.turn)
    if campaign is not None:
        q = q.where(t.c.campaign == campaign)
    return {r.campaign: r.turn for r in conn.execute(q)}


def pause(conn: Connection, campaign: str, now: datetime) -> desk_pb2.PauseState:
    row = _open(conn, campaign)
    if paused(conn, campaign, row.turn):
        raise DeskError(Code.FAILED_PRECONDITION, "campaign_id: the campaign is already paused")
    conn.execute(delete(tables.campaign_pauses).where(tables.campaign_pauses.c.campaign == campaign))
    left = None if row.deadline is None else max(0, int((row.deadline - now).total_seconds()))
    conn.execute(
        tables.campaign_pauses.insert().values(
            campaign=campaign, turn=row.turn, remaining_seconds=left, paused_at=now
        )
    )
    repo.set_status(conn, campaign, turn=row.turn, expect=("OPEN",), status="OPEN", deadline=None)
    return desk_pb2.PauseState(paused=True, remaining_seconds=left or 0)


def resume(conn: Connection, campaign: str, now: datetime) -> desk_pb2.PauseState:
    t = tables.campaign_pauses
    found = conn.execute(select(t).where(t.c.campaign == campaign)).first()
    if found is None:
        raise DeskError(Code.FAILED_PRECONDITION, "campaign_id: the campaign is not paused")
    conn.execute(delete(t).where(t.c.campaign == campaign))
    row = repo.get_campaign(conn, campaign, lock=True)
    if (
        row is not None
        and row.status == "OPEN"
        and row.turn == found.turn
        and found.remaining_seconds is not None
    ):
        deadline = now + timedelta(seconds=found.remaining_seconds)
        repo.set_status(conn, campaign, turn=row.turn, expect=("OPEN",), status="OPEN", deadline=deadline)
    return desk_pb2.PauseState(paused=False, remaining_seconds=found.remaining_seconds or 0)


def _open(conn: Connection, campaign: str) -> repo.CampaignRow:
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    if row.status != "OPEN":
        raise DeskError(
            Code.FAILED_PRECONDITION, f"campaign_id: turn {row.turn} is {row.status}; pause an open turn"
        )
    return row


class GameMasterServicer(desk_pb2_grpc.GameMasterServicer):
    def __init__(self, engine: Engine, admin_token: str, auth: Authenticator) -> None:
        self.engine = engine
        self.admin_token = admin_token
        self.auth = auth

    async def _run(self, context: grpc.aio.ServicerContext, campaign: str, work):  # type: ignore[no-untyped-def]
        """``work`` for the administrator or ``campaign``'s game master, in a transaction."""
        await require_game_master(context, self.admin_token, self.auth, campaign)
        try:
            return await in_transaction(self.engine, work)
        except DeskError as err:
            await abort(context, err)

    async def PauseCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return await self._run(
            context, request.campaign_id, lambda c: pause(c, request.campaign_id, datetime.now(UTC))
        )

    async def ResumeCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return await self._run(
            context, request.campaign_id, lambda c: resume(c, request.campaign_id, datetime.now(UTC))
        )

    async def SetEarlyClose(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        wanted = request.early_close
        return await self._run(
            context, request.campaign_id, lambda c: earlyclose.set_setting(c, request.campaign_id, wanted)
        )

    async def SetCampaignOptions(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        wanted = request.options
        return await self._run(
            context, request.campaign_id, lambda c: options.set_options(c, request.campaign_id, wanted)
        )
