"""Which campaigns are played with GITM: fixed when a campaign is created, from whether
PATE_GITM_ADDR is set; the resolver asks GITM and runs the bridge only for those
(docs/gitm.md, "Campaigns with and without GITM")."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.orders import campaigns
from services.platform.bus.natsserver import free_port
from services.platform.store import repository as repo
from services.resolver import bridge, gitm_end
from services.resolver import main as resolver_main
from services.resolver.stage import handle_turn_closed
from tests.support.aio import unique
from tests.support.campaigns import close_first_turn
from tests.support.passwords import EveryPlayer


def test_the_resolver_runs_the_bridge_only_where_gitm_is_configured() -> None:
    assert [s.durable for s in resolver_main.service(None).stages] == ["resolver"]
    stages = [s.durable for s in resolver_main.service("gitm:7000").stages]
    assert stages == ["resolver", bridge.DURABLE, gitm_end.END_DURABLE]


@pytest.mark.parametrize("gitm_at_creation", [False, True])
def test_the_resolver_asks_gitm_only_for_a_campaign_created_with_it(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch, gitm_at_creation: bool
) -> None:
    """Nothing listens at the address: a campaign created with GITM resolves without its answer
    (stored as unanswered), one created without it never asks."""
    campaign = unique()
    monkeypatch.setenv("PATE_GITM_ADDR", f"127.0.0.1:{free_port()}" if gitm_at_creation else "")
    with engine.begin() as conn:
        close_first_turn(conn, campaign)
    monkeypatch.setenv("PATE_GITM_ADDR", f"127.0.0.1:{free_port()}")
    closed = events_pb2.TurnClosed(campaign_id=campaign, turn=1).SerializeToString()
    with engine.begin() as conn:
        handle_turn_closed(conn, closed, {})
        stored = repo.load_resolution(conn, campaign, 1)
    assert stored is not None
    assert ("land_word" in json.loads(stored[0])) is gitm_at_creation


@pytest.mark.parametrize(("gitm_addr", "expected"), [("127.0.0.1:7000", True), ("", False)])
def test_a_new_campaign_is_played_with_gitm_when_gitm_is_configured(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch, gitm_addr: str, expected: bool
) -> None:
    monkeypatch.setenv("PATE_GITM_ADDR", gitm_addr)
    campaign = unique()
    with engine.begin() as conn:
        row = campaigns.create_campaign(
            conn,
            campaign,
            load_scenario("training"),
            "training",
            seed=1,
            turns=3,
            first_deadline=None,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        stored = repo.get_campaign(conn, campaign)
    assert row.gitm is expected
    assert stored is not None and stored.gitm is expected
