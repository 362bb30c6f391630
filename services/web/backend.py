"""Every gRPC call the web desk makes, in one place.

The web has no database of its own: it is a client of the orders service
(OrderDesk, PlayerDesk, CampaignAdmin) and of the reports service (Reports).
Errors come back as a few exceptions the pages know how to show: refused
(with the refused fields), not found / forbidden, not logged in, and the
service being down.

Logging in: a player gives campaign, player id and password once and gets a
session token back (``login``); every later call carries only that token
(``_md``).  How the token is made and checked is this module's business
alone, so the pages never see a password after the login form.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

import grpc

from pate.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    common_pb2,
    desk_pb2,
    desk_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
    reports_pb2,
    reports_pb2_grpc,
)

REFUSALS_KEY = "pate-refusals-bin"  # trailing metadata of a refused SubmitOrders (desk.proto)
CALL_TIMEOUT = 15.0


class BackendError(Exception):
    """A call the pages show as a message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ServiceDownError(BackendError):
    """The orders or reports service does not answer."""

    def __init__(self, service: str) -> None:
        super().__init__(f"the {service} service is not answering; try again in a minute")
        self.service = service


class NotLoggedInError(BackendError):
    """No session, or it expired or was revoked."""


class ForbiddenError(BackendError):
    """Not yours to see (or it does not exist: the pages answer both alike)."""


class RefusedError(BackendError):
    """The order desk refused the request as a whole; nothing was stored."""

    def __init__(self, message: str, refusals: Sequence[common_pb2.Refusal] = ()) -> None:
        super().__init__(message)
        self.refusals = tuple(refusals)


@dataclass(frozen=True, slots=True)
class Session:
    token: str
    campaign: str
    player: str
    expires_at: float  # epoch seconds


@dataclass
class _Credentials:
    campaign: str
    player: str
    password: str
    expires_at: float


@dataclass
class SessionKeeper:
    """Session tokens of this web process.

    Until the orders service issues its own session tokens (the Login RPC of
    issue 10), the web process keeps the credentials a login proved, in
    memory, behind a random token that only the browser's cookie holds; the
    token expires after ``lifetime`` seconds and logging out forgets it.
    """

    lifetime: float
    _by_hash: dict[str, _Credentials] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @staticmethod
    def _key(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    def issue(self, campaign: str, player: str, password: str) -> Session:
        token = secrets.token_urlsafe(32)
        expires = time.time() + self.lifetime
        with self._lock:
            now = time.time()
            for k in [k for k, c in self._by_hash.items() if c.expires_at <= now]:
                del self._by_hash[k]  # bounded: expired entries go on every login
            self._by_hash[self._key(token)] = _Credentials(campaign, player, password, expires)
        return Session(token, campaign, player, expires)

    def find(self, token: str) -> _Credentials:
        with self._lock:
            found = self._by_hash.get(self._key(token))
            if found is None or found.expires_at <= time.time():
                self._by_hash.pop(self._key(token), None)
                raise NotLoggedInError("your session has expired; log in again")
            return found

    def revoke(self, token: str) -> None:
        with self._lock:
            self._by_hash.pop(self._key(token), None)

    def expire_now(self, token: str) -> None:
        """Tests: make a session expire as if its time had run out."""
        with self._lock:
            found = self._by_hash.get(self._key(token))
            if found is not None:
                found.expires_at = 0


def _translate(err: grpc.RpcError, service: str) -> BackendError:
    code = err.code() if hasattr(err, "code") else None
    details = (err.details() if hasattr(err, "details") else "") or ""
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        return ServiceDownError(service)
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return NotLoggedInError(details or "log in again")
    if code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.PERMISSION_DENIED):
        return ForbiddenError(details)
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return RefusedError(details or "too many attempts: wait a minute")
    if code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION):
        refusals: list[common_pb2.Refusal] = []
        for key, value in err.trailing_metadata() or ():
            if key == REFUSALS_KEY and isinstance(value, bytes):
                refusals.extend(desk_pb2.RefusalList.FromString(value).refusals)
        return RefusedError(details, refusals)
    return BackendError(f"the {service} service could not answer ({code.name if code else 'error'})")


class Backend:
    """The gRPC clients of the web desk (async, one channel per service)."""

    def __init__(self, orders_addr: str, reports_addr: str, admin_token: str, session_seconds: float) -> None:
        self.orders_addr = orders_addr
        self.reports_addr = reports_addr
        self.admin_token = admin_token
        self.sessions = SessionKeeper(session_seconds)
        self._orders_ch: grpc.aio.Channel | None = None
        self._reports_ch: grpc.aio.Channel | None = None

    def _orders(self) -> grpc.aio.Channel:
        if self._orders_ch is None:
            self._orders_ch = grpc.aio.insecure_channel(self.orders_addr)
        return self._orders_ch

    def _reports(self) -> grpc.aio.Channel:
        if self._reports_ch is None:
            self._reports_ch = grpc.aio.insecure_channel(self.reports_addr)
        return self._reports_ch

    async def close(self) -> None:
        for ch in (self._orders_ch, self._reports_ch):
            if ch is not None:
                await ch.close()
        self._orders_ch = self._reports_ch = None

    def _md(self, token: str) -> tuple[tuple[str, str], ...]:
        c = self.sessions.find(token)
        return (("x-pate-player", c.player), ("x-pate-password", c.password))

    def _admin_md(self) -> tuple[tuple[str, str], ...]:
        return (("x-pate-admin-token", self.admin_token),)

    # --- sessions -------------------------------------------------------

    async def login(self, campaign: str, player: str, password: str) -> Session:
        """Check the password once (it proves itself by a read of the desk)."""
        md = (("x-pate-player", player), ("x-pate-password", password))
        stub = desk_pb2_grpc.PlayerDeskStub(self._orders())
        try:
            await stub.GetMyCampaign(
                desk_pb2.GetMyCampaignRequest(campaign_id=campaign), metadata=md, timeout=CALL_TIMEOUT
            )
        except grpc.RpcError as err:
            raise _translate(err, "orders") from None
        return self.sessions.issue(campaign, player, password)

    async def logout(self, token: str) -> None:
        self.sessions.revoke(token)

    def session(self, token: str) -> Session:
        c = self.sessions.find(token)
        return Session(token, c.campaign, c.player, c.expires_at)

    # --- the player's desk ----------------------------------------------

    async def my_campaign(self, token: str) -> desk_pb2.MyCampaign:
        s = self.session(token)
        stub = desk_pb2_grpc.PlayerDeskStub(self._orders())
        try:
            out: desk_pb2.MyCampaign = await stub.GetMyCampaign(
                desk_pb2.GetMyCampaignRequest(campaign_id=s.campaign),
                metadata=self._md(token),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise _translate(err, "orders") from None
        return out

    async def submit(
        self,
        token: str,
        turn: int,
        orders: Sequence[common_pb2.ShipOrder] = (),
        text: str = "",
        stores_moves: Sequence[common_pb2.StoresMoveOrder] = (),
    ) -> orders_pb2.SubmitOrdersResponse:
        s = self.session(token)
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
                req, metadata=self._md(token), timeout=CALL_TIMEOUT
            )
        except grpc.RpcError as err:
            raise _translate(err, "orders") from None
        return out

    # --- reports ---------------------------------------------------------

    async def list_reports(self, token: str) -> list[int]:
        s = self.session(token)
        stub = reports_pb2_grpc.ReportsStub(self._reports())
        try:
            resp = await stub.ListReports(
                reports_pb2.ListReportsRequest(campaign_id=s.campaign, player_id=s.player),
                metadata=self._md(token),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise _translate(err, "reports") from None
        return sorted({r.turn for r in resp.reports if r.player_id == s.player}, reverse=True)

    async def report(self, token: str, turn: int, fmt: str) -> str:
        s = self.session(token)
        stub = reports_pb2_grpc.ReportsStub(self._reports())
        try:
            rep = await stub.GetReport(
                reports_pb2.GetReportRequest(campaign_id=s.campaign, turn=turn, format=fmt),
                metadata=self._md(token),
                timeout=CALL_TIMEOUT,
            )
        except grpc.RpcError as err:
            raise _translate(err, "reports") from None
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
            raise _translate(err, "orders") from None
        return out
