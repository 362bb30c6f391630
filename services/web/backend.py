"""Every gRPC call the web desk makes, in one place.

The web has no database of its own: it is a client of the orders service
(OrderDesk, PlayerDesk, CampaignAdmin) and of the reports service (Reports).
Errors come back as a few exceptions the pages know how to show: refused
(with the refused fields), not found / forbidden, not logged in, and the
service being down.

Logging in: a player gives campaign, player id and password once; the
orders service's Sessions.Login gives a session token back (hashed,
expiring, revocable, bound to campaign and player); every later call carries
only that token as ``authorization: Bearer``.  The pages never see a
password after the login form, and the web keeps nothing of its own.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

import grpc

from pate.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    bots_pb2,
    bots_pb2_grpc,
    common_pb2,
    desk_pb2,
    desk_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
    reports_pb2,
    reports_pb2_grpc,
    sessions_pb2,
    sessions_pb2_grpc,
)
from services.platform.security.redial import AioChannels
from services.platform.security.tls import TlsSettings, load_tls
from services.web.backend_errors import (
    NotLoggedInError,
    translate,
)

CALL_TIMEOUT = 15.0


@dataclass(frozen=True, slots=True)
class Session:
    """A session of the orders service (Sessions.Login), as the browser's
    cookie carries it: the token, and for display its campaign, player and
    expiry.  The orders service checks the token on every call; the rest
    only saves asking who it belongs to."""

    token: str
    campaign: str
    player: str
    expires_at: float  # epoch seconds

    SEPARATOR: ClassVar[str] = ":"

    def cookie(self) -> str:
        return self.SEPARATOR.join((self.campaign, self.player, str(int(self.expires_at)), self.token))

    @classmethod
    def from_cookie(cls, text: str) -> Session:
        """NotLoggedInError when the entry is malformed or its time is up."""
        parts = text.split(cls.SEPARATOR)
        if len(parts) != 4 or not parts[2].isdigit() or not _TOKEN.fullmatch(parts[3]):
            raise NotLoggedInError("log in again")
        campaign, player, expires, token = parts
        if int(expires) <= time.time():
            raise NotLoggedInError("your session has expired: log in again")
        return cls(token, campaign, player, float(expires))


_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")


# The game master whose page is being served (set once his role was checked): each request is
# its own task, so the value never reaches another request.
_acting_master: ContextVar[Session | None] = ContextVar("pate_acting_master", default=None)


def act_as(session: Session) -> None:
    """The rest of this request's game master calls carry ``session`` (his, for his campaign),
    not the server's administrator token (docs/security.md, "Least privilege")."""
    _acting_master.set(session)


class Backend:
    """The gRPC clients of the web desk (async, one channel per service)."""

    def __init__(self, orders_addr: str, reports_addr: str, tls: TlsSettings | None = None) -> None:
        self.orders_addr = orders_addr
        self.reports_addr = reports_addr
        # PATE_TLS_CA set: TLS to both services, like every other PATE client (docs/security.md)
        self.tls = load_tls() if tls is None else tls
        # dialled again when the CA or client certificate files are renewed (redial.py)
        self._orders_chs = AioChannels(orders_addr, self.tls)
        self._reports_chs = AioChannels(reports_addr, self.tls)

    def _orders(self) -> grpc.aio.Channel:
        return self._orders_chs.current()

    def _reports(self) -> grpc.aio.Channel:
        return self._reports_chs.current()

    async def close(self) -> None:
        await self._orders_chs.close()
        await self._reports_chs.close()

    @staticmethod
    def _md(session: Session) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {session.token}"),)

    def _admin_md(self) -> tuple[tuple[str, str], ...]:
        """A game master's page calls with his own session (act_as); the services take it for
        his campaign only.  The web holds no administrator token (docs/security.md, "Least
        privilege"): outside such a page a call carries no credentials, which the services grant
        nothing but the reports of a campaign in the public archive (a spectator's replay)."""
        acting = _acting_master.get()
        return () if acting is None else self._md(acting)

    # --- sessions -------------------------------------------------------

    async def login(self, campaign: str, player: str, password: str, source: str = "") -> Session:
        """Sessions.Login; ``source`` is the browser's address, for the login
        throttle (honoured when the orders service trusts this web process,
        PATE_TRUSTED_PROXIES)."""
        stub = sessions_pb2_grpc.SessionsStub(self._orders())
        md = (("x-forwarded-for", source),) if source else ()
        try:
            reply = await stub.Login(
                sessions_pb2.LoginRequest(campaign_id=campaign, player_id=player, password=password),
                metadata=md,
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        expires = reply.expires_at.ToSeconds() if reply.HasField("expires_at") else time.time()
        return Session(reply.token, reply.campaign_id or campaign, reply.player_id or player, float(expires))

    async def logout(self, session: Session) -> None:
        """Sessions.Logout: the token is revoked where it is checked."""
        stub = sessions_pb2_grpc.SessionsStub(self._orders())
        try:
            await stub.Logout(sessions_pb2.LogoutRequest(), metadata=self._md(session), timeout=CALL_TIMEOUT)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.UNAUTHENTICATED:  # already over: nothing to revoke
                raise translate(err, "orders") from None

    # --- the player's desk ----------------------------------------------

    async def my_campaign(self, s: Session) -> desk_pb2.MyCampaign:
        stub = desk_pb2_grpc.PlayerDeskStub(self._orders())
        try:
            out: desk_pb2.MyCampaign = await stub.GetMyCampaign(
                desk_pb2.GetMyCampaignRequest(campaign_id=s.campaign),
                metadata=self._md(s),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return out

    async def submit(
        self,
        s: Session,
        turn: int,
        orders: Sequence[common_pb2.ShipOrder] = (),
        text: str = "",
        stores_moves: Sequence[common_pb2.StoresMoveOrder] = (),
    ) -> orders_pb2.SubmitOrdersResponse:
        req = orders_pb2.SubmitOrdersRequest(
            campaign_id=s.campaign,
            turn=turn,
            client_request_id=uuid.uuid4().hex,
            orders=list(orders),
            orders_text=text,
            stores_moves=list(stores_moves),
        )
        stub = orders_pb2_grpc.OrderDeskStub(self._orders())
        try:
            out: orders_pb2.SubmitOrdersResponse = await stub.SubmitOrders(
                req, metadata=self._md(s), timeout=CALL_TIMEOUT
            )
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return out

    # --- reports ---------------------------------------------------------

    async def list_reports(self, s: Session) -> list[int]:
        stub = reports_pb2_grpc.ReportsStub(self._reports())
        try:
            resp = await stub.ListReports(
                reports_pb2.ListReportsRequest(campaign_id=s.campaign, player_id=s.player),
                metadata=self._md(s),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "reports") from None
        return sorted({r.turn for r in resp.reports if r.player_id == s.player}, reverse=True)

    async def report(self, s: Session, turn: int, fmt: str) -> str:
        stub = reports_pb2_grpc.ReportsStub(self._reports())
        try:
            rep = await stub.GetReport(
                reports_pb2.GetReportRequest(campaign_id=s.campaign, turn=turn, format=fmt),
                metadata=self._md(s),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "reports") from None
        return str(rep.body)

    # --- game master -----------------------------------------------------

    async def close_turn(self, campaign: str, turn: int) -> admin_pb2.Campaign:
        stub = admin_pb2_grpc.CampaignAdminStub(self._orders())
        try:
            out: admin_pb2.Campaign = await stub.CloseTurn(
                admin_pb2.CloseTurnRequest(campaign_id=campaign, turn=turn),
                metadata=self._admin_md(),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return out

    async def set_deadline(self, campaign: str, turn: int, deadline: datetime | None) -> admin_pb2.Campaign:
        req = admin_pb2.SetDeadlineRequest(campaign_id=campaign, turn=turn)
        if deadline is not None:
            req.deadline.FromDatetime(deadline)
        out: admin_pb2.Campaign = await self.admin_call("SetDeadline", req)
        return out

    async def set_password(self, campaign: str, player: str, password: str) -> None:
        req = admin_pb2.SetPlayerPasswordRequest(campaign_id=campaign, player_id=player, password=password)
        await self.admin_call("SetPlayerPassword", req)

    async def create_campaign(
        self,
        campaign: str,
        scenario: str,
        first_deadline: datetime | None,
        turn_seconds: int,
        *,
        combat_rules: str = "",
        naval_rules: str = "",
        admin_token: str,
    ) -> admin_pb2.Campaign:
        """``combat_rules`` and ``naval_rules`` "" play the scenario's own rule sets;
        ``admin_token``: the one the creation form carries (the server administrator's work)."""
        req = admin_pb2.CreateCampaignRequest(id=campaign, scenario=scenario, turn_seconds=turn_seconds)
        req.combat_rules, req.naval_rules = combat_rules, naval_rules
        if first_deadline is not None:
            req.first_deadline.FromDatetime(first_deadline)
        stub = admin_pb2_grpc.CampaignAdminStub(self._orders())
        md = (("x-pate-admin-token", admin_token),)  # the token typed into the creation form
        try:
            out: admin_pb2.Campaign = await stub.CreateCampaign(req, metadata=md, timeout=60)
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return out

    async def make_solo(self, campaign: str, humans: list[str], admin_token: str) -> None:
        """Every seat but the humans' played by the bot admiral (docs/bots.md)."""
        req = bots_pb2.MakeSoloRequest(campaign_id=campaign, humans=humans)
        md = (("x-pate-admin-token", admin_token),)
        try:
            await bots_pb2_grpc.BotAdmiralsStub(self._orders()).MakeSolo(req, metadata=md)
        except grpc.RpcError as err:
            raise translate(err, "orders") from None

    async def admin_call(self, method: str, req: Any, timeout: float = CALL_TIMEOUT) -> Any:
        stub = admin_pb2_grpc.CampaignAdminStub(self._orders())
        try:
            return await getattr(stub, method)(req, metadata=self._admin_md(), timeout=timeout)
        except grpc.RpcError as err:
            raise translate(err, "orders") from None

    async def all_reports(self, campaign: str) -> list[tuple[int, str]]:
        """Every player's reports of the campaign (the game master reads them all)."""
        stub = reports_pb2_grpc.ReportsStub(self._reports())
        try:
            resp = await stub.ListReports(
                reports_pb2.ListReportsRequest(campaign_id=campaign),
                metadata=self._admin_md(),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "reports") from None
        return sorted({(r.turn, r.player_id) for r in resp.reports}, key=lambda t: (-t[0], t[1]))

    async def report_of(self, campaign: str, turn: int, player: str, fmt: str) -> str:
        stub = reports_pb2_grpc.ReportsStub(self._reports())
        try:
            rep = await stub.GetReport(
                reports_pb2.GetReportRequest(campaign_id=campaign, turn=turn, player_id=player, format=fmt),
                metadata=self._admin_md(),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "reports") from None
        return str(rep.body)

    async def truth(self, campaign: str, turn: int, s: Session | None = None) -> str:
        """Reports.GetTruth: every ship's place at the end of ``turn``, asked as the player of
        ``s`` (the service refuses him until the campaign has finished) or, without one, as
        the administrator (the game master's desk, which checked his role)."""
        stub = reports_pb2_grpc.ReportsStub(self._reports())
        md = self._md(s) if s is not None else self._admin_md()
        try:
            out = await stub.GetTruth(
                reports_pb2.GetTruthRequest(campaign_id=campaign, turn=turn),
                metadata=md,
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "reports") from None
        return str(out.body)

    # --- notifications -------------------------------------------------------

    async def notifications(self, s: Session) -> desk_pb2.Notifications:
        stub = desk_pb2_grpc.PlayerDeskStub(self._orders())
        try:
            out: desk_pb2.Notifications = await stub.GetNotifications(
                desk_pb2.GetNotificationsRequest(campaign_id=s.campaign),
                metadata=self._md(s),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return out

    async def set_notifications(
        self, s: Session, email: str, webhook: str, kinds: Sequence[str]
    ) -> desk_pb2.Notifications:
        stub = desk_pb2_grpc.PlayerDeskStub(self._orders())
        req = desk_pb2.SetNotificationsRequest(
            campaign_id=s.campaign,
            notifications=desk_pb2.Notifications(email=email, webhook=webhook, kinds=kinds),
        )
        try:
            out: desk_pb2.Notifications = await stub.SetNotifications(
                req, metadata=self._md(s), timeout=CALL_TIMEOUT
            )
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return out

    async def assign_officers(
        self, s: Session, turn: int, items: Sequence[desk_pb2.OfficerAssignment]
    ) -> int:
        stub = desk_pb2_grpc.PlayerDeskStub(self._orders())
        req = desk_pb2.AssignOfficersRequest(campaign_id=s.campaign, turn=turn, assignments=list(items))
        try:
            out = await stub.AssignOfficers(req, metadata=self._md(s), timeout=CALL_TIMEOUT)
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return int(out.accepted)

    async def pause(self, campaign: str, resume: bool = False) -> desk_pb2.PauseState:
        stub = desk_pb2_grpc.GameMasterStub(self._orders())
        call = stub.ResumeCampaign if resume else stub.PauseCampaign
        try:
            out: desk_pb2.PauseState = await call(
                desk_pb2.PauseRequest(campaign_id=campaign), metadata=self._admin_md(), timeout=CALL_TIMEOUT
            )
        except grpc.RpcError as err:
            raise translate(err, "orders") from None
        return out
