"""gRPC face of the game administration: CampaignAdmin (pate.v1), for the server's
administrator and, for his own campaign's calls, its game master's session."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import grpc
from sqlalchemy import Connection, Engine

from pate.core.scenario.parse import Scenario
from pate.core.world.fields import DataError
from pate.datafiles import load_shipped_scenario, parse_scenario_text
from pate.v1 import admin_pb2, admin_pb2_grpc
from services.orders import campaigns
from services.orders.campaign_view import campaign_pb
from services.orders.pause import paused_turns
from services.orders.recovery_rpc import FailedTurnsAdmin
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import (
    NOT_ADMIN,
    abort,
    game_master_session,
    in_reader,
    in_transaction,
    is_admiral,
    run_cpu,
)
from services.platform.security import sessions
from services.platform.security.auth import Authenticator
from services.platform.security.passwords import hash_password
from services.platform.security.quoting import first_problems
from services.platform.store import failures
from services.platform.store import repository as repo


class CampaignAdminServicer(FailedTurnsAdmin, admin_pb2_grpc.CampaignAdminServicer):
    def __init__(
        self, engine: Engine, admin_token: str, auth: Authenticator, admiral_token: str = ""
    ) -> None:
        self.engine = engine
        self.admin_token = admin_token
        self.admiral_token = admiral_token
        self.auth = auth  # the order desk's: a new password must end its sessions in memory too

    async def _admin(
        self, context: grpc.aio.ServicerContext, *, admiral: bool = False, campaign: str | None = None
    ) -> None:
        """The administrator; ``admiral``: the bot admiral's own token too (reading campaigns);
        ``campaign``: that campaign's game master's own session too."""
        token = self.admiral_token if admiral else ""
        if is_admiral(context, self.admin_token, token):
            return
        if campaign is not None and await game_master_session(context, self.auth, campaign):
            return
        await abort(context, DeskError(Code.PERMISSION_DENIED, NOT_ADMIN))

    async def CreateCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context)
        try:
            scenario, name = await run_cpu(partial(_scenario, request))
            campaigns.check_fits(scenario)
        except DeskError as err:
            await abort(context, err)
        first = request.first_deadline.ToDatetime(tzinfo=UTC) if request.HasField("first_deadline") else None
        seed = request.seed or scenario.world.seed
        turns = request.turns or scenario.world.turns
        try:
            passwords, generated = campaigns.initial_passwords(scenario, dict(request.passwords))
        except DeskError as err:
            await abort(context, err)
        hashes = await run_cpu(lambda: {pid: hash_password(pw) for pid, pw in passwords.items()})

        def work(conn: Connection) -> repo.CampaignRow:
            return campaigns.create_campaign(
                conn,
                request.id,
                scenario,
                name,
                seed=seed,
                turns=turns,
                first_deadline=first,
                turn_seconds=request.turn_seconds,
                password_hashes=hashes,
                combat_rules=request.combat_rules,
                naval_rules=request.naval_rules,
            )

        reply = campaign_pb(await self._run(context, work))
        # shown once: only their argon2 hashes are kept
        reply.logins.extend(
            admin_pb2.PlayerLogin(player_id=p, password=pw) for p, pw in sorted(generated.items())
        )
        return reply

    async def GetCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, admiral=True, campaign=request.campaign_id)
        try:
            cid = request.campaign_id
            row, failure, held = await in_reader(
                self.engine,
                lambda c: (get_campaign(c, cid), failures.get_failure(c, cid), paused_turns(c, cid)),
            )
        except DeskError as err:
            await abort(context, err)
        return campaign_pb(row, failure, paused=held.get(cid) == row.turn)

    async def ListCampaigns(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, admiral=True)
        rows, failed, held = await in_reader(
            self.engine, lambda c: (repo.list_campaigns(c), failures.all_failures(c), paused_turns(c))
        )
        return admin_pb2.ListCampaignsResponse(
            campaigns=[campaign_pb(r, failed.get(r.id), paused=held.get(r.id) == r.turn) for r in rows]
        )

    async def CloseTurn(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, campaign=request.campaign_id)
        at = datetime.now(UTC)
        row = await self._run(
            context, lambda c: campaigns.close_turn(c, request.campaign_id, request.turn, "admin", at)
        )
        return campaign_pb(row)

    async def SetDeadline(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, campaign=request.campaign_id)
        deadline = request.deadline.ToDatetime(tzinfo=UTC) if request.HasField("deadline") else None

        def work(conn: Connection) -> repo.CampaignRow:
            row = get_campaign(conn, request.campaign_id)
            if request.turn != row.turn or row.status != "OPEN":
                raise DeskError(
                    Code.FAILED_PRECONDITION, f"turn: only the open turn ({row.turn}) takes a deadline"
                )
            repo.set_status(conn, row.id, turn=row.turn, expect=("OPEN",), status="OPEN", deadline=deadline)
            return get_campaign(conn, row.id)

        return campaign_pb(await self._run(context, work))

    async def SetPlayerPassword(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, campaign=request.campaign_id)
        if len(request.password) < 8:
            await abort(context, DeskError(Code.INVALID_ARGUMENT, "password: at least 8 characters"))
        hashed = await run_cpu(partial(hash_password, request.password))

        def work(conn: Connection) -> None:
            get_campaign(conn, request.campaign_id)
            if not repo.set_password(conn, request.campaign_id, request.player_id, hashed):
                raise DeskError(Code.NOT_FOUND, f"player_id: no player {request.player_id!r}")
            # a new password ends every session opened with the old one
            sessions.revoke_player(conn, request.campaign_id, request.player_id, now=datetime.now(UTC))

        await self._run(context, work)
        self.auth.live.forget_player(request.campaign_id, request.player_id)  # at once, in this process
        return admin_pb2.SetPlayerPasswordResponse()

    async def _run(self, context: grpc.aio.ServicerContext, work):  # type: ignore[no-untyped-def]
        try:
            return await in_transaction(self.engine, work)
        except DeskError as err:
            await abort(context, err)


def get_campaign(conn: Connection, campaign: str) -> repo.CampaignRow:
    row = repo.get_campaign(conn, campaign)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    return row


def _scenario(request: admin_pb2.CreateCampaignRequest) -> tuple[Scenario, str]:
    """The scenario given inline, or a shipped one by name: never a path."""
    try:
        if request.scenario_toml:
            return parse_scenario_text(request.scenario_toml), request.scenario or "inline"
        if not request.scenario:
            raise DeskError(Code.INVALID_ARGUMENT, "scenario: name a scenario or give scenario_toml")
        return load_shipped_scenario(request.scenario), request.scenario
    except FileNotFoundError:
        raise DeskError(Code.NOT_FOUND, f"scenario: no scenario named {request.scenario!r}") from None
    except DataError as err:
        raise DeskError(Code.INVALID_ARGUMENT, f"scenario: {first_problems(err.problems)}") from None
