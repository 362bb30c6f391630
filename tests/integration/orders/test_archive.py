"""The public archive over gRPC, in process on a migrated database (docs/web.md, "The archive"):
only finished campaigns whose game master chose archive_public are listed and readable by
anyone; a running campaign never is, whatever its options, and every refusal has the same
words; pages are bounded and hostile fields refused naming them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine

from pate.v1 import desk_pb2, result_pb2, result_pb2_grpc
from services.orders import options
from services.orders.result import HIDDEN
from services.platform.store import repository as repo
from tests.support.passwords import open_training_campaign
from tests.support.results import refusal, results_stub

pytestmark = pytest.mark.integration
AT = datetime(2026, 1, 1, 12, tzinfo=UTC)


@pytest.fixture
def stub(engine: Engine) -> Iterator[result_pb2_grpc.CampaignResultsStub]:
    with results_stub(engine) as out:
        yield out


def campaign(engine: Engine, cid: str, *, public: bool, finished: bool) -> None:
    with engine.begin() as conn:
        open_training_campaign(conn, cid, deadline=AT + timedelta(hours=10), turn_seconds=86400)
        options.set_options(conn, cid, desk_pb2.CampaignOptions(archive_public=public))
        if finished:
            assert repo.set_status(conn, cid, turn=1, expect=("OPEN",), status="FINISHED", deadline=None)


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
