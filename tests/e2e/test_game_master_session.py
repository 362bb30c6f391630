"""A campaign's game master acts for his campaign with his own session, not the server's
administrator token (docs/security.md, "Least privilege"): his campaign's turn, deadline,
pause, bot seats, passwords and every player's reports are his; another campaign, another
player's session, and the server-wide calls (creating or listing campaigns) are not."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from pate.v1 import admin_pb2, bots_pb2, bots_pb2_grpc, desk_pb2, desk_pb2_grpc, reports_pb2
from services.platform.runtime.cluster import running_cluster
from tests.e2e.flow import Client, bearer

pytestmark = pytest.mark.e2e
PASSWORDS = {"admin": "master-of-the-game", "cornwallis": "channel-fleet-1805"}


def _code(call, request, md) -> grpc.StatusCode:  # type: ignore[no-untyped-def]
    try:
        call(request, metadata=md, timeout=30)
    except grpc.RpcError as err:
        return err.code()  # type: ignore[no-any-return]
    return grpc.StatusCode.OK


def test_the_game_master_runs_his_campaign_with_his_own_session(tmp_path: Path, nats_url: str) -> None:
    with running_cluster(tmp_path, nats_url, f"sqlite:///{tmp_path / 'pate.db'}") as cluster:
        client = Client(cluster)
        try:
            for cid in ("gm-own", "gm-other"):
                client.create(cid, passwords=PASSWORDS)
                client.wait_open(cid, 1, timeout=60)
            master = bearer(client.token("gm-own", "admin"))
            player = bearer(client.token("gm-own", "cornwallis"))
            gm = desk_pb2_grpc.GameMasterStub(client.orders_ch)
            bots = bots_pb2_grpc.BotAdmiralsStub(client.orders_ch)
            ok, denied = grpc.StatusCode.OK, grpc.StatusCode.PERMISSION_DENIED
            when = Timestamp()
            when.FromDatetime(datetime.now(UTC) + timedelta(days=3))
            deadline = admin_pb2.SetDeadlineRequest(campaign_id="gm-own", turn=1, deadline=when)
            pause = desk_pb2.PauseRequest(campaign_id="gm-own")
            hand = bots_pb2.BotSeatRequest(campaign_id="gm-own", player_id="cornwallis")
            listing = reports_pb2.ListReportsRequest(campaign_id="gm-own")
            # his own campaign: every game master's call
            assert (
                _code(client.admin.GetCampaign, admin_pb2.GetCampaignRequest(campaign_id="gm-own"), master)
                == ok
            )
            assert _code(client.admin.SetDeadline, deadline, master) == ok
            assert _code(gm.PauseCampaign, pause, master) == ok
            assert _code(gm.ResumeCampaign, pause, master) == ok
            assert _code(bots.HandToBot, hand, master) == ok
            assert _code(bots.TakeBack, hand, master) == ok
            reports = client.reports.ListReports(listing, metadata=master, timeout=30)
            assert {r.player_id for r in reports.reports} >= {"cornwallis", "ganteaume"}  # every side's
            # a player of the campaign: none of it
            assert _code(client.admin.SetDeadline, deadline, player) == denied
            assert _code(gm.PauseCampaign, pause, player) == denied
            assert _code(bots.HandToBot, hand, player) == denied
            # his session is for his campaign only; the server-wide calls stay the administrator's
            other = admin_pb2.CloseTurnRequest(campaign_id="gm-other", turn=1)
            assert _code(client.admin.CloseTurn, other, master) == denied
            create = admin_pb2.CreateCampaignRequest(id="gm-third", scenario="training")
            assert _code(client.admin.CreateCampaign, create, master) == denied
            assert _code(client.admin.ListCampaigns, admin_pb2.ListCampaignsRequest(), master) == denied
            assert client.campaign("gm-other").status == admin_pb2.TURN_STATUS_OPEN
        finally:
            client.close()
