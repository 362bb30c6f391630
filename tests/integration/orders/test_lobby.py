"""pate.v1.Lobby in process on a migrated database (docs/lobby.md): publishing holds the
clock, browsing filters and pages, first-come takes and asks with the game master's answers,
the minimum reliability, auto-start when full, a game master's start, leaving a seat and
solo games for accounts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine, insert, select

from pate.v1 import accounts_pb2, lobby_pb2
from services.orders import solo
from services.platform.security.passwords import NO_LOGIN
from services.platform.store import account_tables as at
from services.platform.store import bots as botstore
from services.platform.store import lobby_tables as lt
from services.platform.store import repository as repo
from services.platform.store import tables
from tests.support.lobby import Desk, RefusedError, lobby_desk, publish

pytestmark = pytest.mark.integration
StatusCode = grpc.StatusCode


@pytest.fixture
def desk(engine: Engine) -> Iterator[Desk]:
    with lobby_desk(engine, solo.SoloLimits(open_per_player=1, per_hour=5)) as d:
        yield d


def refused(fn: Any, *args: Any) -> RefusedError:
    with pytest.raises(RefusedError) as err:
        fn(*args)
    return err.value


def seat(campaign: str, player: str) -> lobby_pb2.LobbySeatRequest:
    return lobby_pb2.LobbySeatRequest(campaign_id=campaign, player_id=player)


def test_publish_holds_the_clock_and_says_each_seat_as_the_solo_picker(desk: Desk) -> None:
    listing = publish(desk, "pub", seats=["allemand", "cornwallis"], description="Two admirals\nwanted")
    assert listing.status == "open" and listing.free_seats == 2 and listing.time_zone == "Europe/Paris"
    words = {s.player_id: s.words for s in listing.seats}
    assert words["allemand"].startswith("allemand: French commander, ")
    assert {s.role for s in listing.seats} == {"commander"} and listing.description == "Two admirals\nwanted"
    with desk.world.engine.begin() as conn:
        assert repo.get_campaign(conn, "pub").deadline is None  # type: ignore[union-attr]
    again = refused(
        desk.gm,
        "Publish",
        lobby_pb2.PublishRequest(campaign_id="pub", seat_policy="approval", start="when_full"),
    )
    assert again.code == StatusCode.ALREADY_EXISTS
    no_gm = refused(desk.call, desk.lobby, "Publish", lobby_pb2.PublishRequest(campaign_id="pub"))
    assert no_gm.code == StatusCode.PERMISSION_DENIED


def test_a_campaign_past_its_start_is_not_published(desk: Desk, engine: Engine) -> None:
    from tests.support.accounts import game_master_campaign
    from tests.support.lobby import next_turn

    game_master_campaign(engine, "late")
    next_turn(engine, "late")
    ask = lobby_pb2.PublishRequest(campaign_id="late", seat_policy="first_come", start="when_full")
    assert refused(desk.gm, "Publish", ask).code == StatusCode.FAILED_PRECONDITION


def test_browse_filters_and_pages(desk: Desk) -> None:
    for name in ("b-one", "b-two", "b-three"):
        publish(desk, name, seats=["allemand"])
    first = desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest(page_size=2))
    assert len(first.listings) == 2 and first.next_page_token == "2"
    rest = desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest(page_size=2, page_token="2"))
    assert len(rest.listings) == 1 and not rest.next_page_token
    seen = {x.campaign_id for x in (*first.listings, *rest.listings)}
    assert seen == {"b-one", "b-two", "b-three"}
    assert not desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest(scenario="grand1805")).listings
    assert len(desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest(scenario="training")).listings) == 3
    # the training campaigns have no turn length: a turn-length filter leaves them out
    assert not desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest(max_turn_hours=48)).listings
    assert not desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest(naval_rules="nope")).listings
    bad = refused(desk.call, desk.lobby, "Browse", lobby_pb2.BrowseRequest(page_size=51))
    assert bad.code == StatusCode.INVALID_ARGUMENT and bad.details.startswith("page_size:")


def test_first_come_takes_fill_the_campaign_which_starts(desk: Desk, engine: Engine) -> None:
    publish(desk, "fc", seats=["allemand", "cornwallis"])
    nelson, villeneuve = desk.world.member("n@example.org"), desk.world.member("v@example.org", "Pierre")
    took = desk.me("TakeSeat", seat("fc", "allemand"), nelson)
    assert not took.started and took.plays_from == 0
    second = refused(desk.me, "TakeSeat", seat("fc", "cornwallis"), nelson)
    assert second.code == StatusCode.FAILED_PRECONDITION and "hold a seat" in second.details
    taken = refused(desk.me, "TakeSeat", seat("fc", "allemand"), villeneuve)
    assert taken.code == StatusCode.FAILED_PRECONDITION and "taken" in taken.details
    assert desk.me("TakeSeat", seat("fc", "cornwallis"), villeneuve).started
    with engine.begin() as conn:
        assert repo.get_campaign(conn, "fc").deadline is None  # training: no turn length  # type: ignore[union-attr]
        p = tables.players
        assert (
            conn.execute(select(p.c.password_hash).where(p.c.campaign == "fc", p.c.id == "allemand")).scalar()
            == NO_LOGIN
        )
        started = conn.execute(select(lt.lobby_listings.c.started_at)).scalar()
    assert started is not None
    assert desk.open_seat(nelson, "fc", "allemand")  # the account opens its seat as a claimed one
    seats = desk.call(desk.accounts, "ListSeats", accounts_pb2.ListSeatsRequest(), token=nelson)
    assert [(s.campaign_id, s.player_id) for s in seats.seats] == [("fc", "allemand")]
    assert refused(desk.call, desk.lobby, "TakeSeat", seat("fc", "calder")).code == StatusCode.UNAUTHENTICATED


def test_approval_asks_are_listed_with_the_record_and_answered(desk: Desk) -> None:
    publish(desk, "ap", seats=["allemand"], seat_policy="approval", start="by_game_master")
    a, b = desk.world.member("a@example.org", "Alice"), desk.world.member("b@example.org", "Bob")
    assert refused(desk.me, "TakeSeat", seat("ap", "allemand"), a).code == StatusCode.FAILED_PRECONDITION
    first = desk.me("AskSeat", seat("ap", "allemand"), a)
    assert first.state == "waiting" and first.reliability.percent == 100
    assert refused(desk.me, "AskSeat", seat("ap", "allemand"), a).code == StatusCode.ALREADY_EXISTS
    desk.world.clock.advance(seconds=1)
    other = desk.me("AskSeat", seat("ap", "allemand"), b)
    asks = desk.gm("ListRequests", lobby_pb2.LobbyCampaignRequest(campaign_id="ap")).asks
    assert [x.display_name for x in asks] == ["Alice", "Bob"]
    assert refused(desk.me, "ListRequests", lobby_pb2.LobbyCampaignRequest(campaign_id="ap"), a).code == (
        StatusCode.PERMISSION_DENIED
    )
    assert (
        desk.gm("Approve", lobby_pb2.DecideRequest(campaign_id="ap", ask_id=first.ask_id)).state == "approved"
    )
    late = refused(desk.gm, "Approve", lobby_pb2.DecideRequest(campaign_id="ap", ask_id=other.ask_id))
    assert late.code == StatusCode.FAILED_PRECONDITION and "taken" in late.details
    assert (
        desk.gm("Refuse", lobby_pb2.DecideRequest(campaign_id="ap", ask_id=other.ask_id)).state == "refused"
    )
    listing = desk.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="ap"))
    assert listing.status == "running"
    assert refused(desk.gm, "StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="ap")).code == (
        StatusCode.FAILED_PRECONDITION
    )


def test_the_game_masters_minimum_reliability_is_enforced(desk: Desk, engine: Engine) -> None:
    publish(desk, "mr", seats=["allemand"], min_reliability=80)
    token = desk.world.member("late@example.org")
    me = desk.world.accounts.authenticate(token)
    with engine.begin() as conn:
        for turn, sent in ((1, True), (2, False), (3, False)):
            conn.execute(
                insert(lt.reliability_turns).values(
                    account=me.id, campaign="old", turn=turn, player="x", sent=sent
                )
            )
    record = desk.me("GetReliability", lobby_pb2.GetReliabilityRequest(), token)
    assert (record.turns_due, record.turns_sent, record.deadlines_missed, record.percent) == (3, 1, 2, 33)
    low = refused(desk.me, "TakeSeat", seat("mr", "allemand"), token)
    assert low.code == StatusCode.PERMISSION_DENIED and "33%" in low.details and "80%" in low.details


def test_leaving_a_running_campaign_counts_and_offers_the_seat(desk: Desk, engine: Engine) -> None:
    publish(desk, "lv", seats=["allemand"])
    token = desk.world.member("quit@example.org")
    assert desk.me("TakeSeat", seat("lv", "allemand"), token).started
    desk.me("LeaveSeat", seat("lv", "allemand"), token)
    record = desk.me("GetReliability", lobby_pb2.GetReliabilityRequest(), token)
    assert record.campaigns_left == 1 and record.percent == 0
    listing = desk.call(desk.lobby, "GetListing", lobby_pb2.LobbyCampaignRequest(campaign_id="lv"))
    assert [(s.player_id, s.kind, s.taken) for s in listing.seats] == [("allemand", "left", False)]
    with engine.begin() as conn:
        assert botstore.bot_players(conn, "lv")["allemand"].reason == botstore.GAME_MASTER
    assert refused(desk.me, "LeaveSeat", seat("lv", "allemand"), token).code == StatusCode.NOT_FOUND


def test_the_game_master_opens_a_replacement_seat_of_an_unlisted_campaign(desk: Desk, engine: Engine) -> None:
    from tests.support.accounts import game_master_campaign

    game_master_campaign(engine, "priv")
    listing = desk.gm("OpenReplacementSeat", seat("priv", "calder"))
    assert listing.status == "running" and [(s.player_id, s.kind) for s in listing.seats] == [
        ("calder", "game_master")
    ]
    assert refused(desk.gm, "OpenReplacementSeat", seat("priv", "admin")).code == StatusCode.NOT_FOUND


def test_an_account_starts_a_solo_game_within_the_limits(desk: Desk, engine: Engine) -> None:
    token = desk.world.member("solo@example.org")
    ask = lobby_pb2.StartSoloRequest(campaign_id="my-solo", scenario="training", seat="allemand")
    made = desk.me("StartSolo", ask, token)
    assert made.player_id == "allemand" and made.token
    seats = desk.call(desk.accounts, "ListSeats", accounts_pb2.ListSeatsRequest(), token=token)
    assert [(s.campaign_id, s.player_id) for s in seats.seats] == [("my-solo", "allemand")]
    with engine.begin() as conn:
        assert set(botstore.bot_players(conn, "my-solo")) == {
            "barham",
            "calder",
            "cornwallis",
            "decres",
            "ganteaume",
        }
        assert conn.execute(select(at.account_seats.c.account)).scalar() is not None
    second = lobby_pb2.StartSoloRequest(campaign_id="my-solo-2", scenario="training", seat="allemand")
    assert refused(desk.me, "StartSolo", second, token).code == StatusCode.RESOURCE_EXHAUSTED
    nobody = refused(desk.call, desk.lobby, "StartSolo", second)
    assert nobody.code == StatusCode.UNAUTHENTICATED


def test_a_deleted_account_leaves_the_lobby_and_its_record(desk: Desk, engine: Engine) -> None:
    from tests.support.accounts import PASSWORD
    from tests.support.lobby import next_turn

    publish(desk, "del", seats=["allemand", "calder"], start="by_game_master", seat_policy="first_come")
    token = desk.world.member("gone@example.org")
    me = desk.world.accounts.authenticate(token).id
    desk.me("TakeSeat", seat("del", "allemand"), token)
    desk.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="del"))
    next_turn(engine, "del")
    assert desk.me("GetReliability", lobby_pb2.GetReliabilityRequest(), token).turns_due == 1
    desk.call(
        desk.accounts, "DeleteAccount", accounts_pb2.DeleteAccountRequest(password=PASSWORD), token=token
    )
    listing = desk.call(desk.lobby, "GetListing", lobby_pb2.LobbyCampaignRequest(campaign_id="del"))
    assert not next(s for s in listing.seats if s.player_id == "allemand").taken
    with engine.begin() as conn:
        for t in (lt.reliability_turns, lt.lobby_seats):
            assert conn.execute(select(t).where(t.c.account == me)).first() is None
