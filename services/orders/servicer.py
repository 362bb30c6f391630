"""gRPC face of the orders service: CampaignAdmin and OrderDesk (pate.v1)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, NoReturn

import grpc
from sqlalchemy import Connection, Engine

from pate.core.orders.model import ShipOrder
from pate.core.rules.validation.assign import Assignment
from pate.core.rules.validation.orders import Actor
from pate.core.scenario.parse import Scenario
from pate.core.world.fields import DataError
from pate.core.world.state import Role
from pate.datafiles import load_shipped_scenario, parse_scenario_text
from pate.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    common_pb2,
    desk_pb2,
    desk_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
)
from services.orders import campaigns, desk, intake, mydesk
from services.orders.campaign_view import campaign_pb
from services.orders.groupcommit import GroupCommitter
from services.orders.mapping import order_to_pb
from services.orders.pause import paused_turns
from services.orders.preview_rpc import PreviewRpcs
from services.orders.readiness_rpc import ReadinessRpcs
from services.orders.recovery_rpc import FailedTurnsAdmin
from services.platform.errors import Code, DeskError
from services.platform.runtime.grpcutil import annotate_call
from services.platform.runtime.rpc import (
    NOT_ADMIN,
    abort,
    call_credentials,
    caller_row,
    game_master_session,
    in_reader,
    in_transaction,
    is_admiral,
    run_cpu,
)
from services.platform.security import sessions
from services.platform.security.auth import Authenticator
from services.platform.security.passwords import hash_password
from services.platform.security.quoting import bounded, first_problems
from services.platform.store import failures, notifications
from services.platform.store import repository as repo
from services.platform.telemetry.metrics import ORDERS_ACCEPTED, SUBMISSIONS_REFUSED

REFUSALS_KEY = "pate-refusals-bin"  # trailing metadata of a refused SubmitOrders (desk.proto)


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
                self.engine, lambda c: (_get(c, cid), failures.get_failure(c, cid), paused_turns(c, cid))
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
            row = _get(conn, request.campaign_id)
            if request.turn != row.turn or row.status != "OPEN":
                raise DeskError(
                    Code.FAILED_PRECONDITION, f"turn: only the open turn ({row.turn}) takes a deadline"
                )
            repo.set_status(conn, row.id, turn=row.turn, expect=("OPEN",), status="OPEN", deadline=deadline)
            return _get(conn, row.id)

        return campaign_pb(await self._run(context, work))

    async def SetPlayerPassword(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await self._admin(context, campaign=request.campaign_id)
        if len(request.password) < 8:
            await abort(context, DeskError(Code.INVALID_ARGUMENT, "password: at least 8 characters"))
        hashed = await run_cpu(partial(hash_password, request.password))

        def work(conn: Connection) -> None:
            _get(conn, request.campaign_id)
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


class _PlayerFacing:
    """A servicer whose callers are players: a session token (or password) names the caller."""

    def __init__(
        self, engine: Engine, auth: Authenticator, trusted_proxies: frozenset[str] = frozenset()
    ) -> None:
        self.engine = engine
        self.auth = auth
        self.trusted_proxies = trusted_proxies

    async def _authenticate(self, context: grpc.aio.ServicerContext, campaign: str) -> Actor:
        """The caller, or DeskError (UNAUTHENTICATED, NOT_FOUND, RESOURCE_EXHAUSTED)."""
        return desk.actor_of(await caller_row(self.auth, context, campaign, self.trusted_proxies))

    async def _caller(self, context: grpc.aio.ServicerContext, campaign: str) -> Actor:
        try:
            return await self._authenticate(context, campaign)
        except DeskError as err:
            await abort(context, err)


class OrderDeskServicer(_PlayerFacing, PreviewRpcs, orders_pb2_grpc.OrderDeskServicer):
    def __init__(
        self, engine: Engine, auth: Authenticator, trusted_proxies: frozenset[str] = frozenset()
    ) -> None:
        super().__init__(engine, auth, trusted_proxies)
        self.writer = GroupCommitter(engine, store_group=intake.record_group)
        self.turns = intake.OpenTurns()
        self.database = repo.database_key(engine)

    async def SubmitOrders(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        # Every refusal, unauthenticated ones included, is counted by its reason (_refuse).
        try:
            creds = call_credentials(context, self.trusted_proxies)
        except DeskError as err:
            await self._refuse(context, err)
        fingerprint = hashlib.sha256(request.SerializeToString(deterministic=True)).digest()
        args = (request.campaign_id, request.turn)
        rid = request.client_request_id
        hot = intake.check_from_memory(self.auth, self.turns, self.database, request, creds, fingerprint)
        if hot is not None:  # the hot path: nothing read, stored with its group
            orders: Sequence[ShipOrder] = hot.orders
            checked = hot.checked
        else:
            orders, checked = await self._check(context, request, creds, fingerprint)
        try:
            ids, replayed = await self.writer.run(
                lambda c: desk.record_submission(c, *args, checked, orders, rid, fingerprint), group=hot
            )
        except DeskError as err:
            await self._refuse(context, err)
        if not replayed:
            ORDERS_ACCEPTED.inc(len(ids))
        annotate_call(
            campaign=request.campaign_id, turn=request.turn, player=checked.caller.player, ships=len(ids)
        )
        return orders_pb2.SubmitOrdersResponse(accepted=len(ids), ship_ids=ids, replayed=replayed)

    async def _check(
        self, context: grpc.aio.ServicerContext, request: Any, creds: Any, fingerprint: bytes
    ) -> tuple[list[ShipOrder], desk.Checked]:
        """The full path: the caller, the request id and every rule, read from the database."""
        args = (request.campaign_id, request.turn)
        rid = request.client_request_id
        moves = [(m.origin, m.destination, m.amount) for m in request.stores_moves]
        try:
            if creds.token and not request.orders_text:
                # a session token and structured orders: authenticated and checked in one read
                def work(conn: Connection) -> tuple[DeskError | None, Any]:
                    try:
                        caller = desk.actor_of(self.auth.token_caller(conn, request.campaign_id, creds))
                    except DeskError as err:
                        return err, None
                    orders = intake.orders_of(request)
                    return None, (
                        orders,
                        desk.check_submission(conn, *args, caller, orders, rid, fingerprint, moves),
                    )

                unauthenticated, found = await in_reader(self.engine, work)
                if unauthenticated is not None:
                    raise unauthenticated
                orders, checked = found
            else:
                # Who asks, and for which campaign, before the order text costs any parsing.
                caller = await self._authenticate(context, request.campaign_id)
                orders = await run_cpu(partial(intake.orders_of, request))
                checked = await in_reader(
                    self.engine,
                    lambda c: desk.check_submission(c, *args, caller, orders, rid, fingerprint, moves),
                )
        except DeskError as err:
            await self._refuse(context, err)
        if checked.campaign is not None:
            self.turns.remember(checked.campaign)
        return orders, checked

    async def _refuse(self, context: grpc.aio.ServicerContext, err: DeskError) -> NoReturn:
        SUBMISSIONS_REFUSED.labels(reason=err.code.value).inc()
        if err.refusals:  # each refused field, for clients that show it by the field (the web desk)
            context.set_trailing_metadata(((REFUSALS_KEY, refusals_bin(err.refusals)),))
        await abort(context, err)

    async def GetEffectiveOrders(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)

        def work(conn: Connection):  # type: ignore[no-untyped-def]
            turn = desk.effective_turn(conn, request.campaign_id, request.turn)
            return desk.effective_for(conn, request.campaign_id, turn, caller, list(request.ship_ids))

        try:
            found = await in_reader(self.engine, work)
        except DeskError as err:
            await abort(context, err)
        return orders_pb2.GetEffectiveOrdersResponse(
            orders=[
                orders_pb2.EffectiveOrder(
                    order=order_to_pb(e.order), source=e.source.value, copied_from=e.copied_from or ""
                )
                for e in found.values()
            ]
        )


class PlayerDeskServicer(_PlayerFacing, ReadinessRpcs, desk_pb2_grpc.PlayerDeskServicer):
    """What the web desk shows a player; the same credentials as OrderDesk."""

    async def GetMyCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)

        def work(conn: Connection) -> desk_pb2.MyCampaign:
            row = _get(conn, request.campaign_id)
            out = mydesk.my_campaign(conn, row, caller)
            failure = failures.get_failure(conn, row.id)
            out.campaign.CopyFrom(campaign_pb(row, failure))
            if failure is not None and Role.ADMIN not in caller.roles:
                out.campaign.failure.reason = ""  # players see that the turn failed; only the GM why
            return out

        try:
            return await in_reader(self.engine, work)
        except DeskError as err:
            await abort(context, err)

    async def GetNotifications(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)
        prefs = await in_reader(
            self.engine, lambda c: notifications.get_prefs(c, request.campaign_id, caller.player)
        )
        return _notifications_pb(prefs)

    async def SetNotifications(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)
        n = request.notifications
        try:
            prefs = notifications.check_prefs(n.email, n.webhook, list(n.kinds))
        except DeskError as err:
            await abort(context, err)
        now = datetime.now(UTC)
        await in_transaction(
            self.engine, lambda c: notifications.set_prefs(c, request.campaign_id, caller.player, prefs, now)
        )
        return _notifications_pb(prefs)

    async def AssignOfficers(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)
        items = [
            Assignment(a.ship_id[:64], a.commander[:64] or None, a.deputy[:64] or None)
            for a in request.assignments[: mydesk.MAX_ASSIGNMENTS + 1]
        ]
        try:
            n = await in_transaction(
                self.engine,
                lambda c: mydesk.assign_officers(c, request.campaign_id, request.turn, caller, items),
            )
        except DeskError as err:
            if err.refusals:
                context.set_trailing_metadata(((REFUSALS_KEY, refusals_bin(err.refusals)),))
            await abort(context, err)
        return desk_pb2.AssignOfficersResponse(accepted=n)


def _notifications_pb(prefs: notifications.Prefs) -> desk_pb2.Notifications:
    return desk_pb2.Notifications(email=prefs.email, webhook=prefs.webhook, kinds=list(prefs.kinds))


# The trailer carrying the refusals must stay under gRPC's metadata limit (16 KiB by default):
# each message cut short, and at most this many refusals, the first ones.
REFUSAL_CHARS = 300
REFUSAL_FIELD_CHARS = 120  # a path into the request, "orders[12].amphibious.load_units[3]"
MAX_REFUSALS = 25


def refusals_bin(refusals: tuple[Any, ...]) -> bytes:
    return desk_pb2.RefusalList(
        refusals=[
            common_pb2.Refusal(
                field=bounded(r.field, REFUSAL_FIELD_CHARS),
                rule=r.rule,
                message=bounded(r.message, REFUSAL_CHARS),
                code=str(r.code),
            )
            for r in refusals[:MAX_REFUSALS]
        ]
    ).SerializeToString()


def _get(conn: Connection, campaign: str) -> repo.CampaignRow:
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
