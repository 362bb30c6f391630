"""The red team against the lobby (docs/lobby.md) and the game master's own session for his
campaign's calls (docs/security.md "Least privilege"): asks cannot flood a game master nor be
sent without end by one account; a game master's call takes only the live session of his own
campaign's game master, and anything else (a malformed header, another campaign's game
master, a spent or expired session, an account's session, a player's) is PERMISSION_DENIED,
never an internal error."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from pate.core.world.state import Role
from pate.datafiles import load_scenario
from pate.v1 import lobby_pb2
from services.orders import campaigns, reliability
from services.orders.lobby import taking
from services.platform.security import sessions
from services.platform.store import account_tables as at
from services.platform.store import bots as botstore
from services.platform.store import lobby_tables as lt
from services.platform.store import repository as repo
from services.platform.store import tables
from tests.support.lobby import Call, Desk, RefusedError, lobby_desk, next_turn, publish
from tests.support.passwords import EveryPlayer

pytestmark = pytest.mark.integration
DENIED = grpc.StatusCode.PERMISSION_DENIED


@pytest.fixture
def desk(engine: Engine) -> Iterator[Desk]:
    with lobby_desk(engine) as d:
        yield d


def refused(fn: Any, *args: Any) -> RefusedError:
    with pytest.raises(RefusedError) as err:
        fn(*args)
    return err.value


def seat(campaign: str, player: str) -> lobby_pb2.LobbySeatRequest:
    return lobby_pb2.LobbySeatRequest(campaign_id=campaign, player_id=player)


def asking(desk: Desk, campaign: str) -> None:
    publish(desk, campaign, seats=["allemand"], seat_policy="approval", start="by_game_master")


def test_an_account_has_a_bounded_number_of_asks_waiting(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taking, "MAX_WAITING_PER_ACCOUNT", 2)
    for cid in ("ask-a", "ask-b", "ask-c"):
        asking(desk, cid)
    flood = desk.world.member("flood@example.org")
    first = desk.me("AskSeat", seat("ask-a", "allemand"), flood)
    desk.me("AskSeat", seat("ask-b", "allemand"), flood)
    err = refused(desk.me, "AskSeat", seat("ask-c", "allemand"), flood)
    assert err.code == grpc.StatusCode.RESOURCE_EXHAUSTED and err.details.startswith("campaign_id: 2 ")
    listed = desk.gm("ListRequests", lobby_pb2.LobbyCampaignRequest(campaign_id="ask-c"))
    assert list(listed.asks) == []  # nothing was stored
    # an answered ask waits no more: the account may ask elsewhere
    desk.gm("Refuse", lobby_pb2.DecideRequest(campaign_id="ask-a", ask_id=first.ask_id))
    assert desk.me("AskSeat", seat("ask-c", "allemand"), flood).state == "waiting"


def test_a_game_master_is_asked_a_bounded_number_of_times(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(taking, "MAX_WAITING_PER_CAMPAIGN", 2)
    asking(desk, "popular")
    for n in range(2):
        desk.me("AskSeat", seat("popular", "allemand"), desk.world.member(f"fan{n}@example.org"))
    late = desk.world.member("late@example.org")
    err = refused(desk.me, "AskSeat", seat("popular", "allemand"), late)
    assert err.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "game master" in err.details
    listed = desk.gm("ListRequests", lobby_pb2.LobbyCampaignRequest(campaign_id="popular"))
    assert len(listed.asks) == 2


def as_caller(desk: Desk, method: str, request: Any, md: dict[str, str]) -> Any:
    return asyncio.run(getattr(desk.lobby, method)(request, Call(md)))


def test_only_a_live_session_of_this_campaigns_game_master_acts_for_it(desk: Desk, engine: Engine) -> None:
    asking(desk, "mine")
    asking(desk, "theirs")
    clock = desk.world.clock
    with engine.begin() as conn:
        own, _ = sessions.issue(conn, "mine", "admin", now=clock(), ttl=3600)
        other_gm, _ = sessions.issue(conn, "theirs", "admin", now=clock(), ttl=3600)
        player, _ = sessions.issue(conn, "mine", "cornwallis", now=clock(), ttl=3600)
        spent, _ = sessions.issue(conn, "mine", "admin", now=clock(), ttl=3600)
        sessions.revoke(conn, spent, now=clock())
        short, _ = sessions.issue(conn, "mine", "admin", now=clock(), ttl=60)
    account = desk.world.member("someone@example.org")
    clock.advance(seconds=120)
    requests = lobby_pb2.LobbyCampaignRequest(campaign_id="mine")
    assert list(as_caller(desk, "ListRequests", requests, {"authorization": f"Bearer {own}"}).asks) == []
    hostile = [
        {"authorization": "Basic YWRtaW46YWRtaW4="},
        {"authorization": "Bearer "},
        {"authorization": "Bearer " + "A" * 20000},
        {"authorization": "bearer \x7f\x00"},
        {"authorization": f"Bearer {other_gm}"},  # another campaign's game master
        {"authorization": f"Bearer {player}"},  # a player of this campaign
        {"authorization": f"Bearer {spent}"},  # logged out
        {"authorization": f"Bearer {short}"},  # expired
        {"authorization": f"Bearer {account}"},  # an account's session
        {"authorization": f"Bearer {own}", "x-pate-player": "cornwallis"},  # his token, another name
        {"x-pate-player": "admin", "x-pate-password": "guess"},  # a password is no session
        {"x-pate-admin-token": "wrong", "authorization": f"Bearer {other_gm}"},
    ]
    for md in hostile:
        for method, request in (
            ("ListRequests", requests),
            ("StartCampaign", requests),
            ("OpenReplacementSeat", seat("mine", "allemand")),
            (
                "Publish",
                lobby_pb2.PublishRequest(campaign_id="mine", seat_policy="first_come", start="when_full"),
            ),
        ):
            err = refused(as_caller, desk, method, request, md)
            assert (err.code, err.details.split(" (")[0]) == (
                DENIED,
                "administrator token missing or wrong",
            ), (
                method,
                md,
            )
    # the game master of "theirs" publishes, starts or replaces nothing of "mine"
    listing = desk.call(desk.lobby, "GetListing", requests)
    assert listing.status == "open" and [s.kind for s in listing.seats] == ["start"]


def test_a_running_campaigns_listing_tells_nobody_which_ships_a_side_has_now(
    desk: Desk, engine: Engine
) -> None:
    """Anyone reads a listing; an enemy reading it learnt the seat's ships of the turn open
    (a ship lost, taken or laid up in a battle his reports never saw)."""
    publish(desk, "fogged", seats=["allemand"], start="by_game_master")
    desk.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="fogged"))
    before = {s.player_id: (s.ships, s.words) for s in listing(desk, "fogged").seats}
    assert before["allemand"][0] == 3 and "Magnanime" in before["allemand"][1]
    turn = next_turn(engine, "fogged")
    with engine.begin() as conn:  # Magnanime lost in a battle the other side never saw
        world = repo.load_world(conn, "fogged", turn)
        lost = dataclasses.replace(world, ships={k: v for k, v in world.ships.items() if k != "FR4SL"})
        w = tables.world_states
        conn.execute(sa.delete(w).where(sa.and_(w.c.campaign == "fogged", w.c.turn == turn)))
        repo.save_world(conn, "fogged", turn, lost)
    after = listing(desk, "fogged")
    assert after.turn == turn
    assert {s.player_id: (s.ships, s.words) for s in after.seats} == before
    browsed = desk.call(desk.lobby, "Browse", lobby_pb2.BrowseRequest())
    shown = {s.player_id: s.ships for x in browsed.listings if x.campaign_id == "fogged" for s in x.seats}
    assert shown == {"allemand": 3}


def listing(desk: Desk, campaign: str) -> lobby_pb2.Listing:
    return desk.call(desk.lobby, "GetListing", lobby_pb2.LobbyCampaignRequest(campaign_id=campaign))


def playing_master_campaign(engine: Engine, campaign: str) -> None:
    """A campaign whose game master plays a side too: Allemand's seat has the admin role."""
    scenario = load_scenario("training")
    allemand = scenario.world.players["allemand"]
    master = dataclasses.replace(allemand, roles=allemand.roles | {Role.ADMIN})
    world = dataclasses.replace(scenario.world, players={**scenario.world.players, "allemand": master})
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            campaign,
            dataclasses.replace(scenario, world=world),
            "training",
            seed=1,
            turns=15,
            first_deadline=None,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        repo.set_status(conn, campaign, turn=1, expect=("STARTING",), status="OPEN")


def test_the_game_masters_own_seat_is_never_offered_nor_taken(desk: Desk, engine: Engine) -> None:
    """A stranger who took it would run the campaign: its turns, deadlines, every report."""
    playing_master_campaign(engine, "gmplays")
    asked = lobby_pb2.PublishRequest(
        campaign_id="gmplays", seat_policy="first_come", start="by_game_master", seats=["allemand"]
    )
    err = refused(desk.gm, "Publish", asked)
    assert err.code == grpc.StatusCode.INVALID_ARGUMENT and "game master's" in err.details
    del asked.seats[:]
    offered = {s.player_id for s in desk.gm("Publish", asked).seats}
    assert "allemand" not in offered and {"calder", "ganteaume"} <= offered
    desk.gm("StartCampaign", lobby_pb2.LobbyCampaignRequest(campaign_id="gmplays"))
    err = refused(desk.gm, "OpenReplacementSeat", seat("gmplays", "allemand"))
    assert err.code == grpc.StatusCode.FAILED_PRECONDITION and "game master" in err.details
    with engine.begin() as conn:  # he misses his deadlines: civil disorder offers him no more
        botstore.put_player(conn, "gmplays", botstore.BotPlayer("allemand", 3, botstore.CIVIL_DISORDER, 1))
        reliability.at_close(conn, "gmplays", 1)
        assert "allemand" not in {s.player_id for s in listing(desk, "gmplays").seats}
        # and were it offered all the same (a row of an older server), nobody takes it
        conn.execute(
            sa.insert(lt.lobby_seats).values(
                campaign="gmplays", player="allemand", kind="civil_disorder", opened_at=desk.world.clock()
            )
        )
    stranger = desk.world.member("usurper@example.org")
    err = refused(desk.me, "TakeSeat", seat("gmplays", "allemand"), stranger)
    assert err.code == grpc.StatusCode.NOT_FOUND
    with engine.begin() as conn:
        held = conn.execute(sa.select(at.account_seats).where(at.account_seats.c.campaign == "gmplays")).all()
    assert held == []
