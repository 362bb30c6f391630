"""The red team against a seat's absences and standing instructions (docs/bots.md "Absence",
docs/formats/standing.md) as the lobby and API tokens hand seats around: a read-only API
token's seat session changes nothing of the seat, a newcomer inherits neither his
predecessor's standing instructions (written from reports he may not read) nor the absences
still to come (which would hand his seat to the bot), and a refusal of standing instructions
naming an enemy ship says no more than one naming a ship nobody has (docs/security.md,
"Attacks the red team tried")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from pate.v1 import absence_pb2 as apb
from pate.v1 import accounts_pb2, lobby_pb2
from pate.v1 import desk_pb2 as dpb
from services.orders.absence_rpc import AbsencesServicer
from services.orders.servicer import PlayerDeskServicer
from services.platform.security import sessions
from services.platform.store import absence_tables, notifications, tables
from services.platform.store import bots as botstore
from services.platform.store.db import reader
from tests.support.lobby import ADMIN, Call, Desk, RefusedError, lobby_desk, next_turn, publish

pytestmark = pytest.mark.integration
INSTRUCTIONS = "if enemy sighted then keep in port for FR2FL"  # Allemand's squadron


@pytest.fixture
def desk(engine: Engine) -> Iterator[tuple[Desk, AbsencesServicer]]:
    with lobby_desk(engine) as d:
        d.world.clock.now = datetime.now(UTC)  # the Absences service reads the real clock
        yield d, AbsencesServicer(engine, d.world.auth, ADMIN)


def refused(fn: Any, *args: Any) -> RefusedError:
    with pytest.raises(RefusedError) as err:
        fn(*args)
    return err.value


def seat(campaign: str, player: str) -> lobby_pb2.LobbySeatRequest:
    return lobby_pb2.LobbySeatRequest(campaign_id=campaign, player_id=player)


def stored(engine: Engine) -> tuple[list[Any], list[Any]]:
    with reader(engine) as conn:
        away = conn.execute(sa.select(absence_tables.absences)).all()
        standing = conn.execute(sa.select(absence_tables.standing_instructions)).all()
    return [tuple(r) for r in away], [tuple(r) for r in standing]


def api_token(d: Desk, account: str, read_only: bool) -> str:
    made = d.call(
        d.accounts,
        "CreateApiToken",
        accounts_pb2.CreateApiTokenRequest(name="bot", read_only=read_only, all_seats=True),
        token=account,
    )
    return str(made.token)


def test_a_read_only_tokens_seat_session_changes_nothing_of_the_seat(
    desk: tuple[Desk, AbsencesServicer], engine: Engine
) -> None:
    d, away = desk
    publish(d, "ro", seats=["allemand"], start="by_game_master")
    owner = d.world.member("owner@example.org")
    d.me("TakeSeat", seat("ro", "allemand"), owner)
    reading = d.open_seat(api_token(d, owner, read_only=True), "ro", "allemand")
    before = stored(engine)
    writes = [
        ("DeclareAbsence", apb.DeclareAbsenceRequest(campaign_id="ro", from_turn=1, to_turn=2)),
        ("CancelAbsence", apb.CancelAbsenceRequest(campaign_id="ro", from_turn=1)),
        ("SetStandingInstructions", apb.SetStandingInstructionsRequest(campaign_id="ro", text=INSTRUCTIONS)),
    ]
    for method, request in writes:
        err = refused(d.call, away, method, request, reading)
        assert err.code == grpc.StatusCode.PERMISSION_DENIED and "read-only" in err.details, method
    assert stored(engine) == before
    with engine.begin() as conn:
        assert botstore.bot_players(conn, "ro") == {}  # the bot was handed nothing
    # the lobby takes an account's session only: neither the API token nor its seat session
    for token in (api_token(d, owner, read_only=True), reading):
        err = refused(d.me, "LeaveSeat", seat("ro", "allemand"), token)
        assert err.code == grpc.StatusCode.UNAUTHENTICATED
    # a token that may send orders acts on the seat's absence as its owner would
    acting = d.open_seat(api_token(d, owner, read_only=False), "ro", "allemand")
    done = d.call(away, "DeclareAbsence", writes[0][1], acting)
    assert [(a.from_turn, a.to_turn) for a in done.absences] == [(1, 2)]


def test_a_newcomer_inherits_no_standing_instructions_nor_absence_to_come(
    desk: tuple[Desk, AbsencesServicer], engine: Engine
) -> None:
    d, away = desk
    publish(d, "heir", seats=["allemand", "calder"], start="by_game_master")
    d.call(
        away,
        "SetAbsenceAllowance",
        apb.SetAbsenceAllowanceRequest(campaign_id="heir", allowance=5),
        admin=True,
    )
    old, new = d.world.member("old@example.org", "Old"), d.world.member("new@example.org", "New")
    d.me("TakeSeat", seat("heir", "allemand"), old)
    d.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="heir"))
    mine = d.open_seat(old, "heir", "allemand")
    his_program = api_token(d, old, read_only=False)
    programs_seat = d.open_seat(his_program, "heir", "allemand")
    d.call(
        away,
        "SetStandingInstructions",
        apb.SetStandingInstructionsRequest(campaign_id="heir", text=INSTRUCTIONS),
        mine,
    )
    d.call(
        away, "DeclareAbsence", apb.DeclareAbsenceRequest(campaign_id="heir", from_turn=1, to_turn=5), mine
    )
    with engine.begin() as conn:
        assert botstore.bot_players(conn, "heir")["allemand"].reason == botstore.ABSENT
    d.gm("OpenReplacementSeat", seat("heir", "allemand"))  # the game master replaces him
    d.me("TakeSeat", seat("heir", "allemand"), new)
    assert stored(engine) == ([], [])
    # the former holder acts on it no more: not with a session, not with his program's token
    for gone in (mine, programs_seat):
        err = refused(d.call, away, "GetAbsence", apb.GetAbsenceRequest(campaign_id="heir"), gone)
        assert err.code == grpc.StatusCode.UNAUTHENTICATED
    assert refused(d.open_seat, his_program, "heir", "allemand").code == grpc.StatusCode.NOT_FOUND
    assert refused(d.open_seat, old, "heir", "allemand").code == grpc.StatusCode.NOT_FOUND
    with engine.begin() as conn:  # the bot plays the open turn for the newcomer, not for an absence
        assert botstore.bot_players(conn, "heir")["allemand"].reason == botstore.GAME_MASTER
    next_turn(engine, "heir")  # his first turn: the seat opens to him
    state = d.call(away, "GetAbsence", apb.GetAbsenceRequest(campaign_id="heir", player_id="allemand"), new)
    assert (list(state.absences), state.used, state.allowance) == ([], 0, 5)
    got = d.call(
        away,
        "GetStandingInstructions",
        apb.GetStandingInstructionsRequest(campaign_id="heir", player_id="allemand"),
        new,
    )
    assert (got.text, got.instructions) == ("", 0)


def test_an_enemy_ship_in_standing_instructions_is_refused_as_a_ship_nobody_has(
    desk: tuple[Desk, AbsencesServicer], engine: Engine
) -> None:
    d, away = desk
    publish(d, "fog", seats=["allemand"], start="by_game_master")
    owner = d.world.member("fog@example.org")
    d.me("TakeSeat", seat("fog", "allemand"), owner)
    mine = d.open_seat(owner, "fog", "allemand")
    answers = []
    for ship in ("BR2FL", "BR9FL"):  # Calder's flagship, and an id no ship has
        text = f"if enemy sighted then keep in port for {ship}"
        err = refused(
            d.call,
            away,
            "SetStandingInstructions",
            apb.SetStandingInstructionsRequest(campaign_id="fog", text=text),
            mine,
        )
        answers.append((err.code, err.details.replace(ship, "<ship>")))
    assert (
        answers[0]
        == answers[1]
        == (grpc.StatusCode.INVALID_ARGUMENT, "text: line 1: for: <ship> is not a ship you order")
    )
    assert stored(engine) == ([], [])


def test_the_former_holder_hears_no_more_and_the_newcomer_reads_none_of_his_messages(
    desk: tuple[Desk, AbsencesServicer], engine: Engine
) -> None:
    """A replaced player kept the seat's mail (his address in its notification choices): every
    message his former allies sent the seat reached him. And his successor read the seat's
    whole correspondence, what it had learnt before he came."""
    d, _ = desk
    post = PlayerDeskServicer(engine, d.world.auth)
    publish(d, "post", seats=["allemand"], start="by_game_master")
    old, new = d.world.member("spy@example.org", "Spy"), d.world.member("heir@example.org", "Heir")
    d.me("TakeSeat", seat("post", "allemand"), old)
    d.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="post"))
    mine = d.open_seat(old, "post", "allemand")
    mail = notifications.Prefs("spy@example.org", "", ("messages",))
    with engine.begin() as conn:
        notifications.set_prefs(conn, "post", "allemand", mail, d.world.clock())
        ally, _ = sessions.issue(conn, "post", "ganteaume", now=d.world.clock(), ttl=86400)

    def say(body: str) -> None:
        d.call(
            post,
            "SendMessage",
            dpb.SendMessageRequest(campaign_id="post", to_kind="state", to="FR", body=body),
            ally,
        )

    say("the squadron sails for Ferrol")
    d.call(
        post, "SendMessage", dpb.SendMessageRequest(campaign_id="post", to_kind="allies", body="mine"), mine
    )
    assert queued(engine) == 1  # his copy of the first, by mail
    d.gm("OpenReplacementSeat", seat("post", "allemand"))
    d.world.clock.now = datetime.now(UTC)  # the messages carry the real time, the take the clock's
    d.me("TakeSeat", seat("post", "allemand"), new)
    assert queued(engine) == 0  # what was queued for him is gone with his address
    next_turn(engine, "post")
    say("the squadron is at Ferrol")
    assert queued(engine) == 0
    theirs = d.open_seat(new, "post", "allemand")
    listed = d.call(post, "ListMessages", dpb.ListMessagesRequest(campaign_id="post"), theirs)
    assert [m.body for m in listed.messages] == ["the squadron is at Ferrol"]
    me = d.call(post, "GetMyCampaign", dpb.GetMyCampaignRequest(campaign_id="post"), theirs)
    assert me.unread_messages == 1


def queued(engine: Engine) -> int:
    t = tables.notifications
    with reader(engine) as conn:
        return len(conn.execute(sa.select(t).where(t.c.player == "allemand")).all())


def test_a_newcomer_acts_on_his_seat_by_no_door_before_the_turn_he_plays(
    desk: tuple[Desk, AbsencesServicer], engine: Engine
) -> None:
    """OpenSeat refused his account until the turn he plays; his API token and the Absences
    service (standing instructions the bot would follow in the turn it plays for him) did not."""
    d, away = desk
    publish(d, "early", seats=["allemand", "calder"], start="by_game_master")
    d.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="early"))
    new = d.world.member("eager@example.org")
    assert d.me("TakeSeat", seat("early", "allemand"), new).plays_from == 2
    token = api_token(d, new, read_only=False)
    text = apb.SetStandingInstructionsRequest(campaign_id="early", player_id="allemand", text=INSTRUCTIONS)
    for attempt in (
        lambda: d.open_seat(token, "early", "allemand"),
        lambda: d.call(away, "SetStandingInstructions", text, new),
    ):
        err = refused(attempt)
        assert err.code == grpc.StatusCode.FAILED_PRECONDITION and "from turn 2" in err.details
    assert stored(engine) == ([], [])
    next_turn(engine, "early")
    assert d.open_seat(token, "early", "allemand")
    assert d.call(away, "SetStandingInstructions", text, new).instructions == 1


def test_the_allowance_takes_a_game_masters_live_session_and_nothing_else(
    desk: tuple[Desk, AbsencesServicer], engine: Engine
) -> None:
    """A malformed header answered UNAUTHENTICATED here where every other game master's call
    says PERMISSION_DENIED; a session of his with another player's name passed."""
    d, away = desk
    publish(d, "allow", seats=["allemand"], start="by_game_master")
    with engine.begin() as conn:
        own, _ = sessions.issue(conn, "allow", "admin", now=d.world.clock(), ttl=3600)
    ask = apb.SetAbsenceAllowanceRequest(campaign_id="allow", allowance=9)
    for md in (
        {"authorization": "Basic YWRtaW46YWRtaW4="},
        {"authorization": "Bearer "},
        {"authorization": f"Bearer {own}", "x-pate-player": "allemand"},
    ):
        with pytest.raises(RefusedError) as err:
            asyncio.run(away.SetAbsenceAllowance(ask, Call(md)))
        assert err.value.code == grpc.StatusCode.PERMISSION_DENIED, md
    assert asyncio.run(away.SetAbsenceAllowance(ask, Call({"authorization": f"Bearer {own}"}))).allowance == 9
