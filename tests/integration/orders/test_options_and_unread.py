"""The game master's "show who is ready" option and the unread messages count, through the
orders service's own functions on a migrated database (docs/web.md, "Ready for the turn" and
"Messages")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine

from pate.datafiles import load_scenario
from pate.v1 import desk_pb2
from services.orders import confirm, desk, letters, mydesk, options
from services.platform.store import bots
from services.platform.store import repository as repo
from tests.support.passwords import open_training_campaign

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
C = "opts"


@pytest.fixture
def campaign(engine: Engine) -> Engine:
    with engine.begin() as conn:
        open_training_campaign(conn, C, 5, deadline=AT + timedelta(hours=10), turn_seconds=86400)
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


def _send(engine: Engine, sender: str, kind: str, to: str, body: str) -> None:
    with engine.begin() as conn:
        state = repo.get_player(conn, C, sender).state
        letters.send(conn, C, sender, state, desk_pb2.SendMessageRequest(to_kind=kind, to=to, body=body), AT)


def _open(engine: Engine, player: str, read: bool = True) -> None:
    with engine.begin() as conn:
        state = repo.get_player(conn, C, player).state
        letters.listing(conn, C, player, state, read)


def test_messages_count_as_unread_until_their_reader_opens_them(campaign: Engine) -> None:
    _send(campaign, "cornwallis", "player", "calder", "Rendezvous off Ushant")
    _send(campaign, "cornwallis", "state", "BR", "Wind in the west")
    assert _mine(campaign, "calder").unread_messages == 2
    assert _mine(campaign, "cornwallis").unread_messages == 0  # his own are not news to him
    assert _mine(campaign, "ganteaume").unread_messages == 0  # an enemy: nothing to him, nothing told
    _open(campaign, "calder", read=False)  # a look that is not opening the page
    assert _mine(campaign, "calder").unread_messages == 2
    _open(campaign, "calder")
    assert _mine(campaign, "calder").unread_messages == 0
    assert _mine(campaign, "barham").unread_messages == 1  # the state's letter, he has not opened his
    _send(campaign, "barham", "allies", "", "Stores at Plymouth")
    assert _mine(campaign, "calder").unread_messages == 1  # arrived after he opened them
    assert _mine(campaign, "cornwallis").unread_messages == 1
