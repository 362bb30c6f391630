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

from pate.v1 import lobby_pb2
from services.orders.lobby import taking
from services.platform.security import sessions
from services.platform.store import repository as repo
from services.platform.store import tables
from tests.support.lobby import Call, Desk, RefusedError, lobby_desk, next_turn, publish

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
