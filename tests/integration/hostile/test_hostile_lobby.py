"""Hostile input to every RPC of pate.v1.Lobby, in process on a migrated database: each field
out of its form is refused INVALID_ARGUMENT naming that field, at the request limits
(services/platform/security/limits.py) and again by the lobby's own checks; a call without the
administrator token or an account session is refused before any field is read; nothing is
stored by a refusal; no reply carries SQL or a traceback.  The whole-server suite
(test_hostile_rpcs.py) attacks the same RPCs over gRPC with generated messages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine, select

from pate.v1 import lobby_pb2 as pb
from services.platform.security import limits
from services.platform.security.field_rules import LimitError
from services.platform.store import account_tables as at
from services.platform.store import lobby_tables as lt
from services.platform.store import tables
from tests.support.accounts import game_master_campaign
from tests.support.lobby import Desk, RefusedError, lobby_desk, publish

pytestmark = pytest.mark.integration
SQL = re.compile(r"select|insert|sqlalchemy|sqlite|psycopg|Traceback", re.IGNORECASE)
LONG = "x" * 5000
NUL = "a\x00b"
WATCHED = (lt.lobby_listings, lt.lobby_seats, lt.lobby_asks, lt.reliability_turns, lt.reliability_left,
           at.account_seats, tables.campaigns, tables.players)  # fmt: skip


def pub(**kw: Any) -> pb.PublishRequest:
    values: dict[str, Any] = {"campaign_id": "h", "seat_policy": "first_come", "start": "when_full"}
    return pb.PublishRequest(**{**values, **kw})


def solo(**kw: Any) -> pb.StartSoloRequest:
    values = {"campaign_id": "s", "scenario": "training", "seat": "calder"}
    return pb.StartSoloRequest(**{**values, **kw})


# (method, caller, request, the field its refusal names)
CASES: list[tuple[str, str, Any, str]] = [
    ("Publish", "gm", pub(campaign_id="../etc"), "campaign_id"),
    ("Publish", "gm", pub(description=LONG), "description"),
    ("Publish", "gm", pub(time_zone="../../etc/passwd"), "time_zone"),
    ("Publish", "gm", pub(time_zone="Mars/Olympus"), "time_zone"),
    ("Publish", "gm", pub(seat_policy="whoever"), "seat_policy"),
    ("Publish", "gm", pub(start="never"), "start"),
    ("Publish", "gm", pub(min_reliability=101), "min_reliability"),
    ("Publish", "gm", pub(min_reliability=-1), "min_reliability"),
    ("Publish", "gm", pub(seats=["a"] * 201), "seats"),
    ("Publish", "gm", pub(seats=["calder", "calder"]), "seats"),
    ("Publish", "gm", pub(seats=[NUL]), "seats"),
    ("Publish", "gm", pub(seats=["admin"], campaign_id="h2"), "seats"),
    ("Browse", "anyone", pb.BrowseRequest(scenario="../x"), "scenario"),
    ("Browse", "anyone", pb.BrowseRequest(combat_rules="'; drop table"), "combat_rules"),
    ("Browse", "anyone", pb.BrowseRequest(naval_rules=LONG), "naval_rules"),
    ("Browse", "anyone", pb.BrowseRequest(max_turn_hours=-5), "max_turn_hours"),
    ("Browse", "anyone", pb.BrowseRequest(max_turn_hours=10**6), "max_turn_hours"),
    ("Browse", "anyone", pb.BrowseRequest(page_size=10**6), "page_size"),
    ("Browse", "anyone", pb.BrowseRequest(page_token="-1"), "page_token"),
    ("Browse", "anyone", pb.BrowseRequest(page_token="99999"), "page_token"),
    ("GetListing", "anyone", pb.LobbyCampaignRequest(campaign_id=NUL), "campaign_id"),
    ("StartCampaign", "gm", pb.LobbyCampaignRequest(campaign_id=LONG), "campaign_id"),
    ("ListRequests", "gm", pb.LobbyCampaignRequest(campaign_id="UPPER"), "campaign_id"),
    ("TakeSeat", "account", pb.LobbySeatRequest(campaign_id="h", player_id=NUL), "player_id"),
    ("TakeSeat", "account", pb.LobbySeatRequest(campaign_id=LONG, player_id="calder"), "campaign_id"),
    ("AskSeat", "account", pb.LobbySeatRequest(campaign_id="h", player_id=LONG), "player_id"),
    ("LeaveSeat", "account", pb.LobbySeatRequest(campaign_id="h", player_id="../x"), "player_id"),
    ("OpenReplacementSeat", "gm", pb.LobbySeatRequest(campaign_id="h", player_id=NUL), "player_id"),
    ("Approve", "gm", pb.DecideRequest(campaign_id="h", ask_id="not-hex-at-all!!"), "ask_id"),
    ("Refuse", "gm", pb.DecideRequest(campaign_id="h", ask_id=LONG), "ask_id"),
    ("StartSolo", "account", solo(scenario="../../etc/passwd", seat="calder"), "scenario"),
    ("StartSolo", "account", solo(seat=NUL), "seat"),
    ("StartSolo", "account", solo(seat="calder", combat_rules=LONG), "combat_rules"),
    ("StartSolo", "account", solo(campaign_id="S!"), "campaign_id"),
]  # fmt: skip


@pytest.fixture
def desk(engine: Engine) -> Iterator[Desk]:
    with lobby_desk(engine) as d:
        publish(d, "h", seats=["calder"])
        game_master_campaign(engine, "h2")
        yield d


def snapshot(engine: Engine) -> list[Any]:
    with engine.connect() as conn:
        return [sorted(map(tuple, conn.execute(select(t)).all()), key=repr) for t in WATCHED]


def call(desk: Desk, method: str, caller: str, request: Any, token: str) -> RefusedError:
    with pytest.raises(RefusedError) as err:
        if caller == "gm":
            desk.gm(method, request)
        elif caller == "account":
            desk.me(method, request, token)
        else:
            desk.call(desk.lobby, method, request)
    return err.value


@pytest.mark.parametrize(
    ("method", "caller", "request_", "field"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES]
)
def test_a_hostile_field_is_refused_by_name_and_stores_nothing(
    desk: Desk, method: str, caller: str, request_: Any, field: str
) -> None:
    token = desk.world.member("hostile@example.org")
    before = snapshot(desk.world.engine)
    refused = call(desk, method, caller, request_, token)
    assert refused.code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND), refused.details
    assert refused.details.startswith(f"{field}:"), refused.details
    assert not SQL.search(refused.details) and len(refused.details) <= 1000
    assert snapshot(desk.world.engine) == before


@pytest.mark.parametrize(
    ("method", "caller", "request_", "field"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES]
)
def test_the_request_limits_hold_the_same_fields(method: str, caller: str, request_: Any, field: str) -> None:
    """The server's interceptor checks these limits before a handler runs: the field's form
    (length, characters, range), where it has one."""
    try:
        limits.check_request(request_)
    except LimitError as err:
        assert str(err).startswith(field), str(err)


@pytest.mark.parametrize(
    "method", ["Publish", "StartCampaign", "ListRequests", "Approve", "Refuse", "OpenReplacementSeat"]
)
def test_the_game_masters_calls_want_the_token_before_anything(desk: Desk, method: str) -> None:
    request = next(c[2] for c in CASES if c[0] == method)
    before = snapshot(desk.world.engine)
    refused = call(desk, method, "anyone", request, "")
    assert refused.code == grpc.StatusCode.PERMISSION_DENIED and refused.details.startswith(
        "administrator token"
    )
    assert snapshot(desk.world.engine) == before


@pytest.mark.parametrize("method", ["TakeSeat", "AskSeat", "LeaveSeat", "GetReliability"])
def test_an_accounts_calls_want_its_session_before_anything(desk: Desk, method: str) -> None:
    request = (
        pb.GetReliabilityRequest()
        if method == "GetReliability"
        else pb.LobbySeatRequest(campaign_id="h", player_id="calder")
    )
    for token in ("", "forged-session-token-" + "a" * 30):
        refused = call(desk, method, "account", request, token)
        assert refused.code == grpc.StatusCode.UNAUTHENTICATED
    assert not desk.gm("GetListing", pb.LobbyCampaignRequest(campaign_id="h")).seats[0].taken


def test_a_seat_session_is_no_account_session(desk: Desk, engine: Engine) -> None:
    """A campaign seat's token (Sessions.Login) takes no lobby seat: the tables differ."""
    from services.platform.security import sessions
    from tests.support.accounts import START

    with engine.begin() as conn:
        seat_token, _ = sessions.issue(conn, "h", "cornwallis", now=START, ttl=3600)
    refused = call(
        desk, "TakeSeat", "account", pb.LobbySeatRequest(campaign_id="h", player_id="calder"), seat_token
    )
    assert refused.code == grpc.StatusCode.UNAUTHENTICATED
