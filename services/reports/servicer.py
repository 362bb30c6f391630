"""gRPC face of the reports service (pate.v1.Reports).

A report is read by its player, by the naval minister of the player's state,
or by an administrator; nobody else.  The truth of a turn (every ship's place)
is an administrator's at any time and a player's once the campaign has finished.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import grpc
from sqlalchemy import Connection, Engine

from pate.core.world.state import Role
from pate.reports.truth import truth_json
from pate.v1 import reports_pb2, reports_pb2_grpc
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import abort, caller_row, in_reader, is_admin, metadata, run_cpu
from services.platform.security.auth import Authenticator, check_id
from services.platform.store import bots, seat_holds
from services.platform.store import repository as repo
from services.platform.store.archive_reads import in_public_archive
from services.platform.telemetry.logging import get_logger
from services.reports import rendering

FORMATS = ("json", "text", "html")
TRUTH_REFUSED = "the truth of the campaign is shown once it has finished"
log = get_logger("reports")


def sees_every_side(conn: Connection, campaign: str, row: Any) -> bool:
    """The campaign's game master, at any time; any of its players once it is over (the
    all-sides replay, docs/web.md)."""
    if Role.ADMIN.value in json.loads(row.roles_json):
        return True
    found = repo.get_campaign(conn, campaign)
    return found is not None and found.status == "FINISHED"


def _reader(conn: Connection, campaign: str, row: Any, target: str) -> str:
    """Check the authenticated caller may read ``target``'s reports; returns the target."""
    target = target or row.id
    if target == row.id:
        return target
    other = repo.get_player(conn, campaign, target)
    roles = set(json.loads(row.roles_json))
    if other is not None and sees_every_side(conn, campaign, row):
        return target
    if other is not None and Role.NAVAL_MINISTER.value in roles and other.state == row.state:
        return target
    raise DeskError(Code.PERMISSION_DENIED, f"player_id: you may not read the reports of {target!r}")


def _first_turn(conn: Connection, campaign: str, row: Any) -> int:
    """The first turn whose reports the caller's seat may read: a newcomer who took the seat as
    a replacement (docs/lobby.md) reads none of his predecessor's."""
    return seat_holds.reports_from(conn, campaign, row.id)


EARLIER_REFUSED = "turn: the reports before you took this seat were its former holder's"


class ReportsServicer(reports_pb2_grpc.ReportsServicer):
    def __init__(
        self,
        engine: Engine,
        admin_token: str,
        auth: Authenticator,
        trusted_proxies: frozenset[str] = frozenset(),
    ) -> None:
        self.engine = engine
        self.admin_token = admin_token
        self.auth = auth
        self.trusted_proxies = trusted_proxies
        self._keeping: set[asyncio.Task[None]] = set()

    def _keep_later(self, campaign: str, turn: int, player: str, bodies: dict[str, str]) -> None:
        """Store first renderings after the reply: a read never waits for the writer
        (docs/operations.md). If the write fails, a later reader renders the same bytes again."""
        task = asyncio.create_task(
            asyncio.to_thread(rendering.keep, self.engine, campaign, turn, player, bodies)
        )
        self._keeping.add(task)
        task.add_done_callback(self._kept)

    def _kept(self, task: asyncio.Task[None]) -> None:
        self._keeping.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("reports.keep_failed", error=type(task.exception()).__name__)

    async def _caller(self, context: grpc.aio.ServicerContext, campaign: str) -> Any:
        """The authenticated player row, or None for an administrator, and for anyone who sends
        no credentials at all to read a campaign of the public archive (every side, as the web
        desk's archive shows it, which holds no administrator token)."""
        if is_admin(context, self.admin_token):
            return None
        if self._anonymous(context) and await self._archived(campaign):
            return None
        try:
            # a read-only API token's session reads reports: that is what it is for (docs/api.md)
            return await caller_row(self.auth, context, campaign, self.trusted_proxies, read_only_ok=True)
        except DeskError as err:
            await abort(context, err)

    @staticmethod
    def _anonymous(context: grpc.aio.ServicerContext) -> bool:
        md = metadata(context)
        return not any(md.get(k) for k in ("authorization", "x-pate-player", "x-pate-password"))

    async def _archived(self, campaign: str) -> bool:
        try:
            check_id("campaign_id", campaign)  # before any query
        except DeskError:
            return False
        return await in_reader(self.engine, lambda conn: in_public_archive(conn, campaign))

    async def GetReport(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)  # who asks, before anything else
        fmt = request.format or "json"
        if fmt not in FORMATS:
            await abort(context, DeskError(Code.INVALID_ARGUMENT, f"format: one of {' | '.join(FORMATS)}"))

        def work(conn: Connection) -> tuple[str, str | None, str | None, bool]:
            if caller is None:
                if not request.player_id:
                    raise DeskError(Code.INVALID_ARGUMENT, "player_id: an administrator names the player")
                target = request.player_id
            else:
                target = _reader(conn, request.campaign_id, caller, request.player_id)
                if request.turn < _first_turn(conn, request.campaign_id, caller):
                    raise DeskError(Code.PERMISSION_DENIED, EARLIER_REFUSED)
            body = repo.load_report(conn, request.campaign_id, request.turn, target, fmt)
            source = None
            if body is None and fmt in rendering.RENDERED:
                source = repo.load_report(conn, request.campaign_id, request.turn, target, "json")
            by_bot = fmt in rendering.RENDERED and target in bots.bot_request_ids(
                conn, request.campaign_id, request.turn
            )
            return target, body, source, by_bot

        try:
            target, body, source, by_bot = await in_reader(self.engine, work)
        except DeskError as err:
            await abort(context, err)
        if source is not None:
            bodies = await run_cpu(lambda: rendering.render(source))
            self._keep_later(request.campaign_id, request.turn, target, bodies)
            body = bodies[fmt]
        if body is None:
            await abort(context, DeskError(Code.NOT_FOUND, f"turn: no report for turn {request.turn} yet"))
        if by_bot:
            body = rendering.with_bot_note(fmt, body, request.turn)
        return reports_pb2.Report(
            campaign_id=request.campaign_id, turn=request.turn, player_id=target, format=fmt, body=body
        )

    async def ListReports(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)

        def work(conn: Connection) -> list[tuple[int, str]]:
            if caller is None or sees_every_side(conn, request.campaign_id, caller):
                return repo.list_reports(conn, request.campaign_id, request.player_id or None)
            target = _reader(conn, request.campaign_id, caller, request.player_id)
            first = _first_turn(conn, request.campaign_id, caller)
            return [(t, p) for t, p in repo.list_reports(conn, request.campaign_id, target) if t >= first]

        try:
            refs = await in_reader(self.engine, work)
        except DeskError as err:
            await abort(context, err)
        return reports_pb2.ListReportsResponse(
            reports=[reports_pb2.ReportRef(turn=t, player_id=p) for t, p in refs]
        )

    async def GetTruth(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        """Every ship's place at the end of a turn. A player is refused until the campaign has
        finished, with the same words whatever the turn, so a refusal tells nothing of it."""
        caller = await self._caller(context, request.campaign_id)

        def work(conn: Connection) -> str:
            if caller is not None and Role.ADMIN.value not in json.loads(caller.roles_json):
                row = repo.get_campaign(conn, request.campaign_id)
                if row is None or row.status != "FINISHED":
                    raise DeskError(Code.PERMISSION_DENIED, TRUTH_REFUSED)
            try:
                # knowledge of turn T is of the positions at the start of turn T + 1 (3.11)
                world = repo.load_world(conn, request.campaign_id, max(request.turn, 0) + 1)
            except LookupError:
                raise DeskError(Code.NOT_FOUND, f"turn: no turn {request.turn} resolved") from None
            return truth_json(world.ships.values())

        try:
            body = await in_reader(self.engine, work)
        except DeskError as err:
            await abort(context, err)
        return reports_pb2.Truth(campaign_id=request.campaign_id, turn=request.turn, body=body)
