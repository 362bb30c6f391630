"""A declared absence through the orders service's own code on a real database (docs/bots.md
"Absence"): the allowance, the turns it may take, the bot's seat (reason "absent") from the
opening of its first turn to the opening of the turn after its last, no deadline missed in
it, the game master's hand-over first, cancelling and shortening, and the standing
instructions kept for the bot.  The turns open as the pipeline opens them
(campaigns.handle_reports_ready)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine

from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.notifier import work
from services.orders import absence, campaigns, civil, standing
from services.orders.absence_rpc import seat_caller
from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.security.auth import Credentials
from services.platform.store import bots
from services.platform.store import repository as repo
from tests.support.accounts import SEAT_PASSWORD, World, make_world
from tests.support.mailsink import smtp_sink
from tests.support.passwords import EveryPlayer

pytestmark = pytest.mark.integration
AT = datetime(2026, 3, 1, 12, tzinfo=UTC)
CID = "away"


def _campaign(engine: Engine, turns: int = 6) -> None:
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            CID,
            load_scenario("training"),
            "training",
            seed=1,
            turns=turns,
            first_deadline=None,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        repo.set_status(conn, CID, turn=1, expect=("STARTING",), status="OPEN")
        civil.set_civil_disorder(conn, CID, 2)


def _next_turn(engine: Engine, turn: int) -> None:
    """Close ``turn`` and open the next as the reports' arrival does (the world carried over)."""
    with engine.begin() as conn:
        campaigns.close_turn(conn, CID, turn, "deadline", AT)
        repo.set_status(conn, CID, turn=turn, expect=("CLOSED",), status="REPORTED")
        world = repo.load_world(conn, CID, turn)
        repo.save_world(conn, CID, turn + 1, replace(world, turn=turn + 1))
        ready = events_pb2.ReportsReady(campaign_id=CID, turn=turn).SerializeToString()
        campaigns.handle_reports_ready(conn, ready, {}, at=AT)


def _seat(engine: Engine, player: str = "cornwallis") -> bots.BotPlayer | None:
    with engine.begin() as conn:
        return bots.bot_players(conn, CID).get(player)


def _do(engine: Engine, fn: Any, *args: Any) -> Any:
    with engine.begin() as conn:
        return fn(conn, CID, *args)


def _refused(engine: Engine, fn: Any, *args: Any) -> DeskError:
    with pytest.raises(DeskError) as err:
        _do(engine, fn, *args)
    return err.value


def test_the_bot_plays_an_absent_turn_and_no_deadline_is_missed(engine: Engine) -> None:
    _campaign(engine)
    state = _do(engine, absence.declare, "cornwallis", 2, 3, AT)
    assert (state.allowance, state.used, state.absent_now) == (3, 2, False)
    assert (state.turn, state.last_turn, state.HasField("deadline")) == (1, 6, False)  # no deadline set
    _next_turn(engine, 1)  # he sent nothing in turn 1: one deadline missed
    seat = _seat(engine)
    assert seat == bots.BotPlayer("cornwallis", 1, "absent", 2)
    _next_turn(engine, 2)
    assert _seat(engine) == bots.BotPlayer("cornwallis", 1, "absent", 2)  # not 2 missed, no disorder
    assert _seat(engine, "calder") == bots.BotPlayer("calder", 2, "civil_disorder", 3)  # the rule works
    _next_turn(engine, 3)
    assert _seat(engine) == bots.BotPlayer("cornwallis", 1, None, None)  # back: he plays himself
    assert not _do(engine, absence.state_pb, "cornwallis").absent_now


def test_the_game_masters_hand_over_comes_first(engine: Engine) -> None:
    _campaign(engine)
    _do(engine, civil.hand_to_bot, "cornwallis")
    _do(engine, absence.declare, "cornwallis", 1, 2, AT)
    assert _seat(engine).reason == "game_master"  # type: ignore[union-attr]
    _next_turn(engine, 1)
    _next_turn(engine, 2)
    assert _seat(engine).reason == "game_master"  # type: ignore[union-attr]


def test_an_absence_from_the_open_turn_seats_the_bot_at_once_and_a_cancel_gives_it_back(
    engine: Engine,
) -> None:
    _campaign(engine)
    assert _do(engine, absence.declare, "cornwallis", 1, 2, AT).absent_now
    assert _seat(engine).reason == "absent"  # type: ignore[union-attr]
    back = _do(engine, absence.cancel, "cornwallis", 1, 0)  # the open turn is his again
    assert (back.used, list(back.absences), back.absent_now) == (0, [], False)
    assert _seat(engine).reason is None  # type: ignore[union-attr]


def test_turns_closed_are_spent_and_a_shortened_absence_gives_the_rest_back(engine: Engine) -> None:
    _campaign(engine)
    _do(engine, absence.declare, "cornwallis", 2, 4, AT)
    assert _do(engine, absence.cancel, "cornwallis", 2, 3).used == 2  # shortened to 2-3
    _next_turn(engine, 1)
    _next_turn(engine, 2)
    state = _do(engine, absence.cancel, "cornwallis", 2, 0)  # turn 2 has closed: it stays spent
    assert [(a.from_turn, a.to_turn) for a in state.absences] == [(2, 2)] and state.used == 1
    assert not state.absent_now and _seat(engine).reason is None  # type: ignore[union-attr]
    err = _refused(engine, absence.cancel, "cornwallis", 2, 0)
    assert err.code is Code.FAILED_PRECONDITION and err.message == "from_turn: that absence is over"
    assert _refused(engine, absence.cancel, "cornwallis", 5, 0).code is Code.NOT_FOUND


@pytest.mark.parametrize(
    ("args", "code", "field"),
    [
        ((0, 1), Code.INVALID_ARGUMENT, "from_turn"),
        ((2, 7), Code.INVALID_ARGUMENT, "to_turn"),  # past the campaign's 6 turns
        ((3, 2), Code.INVALID_ARGUMENT, "to_turn"),
        ((2, 5), Code.FAILED_PRECONDITION, "to_turn"),  # 4 turns, 3 allowed
        ((2, 101), Code.INVALID_ARGUMENT, "to_turn"),  # past any campaign's (limits.MAX_TURN)
        ((-5, 2), Code.INVALID_ARGUMENT, "from_turn"),
    ],
)
def test_an_absence_refused_names_the_field_and_changes_nothing(
    engine: Engine, args: tuple[int, int], code: Code, field: str
) -> None:
    _campaign(engine)
    err = _refused(engine, absence.declare, "cornwallis", *args, AT)
    assert err.code is code and err.message.startswith(f"{field}: ")
    assert _do(engine, absence.state_pb, "cornwallis").used == 0


def test_overlaps_the_allowance_and_a_closed_turn_are_refused(engine: Engine) -> None:
    _campaign(engine)
    _do(engine, absence.declare, "cornwallis", 2, 3, AT)
    assert _refused(engine, absence.declare, "cornwallis", 3, 3, AT).message.startswith("from_turn: overlaps")
    assert (
        _refused(engine, absence.declare, "cornwallis", 4, 5, AT).message == "to_turn: 2 turns asked, 1 left"
    )
    _do(engine, absence.set_allowance, 0)
    assert _refused(engine, absence.declare, "cornwallis", 5, 5, AT).code is Code.FAILED_PRECONDITION
    assert _refused(engine, absence.set_allowance, 16).message == "allowance: 0 to 15 turns"
    with engine.begin() as conn:
        campaigns.close_turn(conn, CID, 1, "deadline", AT)
    _do(engine, absence.set_allowance, 15)
    closed = _refused(engine, absence.declare, "cornwallis", 1, 1, AT)  # turn 1 was due already
    assert closed.message.startswith("from_turn: turn 2 or later")


def _player(engine: Engine, pid: str) -> Any:
    with engine.begin() as conn:
        return repo.get_player(conn, CID, pid)


def test_standing_instructions_are_checked_kept_and_handed_to_the_bot_for_an_absence(engine: Engine) -> None:
    _campaign(engine)
    text = "if superior enemy sighted then return Plymouth for BR1FL\nkeep blockade Brest"
    kept = _do(engine, standing.set_text, _player(engine, "cornwallis"), text, AT)
    assert (kept.text, kept.instructions) == (text, 2)
    assert _do(engine, standing.get_text, "cornwallis").instructions == 2
    assert _do(engine, civil.standing_for_bot, "cornwallis") == ""  # he plays himself
    _do(engine, absence.declare, "cornwallis", 1, 1, AT)
    assert _do(engine, civil.standing_for_bot, "cornwallis") == text
    token = _do(engine, civil.bot_login, "cornwallis", AT)
    assert token.standing_instructions == text and token.token
    _do(engine, civil.hand_to_bot, "calder")  # a game master's hand-over: the bot judges alone
    _do(engine, standing.set_text, _player(engine, "calder"), "keep in port", AT)
    assert _do(engine, civil.standing_for_bot, "calder") == ""


def test_standing_instructions_are_handed_to_the_bot_in_civil_disorder_too(engine: Engine) -> None:
    _campaign(engine)
    _do(engine, civil.set_civil_disorder, 1)
    _do(engine, standing.set_text, _player(engine, "calder"), "keep in port", AT)
    _next_turn(engine, 1)  # calder sent nothing: the bot plays him from turn 2
    assert _seat(engine, "calder").reason == "civil_disorder"  # type: ignore[union-attr]
    assert _do(engine, civil.standing_for_bot, "calder") == "keep in port"


@pytest.mark.parametrize(
    ("player", "text", "message"),
    [
        ("cornwallis", "keep in port for BR2FL", "text: line 1: for: BR2FL is not a ship you order"),
        ("cornwallis", "keep in port for FR1FL", "text: line 1: for: FR1FL is not a ship you order"),
        ("ganteaume", "return Plymouth", "text: line 1: port: Plymouth is not held by your side"),
        ("cornwallis", "keep in port\nsail away", "text: line 2: action: "),
        ("cornwallis", "x" * 2001, "text: at most 2000 characters"),
    ],
)
def test_standing_instructions_refused_name_the_line_and_keep_the_old_ones(
    engine: Engine, player: str, text: str, message: str
) -> None:
    _campaign(engine)
    _do(engine, standing.set_text, _player(engine, player), "keep in port", AT)
    err = _refused(engine, standing.set_text, _player(engine, player), text, AT)
    assert err.code is Code.INVALID_ARGUMENT and err.message.startswith(message)
    assert _do(engine, standing.get_text, player).text == "keep in port"


def test_an_empty_text_clears_them(engine: Engine) -> None:
    _campaign(engine)
    _do(engine, standing.set_text, _player(engine, "cornwallis"), "keep in port", AT)
    cleared = _do(engine, standing.set_text, _player(engine, "cornwallis"), "# nothing\n", AT)
    assert (cleared.text, cleared.instructions) == ("", 0)
    assert _do(engine, standing.get_text, "cornwallis").text == ""


@pytest.fixture
def accounts(engine: Engine) -> Iterator[World]:
    with smtp_sink() as (sink, inbox):
        yield make_world(engine, work.Sender(engine, sink), inbox)


def _caller(engine: Engine, player: str, token: str, now: datetime) -> Any:
    with engine.begin() as conn:
        return seat_caller(conn, CID, player, Credentials(token=token), now)


def test_a_seat_session_or_the_account_session_of_one_of_his_seats_acts_for_it(
    engine: Engine, accounts: World
) -> None:
    _campaign(engine)
    now = accounts.clock.now
    with engine.begin() as conn:
        seat_token, _ = sessions.issue(conn, CID, "cornwallis", now=now, ttl=600)
    assert _caller(engine, "", seat_token, now).id == "cornwallis"
    with pytest.raises(DeskError, match=r"^session token: it is for another seat"):
        _caller(engine, "calder", seat_token, now)
    mine = accounts.member("nelson@example.org")
    accounts.seats.claim(mine, CID, "cornwallis", SEAT_PASSWORD, accounts.addr)
    assert _caller(engine, "cornwallis", mine, now).id == "cornwallis"
    with pytest.raises(DeskError, match=r"^player_id: no such seat of yours") as err:
        _caller(engine, "calder", mine, now)  # a seat of his campaign, not his
    assert err.value.code is Code.NOT_FOUND
    with pytest.raises(DeskError, match=r"^player_id: name your seat"):
        _caller(engine, "", mine, now)
    with pytest.raises(DeskError, match=r"^session token unknown") as err:
        _caller(engine, "cornwallis", "forged-token", now)
    assert err.value.code is Code.UNAUTHENTICATED
    with engine.begin() as conn:
        admin_token, _ = sessions.issue(conn, CID, "admin", now=now, ttl=600)
    with pytest.raises(DeskError, match=r"^player_id: only a player with a state"):
        _caller(engine, "", admin_token, now)
