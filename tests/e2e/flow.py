"""Driving a running cluster over gRPC, as a player and an administrator would."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import grpc

from pate.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    common_pb2,
    orders_pb2,
    orders_pb2_grpc,
    reports_pb2,
    reports_pb2_grpc,
)
from services.common.cluster import Cluster


@dataclass
class Client:
    cluster: Cluster

    def __post_init__(self) -> None:
        self.orders_ch = grpc.insecure_channel(self.cluster.orders_addr)
        self.reports_ch = grpc.insecure_channel(self.cluster.reports_addr)
        self.admin = admin_pb2_grpc.CampaignAdminStub(self.orders_ch)
        self.desk = orders_pb2_grpc.OrderDeskStub(self.orders_ch)
        self.reports = reports_pb2_grpc.ReportsStub(self.reports_ch)
        self.admin_md = (("x-pate-admin-token", self.cluster.admin_token),)

    def close(self) -> None:
        self.orders_ch.close()
        self.reports_ch.close()

    def create(self, campaign: str, scenario: str = "training") -> admin_pb2.Campaign:
        req = admin_pb2.CreateCampaignRequest(id=campaign, scenario=scenario)
        return self.admin.CreateCampaign(req, metadata=self.admin_md, timeout=60)  # type: ignore[no-any-return]

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
        password: str,
        orders: list[common_pb2.ShipOrder],
        request_id: str | None = None,
    ) -> orders_pb2.SubmitOrdersResponse:
        req = orders_pb2.SubmitOrdersRequest(
            campaign_id=campaign, turn=turn, orders=orders, client_request_id=request_id or uuid.uuid4().hex
        )
        md = (("x-pate-player", player), ("x-pate-password", password))
        return self.desk.SubmitOrders(req, metadata=md, timeout=30)  # type: ignore[no-any-return]

    def close_turn(self, campaign: str, turn: int) -> admin_pb2.Campaign:
        req = admin_pb2.CloseTurnRequest(campaign_id=campaign, turn=turn)
        return self.admin.CloseTurn(req, metadata=self.admin_md, timeout=30)  # type: ignore[no-any-return]

    def report(
        self, campaign: str, turn: int, player: str, password: str, fmt: str = "json", of: str = ""
    ) -> reports_pb2.Report:
        req = reports_pb2.GetReportRequest(campaign_id=campaign, turn=turn, player_id=of, format=fmt)
        md = (("x-pate-player", player), ("x-pate-password", password))
        return self.reports.GetReport(req, metadata=md, timeout=30)  # type: ignore[no-any-return]
