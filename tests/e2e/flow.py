"""Driving a running cluster over gRPC, as a player and an administrator would."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from pate.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    common_pb2,
    orders_pb2,
    orders_pb2_grpc,
    reports_pb2,
    reports_pb2_grpc,
    sessions_pb2,
    sessions_pb2_grpc,
)
from services.platform.runtime.cluster import Cluster


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Client:
    """A client of a running cluster.  ``create`` keeps the passwords the
    server generated; player calls log in once and then carry the session
    token, as a real client does."""

    cluster: Cluster
    passwords: dict[tuple[str, str], str] = field(default_factory=dict)
    tokens: dict[tuple[str, str], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.orders_ch = self.cluster.channel(self.cluster.orders_addr)
        self.reports_ch = self.cluster.channel(self.cluster.reports_addr)
        self.admin = admin_pb2_grpc.CampaignAdminStub(self.orders_ch)
        self.desk = orders_pb2_grpc.OrderDeskStub(self.orders_ch)
        self.reports = reports_pb2_grpc.ReportsStub(self.reports_ch)
        self.sessions = sessions_pb2_grpc.SessionsStub(self.orders_ch)
        self.admin_md = (("x-pate-admin-token", self.cluster.admin_token),)

    def close(self) -> None:
        self.orders_ch.close()
        self.reports_ch.close()

    def create(
        self, campaign: str, scenario: str = "training", passwords: dict[str, str] | None = None
    ) -> admin_pb2.Campaign:
        req = admin_pb2.CreateCampaignRequest(id=campaign, scenario=scenario, passwords=passwords or {})
        created: admin_pb2.Campaign = self.admin.CreateCampaign(req, metadata=self.admin_md, timeout=60)
        for pid, password in (passwords or {}).items():
            self.passwords[campaign, pid] = password
        for login in created.logins:
            self.passwords[campaign, login.player_id] = login.password
        return created

    def login_reply(
        self, campaign: str, player: str, password: str | None = None
    ) -> sessions_pb2.LoginResponse:
        req = sessions_pb2.LoginRequest(
            campaign_id=campaign,
            player_id=player,
            password=self.passwords[campaign, player] if password is None else password,
        )
        return self.sessions.Login(req, timeout=30)  # type: ignore[no-any-return]

    def token(self, campaign: str, player: str) -> str:
        """The player's session token (logged in on first use)."""
        if (campaign, player) not in self.tokens:
            self.tokens[campaign, player] = self.login_reply(campaign, player).token
        return self.tokens[campaign, player]

    def player_md(self, campaign: str, player: str) -> tuple[tuple[str, str], ...]:
        return bearer(self.token(campaign, player))

    def campaign(self, campaign: str) -> admin_pb2.Campaign:
        req = admin_pb2.GetCampaignRequest(campaign_id=campaign)
        return self.admin.GetCampaign(req, metadata=self.admin_md, timeout=10)  # type: ignore[no-any-return]

    def wait_open(self, campaign: str, turn: int, timeout: float = 90) -> admin_pb2.Campaign:
        deadline = time.monotonic() + timeout
        while True:
            c = self.campaign(campaign)
            if c.turn == turn and c.status == admin_pb2.TURN_STATUS_OPEN:
                return c
            if time.monotonic() > deadline:
                raise TimeoutError(f"{campaign}: turn {turn} not open (turn {c.turn}, status {c.status})")
            time.sleep(0.2)

    def submit(
        self,
        campaign: str,
        turn: int,
        player: str,
        orders: list[common_pb2.ShipOrder],
        request_id: str | None = None,
    ) -> orders_pb2.SubmitOrdersResponse:
        req = orders_pb2.SubmitOrdersRequest(
            campaign_id=campaign, turn=turn, orders=orders, client_request_id=request_id or uuid.uuid4().hex
        )
        return self.desk.SubmitOrders(req, metadata=self.player_md(campaign, player), timeout=30)  # type: ignore[no-any-return]

    def close_turn(self, campaign: str, turn: int) -> admin_pb2.Campaign:
        req = admin_pb2.CloseTurnRequest(campaign_id=campaign, turn=turn)
        return self.admin.CloseTurn(req, metadata=self.admin_md, timeout=30)  # type: ignore[no-any-return]

    def report(
        self, campaign: str, turn: int, player: str, fmt: str = "json", of: str = ""
    ) -> reports_pb2.Report:
        req = reports_pb2.GetReportRequest(campaign_id=campaign, turn=turn, player_id=of, format=fmt)
        return self.reports.GetReport(req, metadata=self.player_md(campaign, player), timeout=30)  # type: ignore[no-any-return]


@contextmanager
def serving(cluster: Cluster) -> Iterator[Client]:
    """The cluster started and a client of it, both closed however the test ends."""
    try:
        cluster.start_all()
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.stop()
