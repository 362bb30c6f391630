"""The account page's API tokens and details, deadlines in the account's time zone, and the
public archive, on the real stack with the notifier (docs/api.md, docs/accounts.md,
docs/web.md "The archive" and "Time zones")."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from pate.v1 import admin_pb2, admin_pb2_grpc, desk_pb2, desk_pb2_grpc
from services.web.backend import Backend
from services.web.routes import create_app
from tests.support.mailsink import link_token
from tests.web.conftest import Stack
from tests.web.test_web_accounts import _mail_to, _post
from tests.web.test_web_http import csrf, settings, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e
WITH_NOTIFIER = True
EMAIL = "hood@example.org"


def _member(client: TestClient, stack: Stack, zone: str) -> str:
    _post(
        client,
        "/account/signup",
        display_name="Hood",
        email=EMAIL,
        password="a keen password",
        time_zone=zone,
    )
    link = link_token(_mail_to(stack, EMAIL, 1))
    client.post("/account/verify", data={"csrf": csrf(client.get("/account").text), "token": link})
    return _post(client, "/account/login", email=EMAIL, password="a keen password")


def test_tokens_are_shown_once_listed_by_prefix_and_deadlines_follow_the_zone(
    web: tuple[TestClient, Any],  # noqa: F811 (the fixture)
    stack: Stack,
) -> None:
    client, _ = web
    home = _member(client, stack, "Asia/Tokyo")
    assert 'id="account-new-token"' in home and "Asia/Tokyo" in home
    home = _post(
        client,
        "/account/claim",
        campaign=stack.campaign,
        player="cornwallis",
        password=stack.passwords["cornwallis"],
    )
    box = re.search(r'name="(seat_\d+)" value="([^"]+)"', home)
    assert box and box.group(2) == f"{stack.campaign}/cornwallis"
    made = _post(
        client,
        "/account/tokens",
        name="my bot",
        access="orders",
        scope="some",
        days="30",
        **{box.group(1): box.group(2)},
    )
    secret = re.search(r'id="api-token-secret">(pate_at_[0-9a-f]{12}_[A-Za-z0-9_-]+)<', made)
    assert secret and "reports and orders" in made
    listed = client.get("/account").text
    assert secret.group(1)[:20] in listed and secret.group(1) not in listed  # the prefix, never the secret
    # the campaign page shows its deadline in the account's zone, labelled, beside UTC
    when = admin_pb2.SetDeadlineRequest(campaign_id=stack.campaign, turn=1)
    when.deadline.FromDatetime(datetime(2031, 5, 1, 12, tzinfo=UTC))
    admin = (("x-pate-admin-token", stack.cluster.admin_token),)
    admin_pb2_grpc.CampaignAdminStub(stack.client.orders_ch).SetDeadline(when, metadata=admin, timeout=30)
    seat = _post(client, "/account/play", campaign=stack.campaign, player="cornwallis")
    assert 'id="deadline-zoned">2031-05-01 21:00 Asia/Tokyo<' in seat
    assert " UTC</time>" in seat
    _post(client, "/account/update", time_zone="UTC")
    assert "deadline-zoned" not in client.get(f"/c/{stack.campaign}").text  # UTC alone, labelled
    token_id = secret.group(1)[8:20]
    said = _post(client, "/account/tokens/revoke", token_id=token_id)
    assert "1 API token(s) revoked" in said and token_id not in client.get("/account").text


def test_the_archive_opens_a_finished_campaign_to_anyone_and_never_a_running_one(stack: Stack) -> None:
    cid = f"arch-{uuid.uuid4().hex[:6]}"
    stack.client.create(cid, passwords={p: f"{p}-pw" for p in stack.passwords})
    stack.client.wait_open(cid, 1)
    gm = desk_pb2_grpc.GameMasterStub(stack.client.orders_ch)
    req = desk_pb2.SetCampaignOptionsRequest(
        campaign_id=cid, options=desk_pb2.CampaignOptions(archive_public=True)
    )
    gm.SetCampaignOptions(req, metadata=(("x-pate-admin-token", stack.cluster.admin_token),), timeout=30)
    s = settings(stack)
    with TestClient(
        create_app(Backend(s.orders_addr, s.reports_addr), s), base_url="http://desk.test"
    ) as anyone:
        assert cid not in anyone.get("/archive").text  # running: not in it, whatever its option
        for page in (f"/c/{cid}/replay/all", f"/c/{cid}/result"):
            assert anyone.get(page).status_code == 404
        engine = sa.create_engine(stack.cluster.database_url)
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE campaigns SET status = 'FINISHED' WHERE id = :c"), {"c": cid})
        engine.dispose()
        listing = anyone.get("/archive").text
        assert f'data-campaign="{cid}"' in listing and f'href="/c/{cid}/replay/all"' in listing
        replay = anyone.get(f"/c/{cid}/replay/all")
        assert replay.status_code == 200 and "all sides" in replay.text and 'href="/archive"' in replay.text
        assert anyone.get(f"/c/{cid}/result").status_code == 200
        assert anyone.get(f"/c/{stack.campaign}/replay/all").status_code == 404  # not archived
