"""The game master's "show who is ready" option and the unread messages count, through the
orders service's own functions on a migrated database (docs/web.md, "Ready for the turn" and
"Messages")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine

from pate.datafiles import load_scenario
from pate.v1 import desk_pb2
from services.orders import campaigns, confirm, desk, mydesk, options
from services.platform.store import bots
from services.platform.store import repository as repo
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
C = "opts"


@pytest.fixture
def campaign(engine: Engine) -> Engine:
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            C,
            load_scenario("training"),
            "training",
            seed=5,
            turns=3,
            first_deadline=AT + timedelta(hours=10),
            turn_seconds=86400,
            combat_rules="",
            password_hashes=EveryPlayer(),
        )
        repo.set_status(
            conn, C, turn=1, expect=("STARTING",), status="OPEN", deadline=AT + timedelta(hours=10)
        )
    return engine


def _mine(engine: Engine, player: str) -> desk_pb2.MyCampaign:
    with engine.begin() as conn:
        row = repo.get_campaign(conn, C)
        assert row is not None
        return mydesk.my_campaign(conn, row, desk.actor_of(repo.get_player(conn, C, player)))


def test_who_is_ready_is_hidden_from_players_until_the_game_master_shows_it(campaign: Engine) -> None:
    with campaign.begin() as conn:
        confirm.confirm(conn, C, 1, "allemand", True, AT)
        bots.put_player(conn, C, bots.BotPlayer("decres", 0, "civil_disorder", 1))
    off = _mine(campaign, "cornwallis")
    assert not off.options.show_ready and list(off.ready) == [] and list(off.confirmations) == []
    with campaign.begin() as conn:
        assert options.set_options(conn, C, desk_pb2.CampaignOptions(show_ready=True)).show_ready
    on = _mine(campaign, "cornwallis")
    assert on.options.show_ready
    seats = sorted(p.id for p in load_scenario("training").world.players.values() if p.state)
    assert [c.player_id for c in on.ready] == seats  # every seat, whether it has ships to order or not
    assert [c.player_id for c in on.ready if c.confirmed] == ["allemand"]
    assert not any(c.bot for c in on.ready)  # nothing of whom the bot plays
    assert list(on.confirmations) == []  # the game master's own list stays his
    with campaign.begin() as conn:
        options.set_options(conn, C, desk_pb2.CampaignOptions(show_ready=False))
    assert list(_mine(campaign, "ganteaume").ready) == []
