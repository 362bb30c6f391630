"""A plain player's solo campaign (services/orders/solo.py) on a migrated
database: made for the player of a live session, every other seat the bot's,
and the server's limits per player, per hour and in all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Connection, Engine

from pate.datafiles import load_scenario
from pate.v1 import bots_pb2
from services.orders import campaigns, solo
from services.platform.config import ConfigError
from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.store import bots
from services.platform.store import repository as repo
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 3, 1, 12, tzinfo=UTC)
ROOMY = solo.SoloLimits(open_per_player=10, per_hour=10, server=100)


def _token(engine: Engine) -> str:
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            "home",
            load_scenario("training"),
            "training",
            seed=1,
            turns=3,
            first_deadline=None,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        token, _ = sessions.issue(conn, "home", "cornwallis", now=AT, ttl=3600 * 24)
    return token


def _ask(cid: str, seat: str = "ganteaume", scenario: str = "training") -> solo.SoloAsk:
    return solo.check_request(bots_pb2.CreateSoloRequest(campaign_id=cid, scenario=scenario, seat=seat))


def _make(conn: Connection, token: str, cid: str, limits: solo.SoloLimits = ROOMY, at: datetime = AT) -> str:
    new_token, _ = solo.create_solo(conn, token, _ask(cid), EveryPlayer(), at, limits, 600)
    return new_token


def test_the_player_gets_one_seat_and_a_session_and_the_bot_every_other(engine: Engine) -> None:
    token = _token(engine)
    with engine.begin() as conn:
        new_token = _make(conn, token, "mine")
        row = repo.get_campaign(conn, "mine")
        assert row is not None and row.deadline == AT + timedelta(hours=ROOMY.turn_hours)
        assert bots.solo(conn, "mine")
        held = {p for p, seat in bots.bot_players(conn, "mine").items() if seat.reason}
        assert held == {"allemand", "barham", "calder", "cornwallis", "decres"}
        session = sessions.lookup(conn, new_token, now=AT)
        assert session is not None and (session.campaign, session.player) == ("mine", "ganteaume")


def test_the_limits_per_hour_per_player_and_in_all_hold(engine: Engine) -> None:
    token = _token(engine)
    limits = solo.SoloLimits(open_per_player=3, per_hour=2, server=4)
    with engine.begin() as conn:
        _make(conn, token, "s1", limits)
        inner = _make(conn, token, "s2", limits)
        with pytest.raises(DeskError, match="an hour at most") as err:
            _make(conn, token, "s3", limits)
        assert err.value.code == Code.RESOURCE_EXHAUSTED
        # a session in one of his solo campaigns counts against him, not as someone new
        with pytest.raises(DeskError, match="an hour at most"):
            _make(conn, inner, "s3", limits)
        later = AT + timedelta(hours=2)
        _make(conn, token, "s3", limits, later)
        with pytest.raises(DeskError, match="3 solo campaigns not finished"):
            _make(conn, token, "s4", limits, later + timedelta(hours=2))
        other, _ = sessions.issue(conn, "home", "calder", now=AT, ttl=3600 * 24)
        _make(conn, other, "o1", limits, later)
        with pytest.raises(DeskError, match="most solo campaigns"):
            _make(conn, other, "o2", limits, later)
        # a finished campaign no longer counts
        repo.set_status(conn, "s1", turn=1, expect=("STARTING",), status="FINISHED", deadline=None)
        _make(conn, other, "o2", limits, later)


def test_no_session_or_no_solo_campaigns_on_this_server_refuses(engine: Engine) -> None:
    token = _token(engine)
    with engine.begin() as conn:
        with pytest.raises(DeskError, match="session_token") as err:
            _make(conn, "not-a-token", "x1")
        assert err.value.code == Code.UNAUTHENTICATED
        with pytest.raises(DeskError, match="does not take solo campaigns"):
            _make(conn, token, "x1", solo.SoloLimits(server=0))
        assert repo.get_campaign(conn, "x1") is None


@pytest.mark.parametrize(
    ("scenario", "seat", "field"),
    [
        ("../etc", "ganteaume", "scenario"),
        ("nowhere", "ganteaume", "scenario"),
        ("training", "admin", "seat"),
    ],
)
def test_a_bad_request_names_its_field(scenario: str, seat: str, field: str) -> None:
    with pytest.raises(DeskError, match=f"^{field}:"):
        _ask("fine", seat, scenario)


def test_the_limits_are_settings_of_the_environment() -> None:
    got = solo.SoloLimits.from_env({"PATE_SOLO_PER_HOUR": "5", "PATE_SOLO_SERVER_MAX": "0"})
    assert (got.per_hour, got.server, got.open_per_player) == (5, 0, 3)
    with pytest.raises(ConfigError, match="PATE_SOLO_TURN_HOURS"):
        solo.SoloLimits.from_env({"PATE_SOLO_TURN_HOURS": "0"})
    with pytest.raises(ConfigError, match="PATE_SOLO_OPEN_PER_PLAYER"):
        solo.SoloLimits.from_env({"PATE_SOLO_OPEN_PER_PLAYER": "-1"})
