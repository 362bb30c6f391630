"""Confirmed orders, the early close of a turn, and messages between players,
through the orders service's own functions on a migrated database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine

from pate.core.orders.model import ShipOrder
from pate.datafiles import load_scenario
from pate.messaging import message_limits
from pate.v1 import bots_pb2, desk_pb2
from services.orders import admirals, campaigns, confirm, desk, earlyclose, letters, schedule
from services.orders.turn_players import players_with_ships
from services.platform.errors import DeskError
from services.platform.store import bots
from services.platform.store import repository as repo
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
DEADLINE = AT + timedelta(hours=10)
C = "conf"


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
            first_deadline=DEADLINE,
            turn_seconds=86400,
            combat_rules="",
            password_hashes=EveryPlayer(),
        )
        repo.set_status(conn, C, turn=1, expect=("STARTING",), status="OPEN", deadline=DEADLINE)
    return engine


def _confirm_all_but(engine: Engine, last: str) -> None:
    with engine.begin() as conn:
        world = repo.load_world(conn, C, 1)
        for p in players_with_ships(world):
            if p != last:
                confirm.confirm(conn, C, 1, p, True, AT)


def test_the_turn_closes_when_every_player_with_ships_has_confirmed(campaign: Engine) -> None:
    with campaign.begin() as conn:
        earlyclose.set_setting(conn, C, desk_pb2.EarlyClose(enabled=True))
    _confirm_all_but(campaign, "allemand")
    with campaign.begin() as conn:
        assert repo.get_campaign(conn, C).status == "OPEN"  # type: ignore[union-attr]
        assert confirm.confirm(conn, C, 1, "allemand", True, AT).turn_closed
        assert repo.get_campaign(conn, C).status == "CLOSED"  # type: ignore[union-attr]


def test_without_the_setting_confirming_closes_nothing(campaign: Engine) -> None:
    _confirm_all_but(campaign, "")
    with campaign.begin() as conn:
        assert repo.get_campaign(conn, C).status == "OPEN"  # type: ignore[union-attr]
        shown = {
            c.player_id: c.confirmed for c in confirm.confirmations(conn, C, 1, repo.load_world(conn, C, 1))
        }
        assert shown["allemand"] and shown["cornwallis"]


def test_a_later_submission_clears_the_confirmation(campaign: Engine) -> None:

    with campaign.begin() as conn:
        confirm.confirm(conn, C, 1, "allemand", True, AT)
        assert "allemand" in earlyclose.confirmed_players(conn, C, 1)
        caller = desk.actor_of(repo.get_player(conn, C, "allemand"))
        sid = next(s.id for s in repo.load_world(conn, C, 1).ships.values() if s.commander == "allemand")
        orders = [ShipOrder(sid)]
        checked = desk.check_submission(conn, C, 1, caller, orders, "r1", b"f", [])
        desk.record_submission(conn, C, 1, checked, orders, "r1", b"f")
        assert "allemand" not in earlyclose.confirmed_players(conn, C, 1)


def test_a_bot_played_player_does_not_hold_the_turn(
    campaign: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(confirm, "bot_played", lambda conn, campaign: frozenset({"allemand"}))
    with campaign.begin() as conn:
        earlyclose.set_setting(conn, C, desk_pb2.EarlyClose(enabled=True))
    _confirm_all_but(campaign, "allemand")
    with campaign.begin() as conn:
        assert repo.get_campaign(conn, C).status == "CLOSED"  # type: ignore[union-attr]


def _solo_seats(engine: Engine, human: str) -> list[str]:
    """Makes the campaign solo: the bot holds every seat with ships but ``human``'s."""
    with engine.begin() as conn:
        bots.set_solo(conn, C)
        held = [p for p in players_with_ships(repo.load_world(conn, C, 1)) if p != human]
        for p in held:
            bots.put_player(conn, C, bots.BotPlayer(p, 0, "solo", 1))
    return held


def _bot_plays(engine: Engine, player: str) -> None:
    """As the bot admiral's NoteBotOrders does, through the servicer's own work."""
    note = bots_pb2.NoteBotOrdersRequest(
        campaign_id=C, turn=1, player_id=player, client_request_id=f"bot:{player}"
    )
    with engine.begin() as conn:
        admirals.note_bot_orders(conn, note, AT)


def _status(engine: Engine) -> str:
    with engine.begin() as conn:
        return repo.get_campaign(conn, C).status  # type: ignore[union-attr]


def test_a_solo_turn_closes_when_the_human_confirms_after_the_bot_has_played(campaign: Engine) -> None:
    """A solo campaign (docs/bots.md): the bot plays every seat but one human's; the turn
    closes as soon as the human confirms, once the bot's orders for the others are noted."""
    for p in _solo_seats(campaign, "allemand"):
        _bot_plays(campaign, p)
    assert _status(campaign) == "OPEN"
    with campaign.begin() as conn:
        assert confirm.confirm(conn, C, 1, "allemand", True, AT).turn_closed
    assert _status(campaign) == "CLOSED"


def test_a_solo_turn_closes_when_the_bot_plays_after_the_human_confirmed(campaign: Engine) -> None:
    """The other order: the human confirms first; the bot's last seat closes the turn, his
    confirmation counted (it used to be forgotten, and the turn waited for its deadline)."""
    held = _solo_seats(campaign, "allemand")
    with campaign.begin() as conn:
        assert not confirm.confirm(conn, C, 1, "allemand", True, AT).turn_closed
    for p in held[:-1]:
        _bot_plays(campaign, p)
    assert _status(campaign) == "OPEN"  # one seat still to play
    _bot_plays(campaign, held[-1])
    assert _status(campaign) == "CLOSED"


def test_a_solo_turn_waits_for_a_human_who_took_his_confirmation_back(campaign: Engine) -> None:
    held = _solo_seats(campaign, "allemand")
    for p in held[:-1]:
        _bot_plays(campaign, p)
    with campaign.begin() as conn:
        confirm.confirm(conn, C, 1, "allemand", True, AT)
        confirm.confirm(conn, C, 1, "allemand", False, AT)
    _bot_plays(campaign, held[-1])
    assert _status(campaign) == "OPEN"


@pytest.mark.parametrize("keep", [True, False])
def test_the_next_deadline_keeps_the_schedule_or_runs_from_the_close(campaign: Engine, keep: bool) -> None:
    with campaign.begin() as conn:
        earlyclose.set_setting(conn, C, desk_pb2.EarlyClose(enabled=True, keep_schedule=keep))
    _confirm_all_but(campaign, "allemand")
    with campaign.begin() as conn:
        confirm.confirm(conn, C, 1, "allemand", True, AT)
        opened = AT + timedelta(minutes=5)
        got = schedule.next_deadline(conn, repo.get_campaign(conn, C), 1, opened)  # type: ignore[arg-type]
    assert got == (DEADLINE + timedelta(days=1) if keep else opened + timedelta(days=1))


def _send(engine: Engine, sender: str, kind: str, to: str, body: str) -> desk_pb2.PlayerMessage:
    with engine.begin() as conn:
        state = repo.load_world(conn, C, 1).players[sender].state
        req = desk_pb2.SendMessageRequest(campaign_id=C, to_kind=kind, to=to, body=body)
        return letters.send(conn, C, sender, state, req, AT)


def _read(engine: Engine, player: str) -> list[str]:
    with engine.begin() as conn:
        state = repo.load_world(conn, C, 1).players[player].state
        return [m.body for m in letters.listing(conn, C, player, state).messages]


def test_messages_reach_only_their_addressees(campaign: Engine) -> None:
    _send(campaign, "cornwallis", "player", "calder", "meet off Ushant")
    _send(campaign, "calder", "state", "BR", "all British: hold the Channel")
    _send(campaign, "cornwallis", "allies", "", "to every ally")
    assert _read(campaign, "calder") == ["to every ally", "all British: hold the Channel", "meet off Ushant"]
    assert _read(campaign, "barham") == ["to every ally", "all British: hold the Channel"]
    assert _read(campaign, "allemand") == []  # an enemy reads nothing


def test_messages_are_limited_per_turn(campaign: Engine) -> None:
    for i in range(message_limits().max_per_turn):
        _send(campaign, "cornwallis", "player", "calder", f"n{i}")
    with pytest.raises(DeskError, match="at most"):
        _send(campaign, "cornwallis", "player", "calder", "one too many")
