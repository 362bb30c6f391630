"""The result page of a campaign (docs/web.md, "The result of a campaign"; docs/rules/result.md)
over HTTP against the real stack, in a campaign of one turn played to its end: before the end
only the game master sees the account so far, and the refusals say nothing of the running
campaign; once it is finished every player sees it, linked from his campaign page; a spectator
only when the game master allows it."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import grpc
import pytest
from starlette.testclient import TestClient

from pate.v1 import admin_pb2, result_pb2, result_pb2_grpc
from services.web.backend import Backend
from services.web.routes import create_app
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf, login, settings, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e

BRITISH = "cornwallis"
MASTER = "admin"


@pytest.fixture(scope="module")
def one_turn(stack: Stack) -> Stack:
    """A campaign of one turn in the running stack, so that it ends within the test."""
    cid = f"result-{uuid.uuid4().hex[:8]}"
    req = admin_pb2.CreateCampaignRequest(id=cid, scenario="training", passwords=stack.passwords, turns=1)
    stack.client.admin.CreateCampaign(req, metadata=stack.client.admin_md, timeout=60)
    stack.client.wait_open(cid, 1)
    return Stack(stack.cluster, stack.client, cid, stack.passwords)


@pytest.fixture
def spectator(stack: Stack) -> Iterator[TestClient]:
    """A browser with no session in any campaign."""
    backend = Backend(stack.cluster.orders_addr, stack.cluster.reports_addr)
    with TestClient(create_app(backend, settings(stack)), base_url="http://desk.test") as client:
        yield client


def _refusal(stack: Stack, campaign: str) -> tuple[grpc.StatusCode, str]:
    stub = result_pb2_grpc.CampaignResultsStub(stack.client.orders_ch)
    with pytest.raises(grpc.RpcError) as err:
        stub.GetCampaignResult(result_pb2.GetCampaignResultRequest(campaign_id=campaign), timeout=30)
    return err.value.code(), err.value.details()


def _finish(s: Stack) -> None:
    s.client.close_turn(s.campaign, 1)
    end = time.monotonic() + 120
    while s.client.campaign(s.campaign).status != admin_pb2.TURN_STATUS_FINISHED:
        assert time.monotonic() < end, "the campaign did not finish"
        time.sleep(0.3)


def test_the_result_is_the_game_master_s_alone_while_the_campaign_runs_then_every_player_s(
    web: tuple[TestClient, Backend],  # noqa: F811
    one_turn: Stack,
    spectator: TestClient,
) -> None:
    client, _ = web
    cid = one_turn.campaign
    # running: a player and a spectator get the one "Not found"; the game master the account so far
    login(client, cid, BRITISH, one_turn.passwords[BRITISH])
    assert client.get(f"/c/{cid}/result").status_code == 404
    assert spectator.get(f"/c/{cid}/result").status_code == 404
    assert _refusal(one_turn, cid) == _refusal(one_turn, f"nobody-{uuid.uuid4().hex[:6]}")
    assert _refusal(one_turn, cid)[0] == grpc.StatusCode.NOT_FOUND
    login(client, cid, MASTER, one_turn.passwords[MASTER])
    so_far = client.get(f"/c/{cid}/result")
    assert so_far.status_code == 200 and 'id="result-so-far"' in so_far.text
    _finish(one_turn)
    # finished: every player of it sees the table per side and the result sentence
    login(client, cid, BRITISH, one_turn.passwords[BRITISH])
    assert 'id="campaign-result"' in client.get(f"/c/{cid}").text
    page = client.get(f"/c/{cid}/result")
    assert page.status_code == 200 and 'id="result-so-far"' not in page.text
    assert 'data-side="BR"' in page.text and 'data-side="FR"' in page.text
    assert 'data-row="ships-start"' in page.text and 'data-row="score"' in page.text
    assert "by the account" in page.text
    assert "FL 135, SL 100, FR 25, TR 25" in page.text  # how it scores, from data/rules/result.toml
    assert 'id="result-unrecorded"' not in page.text  # every ship's fate came from an event
    # a spectator: not before the game master allows it
    assert spectator.get(f"/c/{cid}/result").status_code == 404
    login(client, cid, MASTER, one_turn.passwords[MASTER])
    token = csrf(client.get(f"/c/{cid}/gm").text)
    data = {"csrf": token, "spectators_see_result": "on"}
    assert client.post(f"/c/{cid}/gm/options", data=data, follow_redirects=False).status_code == 303
    seen = spectator.get(f"/c/{cid}/result")
    assert seen.status_code == 200 and "by the account" in seen.text
    assert 'data-row="ports-taken"' in seen.text
