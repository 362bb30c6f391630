"""The public archive over gRPC, in process on a migrated database (docs/web.md, "The archive"):
only finished campaigns whose game master chose archive_public are listed and readable by
anyone; a running campaign never is, whatever its options, and every refusal has the same
words; pages are bounded and hostile fields refused naming them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine

from pate.v1 import desk_pb2, result_pb2, result_pb2_grpc
from services.orders import options
from services.orders.result import HIDDEN, CampaignResultsServicer
from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.security.auth import Authenticator
from services.platform.store import repository as repo
from tests.support.passwords import open_training_campaign

pytestmark = pytest.mark.integration
AT = datetime(2026, 1, 1, 12, tzinfo=UTC)


@pytest.fixture
def stub(engine: Engine) -> Iterator[result_pb2_grpc.CampaignResultsStub]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    servicer = CampaignResultsServicer(engine, Authenticator(engine), "admin-secret")
    start = serve_grpc(
        [(servicer, result_pb2_grpc.add_CampaignResultsServicer_to_server)], "127.0.0.1:0", "orders"
    )
    server = asyncio.run_coroutine_threadsafe(start, loop).result(30)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{bound_port(server)}") as channel:
            yield result_pb2_grpc.CampaignResultsStub(channel)
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def campaign(engine: Engine, cid: str, *, public: bool, finished: bool) -> None:
    with engine.begin() as conn:
        open_training_campaign(conn, cid, deadline=AT + timedelta(hours=10), turn_seconds=86400)
        options.set_options(conn, cid, desk_pb2.CampaignOptions(archive_public=public))
        if finished:
            assert repo.set_status(conn, cid, turn=1, expect=("OPEN",), status="FINISHED", deadline=None)


def refusal(call: Any, req: Any) -> tuple[str, str]:
    with pytest.raises(grpc.RpcError) as err:
        call(req, timeout=30)
    return err.value.code().name, err.value.details() or ""


def test_a_running_campaign_is_never_in_the_archive_and_a_finished_one_is(engine: Engine, stub: Any) -> None:
    campaign(engine, "running", public=True, finished=False)
    campaign(engine, "private", public=False, finished=True)
    empty = stub.ListArchive(result_pb2.ListArchiveRequest(), timeout=30)
    assert list(empty.campaigns) == [] and empty.next_page_token == ""
    for cid in ("running", "private", "no-such"):  # one answer, whatever the reason
        assert refusal(stub.GetArchived, result_pb2.GetArchivedRequest(campaign_id=cid)) == (
            "NOT_FOUND",
            HIDDEN,
        )
        got = refusal(stub.GetCampaignResult, result_pb2.GetCampaignResultRequest(campaign_id=cid))
        assert got == ("NOT_FOUND", HIDDEN)
    with engine.begin() as conn:  # the running one ends: now it is there, with no credentials
        assert repo.set_status(conn, "running", turn=1, expect=("OPEN",), status="FINISHED", deadline=None)
    listed = stub.ListArchive(result_pb2.ListArchiveRequest(), timeout=30)
    assert [(c.campaign_id, c.scenario) for c in listed.campaigns] == [("running", "training")]
    assert stub.GetArchived(result_pb2.GetArchivedRequest(campaign_id="running"), timeout=30).turns == 1
    res = stub.GetCampaignResult(result_pb2.GetCampaignResultRequest(campaign_id="running"), timeout=30)
    assert res.final and res.campaign_id == "running"


def test_the_archive_is_paged_and_bounded(engine: Engine, stub: Any) -> None:
    for cid in ("arc-a", "arc-b", "arc-c"):
        campaign(engine, cid, public=True, finished=True)
    first = stub.ListArchive(result_pb2.ListArchiveRequest(page_size=2), timeout=30)
    assert [c.campaign_id for c in first.campaigns] == ["arc-a", "arc-b"] and first.next_page_token == "arc-b"
    second = stub.ListArchive(result_pb2.ListArchiveRequest(page_size=2, page_token="arc-b"), timeout=30)
    assert [c.campaign_id for c in second.campaigns] == ["arc-c"] and second.next_page_token == ""


@pytest.mark.parametrize(
    ("method", "req", "field"),
    [
        ("ListArchive", result_pb2.ListArchiveRequest(page_size=51), "page_size"),
        ("ListArchive", result_pb2.ListArchiveRequest(page_size=-1), "page_size"),
        ("ListArchive", result_pb2.ListArchiveRequest(page_token="a" * 65), "page_token"),
        ("ListArchive", result_pb2.ListArchiveRequest(page_token="a\x00' OR 1=1"), "page_token"),
        ("GetArchived", result_pb2.GetArchivedRequest(campaign_id="c" * 65), "campaign_id"),
        ("GetArchived", result_pb2.GetArchivedRequest(campaign_id=""), "campaign_id"),
    ],
)
def test_hostile_archive_requests_are_refused_naming_the_field(
    stub: Any, method: str, req: Any, field: str
) -> None:
    code, details = refusal(getattr(stub, method), req)
    assert code == "INVALID_ARGUMENT" and details.startswith(field), details
