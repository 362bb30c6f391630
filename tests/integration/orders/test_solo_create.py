"""A plain player's solo campaign (services/orders/solo.py) on a migrated
database: made for the player of a live session, every other seat the bot's,
and the server's limits per player, per hour and in all."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Connection, Engine

from pate.datafiles import load_scenario
from pate.v1 import bots_pb2
from services.orders import campaigns, solo
from services.platform.config import ConfigError
from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.security.passwords import NO_LOGIN, hash_matches
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
    ask = solo.check_form(bots_pb2.CreateSoloRequest(campaign_id=cid, scenario=scenario, seat=seat))
    solo.scenario_for(ask)
    return ask


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


def test_the_seats_of_one_campaign_together_make_only_so_many(engine: Engine) -> None:
    """Its game master knows every seat's password: logged in as each, he must not have
    open_per_player solo campaigns per seat."""
    token = _token(engine)
    limits = solo.SoloLimits(open_per_player=3, per_hour=3, server=100, open_per_campaign=2)
    with engine.begin() as conn:
        other, _ = sessions.issue(conn, "home", "calder", now=AT, ttl=3600 * 24)
        third, _ = sessions.issue(conn, "home", "barham", now=AT, ttl=3600 * 24)
        _make(conn, token, "c1", limits)
        _make(conn, other, "c2", limits)
        with pytest.raises(DeskError, match="seats of your campaign") as err:
            _make(conn, third, "c3", limits)
        assert err.value.code == Code.RESOURCE_EXHAUSTED
        assert repo.get_campaign(conn, "c3") is None


def test_two_makers_at_once_cannot_both_take_the_last_slot(engine: Engine) -> None:
    """The limits are counted under a lock: a second transaction waits for the first to end and
    then counts its campaign (at READ COMMITTED it would have counted none and passed)."""
    token = _token(engine)
    limits = solo.SoloLimits(open_per_player=3, per_hour=1, server=100)
    second: list[BaseException | str] = []

    def race() -> None:
        try:
            with engine.begin() as conn:
                second.append(_make(conn, token, "r2", limits))
        except DeskError as err:
            second.append(err)

    with engine.begin() as conn:
        _make(conn, token, "r1", limits)
        rival = threading.Thread(target=race)
        rival.start()
        rival.join(timeout=1.0)  # it waits on the lock while this transaction is open
        assert rival.is_alive() and not second
    rival.join(timeout=60)
    assert len(second) == 1 and isinstance(second[0], DeskError) and "an hour at most" in str(second[0])
    with engine.begin() as conn:
        assert repo.get_campaign(conn, "r2") is None


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


def test_the_bots_seats_get_no_password_that_could_log_in(engine: Engine) -> None:
    token = _token(engine)
    with engine.begin() as conn:
        hashes = {p: NO_LOGIN for p in load_scenario("training").world.players} | {"ganteaume": "h"}
        solo.create_solo(conn, token, _ask("nl"), hashes, AT, ROOMY, 600)
        players = load_scenario("training").world.players
        stored = {p: repo.get_player(conn, "nl", p).password_hash for p in players}
    assert stored.pop("ganteaume") == "h"
    assert set(stored.values()) == {NO_LOGIN}
    assert not any(hash_matches(NO_LOGIN, guess) for guess in ("", "!no-login", "no-login", "x" * 12))


def test_the_limits_are_settings_of_the_environment() -> None:
    got = solo.SoloLimits.from_env({"PATE_SOLO_PER_HOUR": "5", "PATE_SOLO_SERVER_MAX": "0"})
    assert (got.per_hour, got.server, got.open_per_player) == (5, 0, 3)
    with pytest.raises(ConfigError, match="PATE_SOLO_TURN_HOURS"):
        solo.SoloLimits.from_env({"PATE_SOLO_TURN_HOURS": "0"})
    with pytest.raises(ConfigError, match="PATE_SOLO_OPEN_PER_PLAYER"):
        solo.SoloLimits.from_env({"PATE_SOLO_OPEN_PER_PLAYER": "-1"})
