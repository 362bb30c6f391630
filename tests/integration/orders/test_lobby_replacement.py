"""Replacement seats and the reliability record (docs/lobby.md): a seat in civil disorder is
offered by itself at the close that put it there; its newcomer plays from the next turn and
reads the seat's reports from the turn he took it, never before; his predecessor's sessions end
and his record shows the campaign left; the bot lets go at the close.  Each close counts a turn
once, however often it is processed, and an announced absence counts neither way.  Two takes
of one seat at once: one wins."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine, func, select

from pate.v1 import bots_pb2, lobby_pb2, reports_pb2
from services.orders import civil, reliability
from services.orders.lobby import taking
from services.platform.errors import DeskError
from services.platform.store import account_tables as at
from services.platform.store import bots as botstore
from services.platform.store import lobby_tables as lt
from services.platform.store import repository as repo
from tests.support.lobby import Desk, RefusedError, confirm, lobby_desk, next_turn, publish

pytestmark = pytest.mark.integration
StatusCode = grpc.StatusCode


@pytest.fixture
def desk(engine: Engine) -> Iterator[Desk]:
    with lobby_desk(engine) as d:
        yield d


def seat(campaign: str, player: str) -> lobby_pb2.LobbySeatRequest:
    return lobby_pb2.LobbySeatRequest(campaign_id=campaign, player_id=player)


def refused(fn: Any, *args: Any) -> RefusedError:
    with pytest.raises(RefusedError) as err:
        fn(*args)
    return err.value


def record(desk: Desk, token: str) -> lobby_pb2.Reliability:
    return desk.me("GetReliability", lobby_pb2.GetReliabilityRequest(), token)


def report(desk: Desk, token: str, campaign: str, turn: int) -> str:
    request = reports_pb2.GetReportRequest(campaign_id=campaign, turn=turn, format="json")
    return str(desk.call(desk.reports, "GetReport", request, token=token).body)


def test_reliability_counts_each_close_once_and_absence_not_at_all(desk: Desk, engine: Engine) -> None:
    publish(desk, "rel", seats=["allemand"])
    token = desk.world.member("count@example.org")
    desk.me("TakeSeat", seat("rel", "allemand"), token)
    next_turn(engine, "rel")  # turn 1: nothing sent, a deadline missed
    with engine.begin() as conn:
        assert reliability.count_turn(conn, "rel", 1) == 0  # the same close processed again
    confirm(engine, "rel", 2, "allemand")
    next_turn(engine, "rel")  # turn 2: confirmed
    with engine.begin() as conn:  # another helper's absence: the bot holds the seat, reason "absent"
        botstore.put_player(conn, "rel", botstore.BotPlayer("allemand", 0, reliability.ABSENT, 3))
    next_turn(engine, "rel")  # turn 3: away, announced
    mine = record(desk, token)
    assert (mine.turns_due, mine.turns_sent, mine.deadlines_missed, mine.percent) == (2, 1, 1, 50)
    with engine.begin() as conn:
        rows = conn.execute(select(func.count()).select_from(lt.reliability_turns)).scalar()
    assert rows == 2


def test_a_seat_in_civil_disorder_is_taken_over_from_the_next_turn(desk: Desk, engine: Engine) -> None:
    publish(desk, "cd", seats=["allemand"])
    old, new = desk.world.member("old@example.org", "Old"), desk.world.member("new@example.org", "New")
    desk.me("TakeSeat", seat("cd", "allemand"), old)
    old_seat = desk.open_seat(old, "cd", "allemand")
    with engine.begin() as conn:
        civil.set_civil_disorder(conn, "cd", 1)
        for turn in (0, 1):  # the reports the old holder read
            repo.save_report(conn, "cd", turn, "allemand", "json", f'{{"turn": {turn}}}')
    assert report(desk, old_seat, "cd", 0) == '{"turn": 0}'
    turn = next_turn(engine, "cd")  # missed: civil disorder from turn 2, and the seat is offered
    listing = desk.call(desk.lobby, "GetListing", lobby_pb2.LobbyCampaignRequest(campaign_id="cd"))
    # every seat nobody played is in civil disorder now, the unlisted ones too: all are offered
    offered = {s.player_id: (s.kind, s.taken) for s in listing.seats}
    assert offered["allemand"] == ("civil_disorder", False) and len(offered) == 6
    browsed = desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest(free_seats=True))
    assert [x.campaign_id for x in browsed.listings] == ["cd"]

    took = desk.me("TakeSeat", seat("cd", "allemand"), new)
    assert (took.reports_from, took.plays_from) == (turn, turn + 1)
    early = refused(desk.open_seat, new, "cd", "allemand")
    assert early.code == StatusCode.FAILED_PRECONDITION and f"turn {turn + 1}" in early.details
    gone = refused(report, desk, old_seat, "cd", 0)  # the former holder's session ended
    assert gone.code == StatusCode.UNAUTHENTICATED
    assert record(desk, old).campaigns_left == 1
    with engine.begin() as conn:
        assert botstore.bot_players(conn, "cd")["allemand"].reason == botstore.CIVIL_DISORDER  # plays turn 2
        repo.save_report(conn, "cd", turn, "allemand", "json", '{"turn": 2}')
    next_turn(engine, "cd")
    with engine.begin() as conn:
        assert botstore.bot_players(conn, "cd")["allemand"].reason is None  # the bot let go
    mine = desk.open_seat(new, "cd", "allemand")
    assert report(desk, mine, "cd", turn) == '{"turn": 2}'
    for before in (0, 1):
        denied = refused(report, desk, mine, "cd", before)
        assert denied.code == StatusCode.PERMISSION_DENIED and "former holder" in denied.details
    listed = desk.call(
        desk.reports, "ListReports", reports_pb2.ListReportsRequest(campaign_id="cd"), token=mine
    )
    assert [r.turn for r in listed.reports] == [turn]
    # the newcomer's turn 2 was the bot's, not due for him; turn 1 was the old holder's
    assert record(desk, new).turns_due == 0 and record(desk, old).turns_due == 1


def test_a_seat_whose_holder_plays_again_is_withdrawn(desk: Desk, engine: Engine) -> None:
    publish(desk, "back", seats=["allemand"])
    token = desk.world.member("back@example.org")
    desk.me("TakeSeat", seat("back", "allemand"), token)
    with engine.begin() as conn:
        civil.set_civil_disorder(conn, "back", 1)
    turn = next_turn(engine, "back")
    assert (
        not desk.call(desk.lobby, "GetListing", lobby_pb2.LobbyCampaignRequest(campaign_id="back"))
        .seats[0]
        .taken
    )
    confirm(engine, "back", turn, "allemand")
    next_turn(engine, "back")
    again = desk.call(desk.lobby, "GetListing", lobby_pb2.LobbyCampaignRequest(campaign_id="back"))
    assert again.seats[0].taken and again.free_seats == 5  # the others nobody plays stay offered


def test_two_takes_of_one_seat_at_once_one_wins(desk: Desk, engine: Engine) -> None:
    publish(desk, "race", seats=["allemand", "cornwallis"], start="by_game_master")
    ids = [desk.world.accounts.authenticate(desk.world.member(f"r{i}@example.org")).id for i in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def take(account: str) -> None:
        barrier.wait()
        try:
            with engine.begin() as conn:
                taking.take(conn, account, "race", "allemand", datetime.now(UTC))
            outcomes.append("took")
        except DeskError as err:
            outcomes.append(err.message)

    threads = [threading.Thread(target=take, args=(a,)) for a in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["player_id: this seat was taken", "took"]
    with engine.begin() as conn:
        holders = conn.execute(
            select(at.account_seats.c.account).where(at.account_seats.c.campaign == "race")
        )
        assert len(list(holders)) == 1


def test_the_bot_seats_proto_still_reads_the_lobbys_campaigns(desk: Desk, engine: Engine) -> None:
    publish(desk, "bots", seats=["allemand"], start="by_game_master")
    desk.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="bots"))
    with engine.begin() as conn:
        seats = civil.seats_pb(conn, "bots")
    assert bots_pb2.BotSeat(player_id="allemand", reason="game_master", since_turn=1) in seats.seats
