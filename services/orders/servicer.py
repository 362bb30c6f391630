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
from pate.core.world.state import Role
from pate.v1 import (
    common_pb2,
    desk_pb2,
    desk_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
)
from services.orders import desk, intake, mydesk
from services.orders.campaign_admin import get_campaign
from services.orders.campaign_view import campaign_pb
from services.orders.groupcommit import GroupCommitter
from services.orders.mapping import order_to_pb
from services.orders.preview_rpc import PreviewRpcs
from services.orders.readiness_rpc import ReadinessRpcs
from services.platform.errors import Code, DeskError
from services.platform.runtime.grpcutil import annotate_call
from services.platform.runtime.rpc import (
    abort,
    call_credentials,
    caller_row,
    in_reader,
    in_transaction,
    run_cpu,
)
from services.platform.security.auth import Authenticator
from services.platform.security.quoting import bounded
from services.platform.store import failures, notifications
from services.platform.store import repository as repo
from services.platform.telemetry.metrics import ORDERS_ACCEPTED, SUBMISSIONS_REFUSED

REFUSALS_KEY = "pate-refusals-bin"  # trailing metadata of a refused SubmitOrders (desk.proto)


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
            row = get_campaign(conn, request.campaign_id)
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
