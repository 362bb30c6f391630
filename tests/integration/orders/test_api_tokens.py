"""API tokens over gRPC, in process on a migrated database (docs/api.md): a token opens only
the seats in its scope, a read-only one's session reads reports and never orders, it never
opens a game master's seat nor any other Accounts call, it is shown once and stored hashed,
and it ends when revoked, at its expiry, with a new password and with the account."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine, select

from pate.v1 import accounts_pb2 as pb
from pate.v1 import accounts_pb2_grpc
from services.notifier import work
from services.platform.errors import Code, DeskError
from services.platform.security.auth import Credentials
from services.platform.security.throttle import ThrottlePolicy
from services.platform.store import account_tables as at
from tests.support.accounts import (
    PASSWORD,
    SEAT_PASSWORD,
    World,
    game_master_campaign,
    make_world,
    serve_accounts,
)
from tests.support.mailsink import smtp_sink

pytestmark = pytest.mark.integration
ME, OTHER = "me@example.org", "other@example.org"
C = "tok-camp"
ROOMY = ThrottlePolicy(source_burst=50, account_burst=50, address_burst=100, settle_seconds=0.0)


@pytest.fixture
def served(engine: Engine) -> Iterator[tuple[accounts_pb2_grpc.AccountsStub, World]]:
    with smtp_sink() as (sink, inbox):
        world = make_world(engine, work.Sender(engine, sink), inbox, ROOMY)
        game_master_campaign(engine, C)
        with serve_accounts(world) as addr, grpc.insecure_channel(addr) as channel:
            yield accounts_pb2_grpc.AccountsStub(channel), world


def md(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def code_of(call: Any, request: Any, token: str) -> str:
    try:
        call(request, metadata=md(token), timeout=30)
    except grpc.RpcError as err:
        return str(err.code().name)
    return "OK"


def seated(world: World, email: str, *players: str) -> str:
    """A verified account holding ``players`` of C: its session token."""
    token = world.member(email)
    for p in players:
        world.seats.claim(token, C, p, SEAT_PASSWORD, world.addr)
    return token


def make(stub: Any, token: str, *seats: str, read_only: bool = True, days: int = 0) -> Any:
    req = pb.CreateApiTokenRequest(
        name="my bot",
        read_only=read_only,
        all_seats=not seats,
        seats=[pb.ApiTokenSeat(campaign_id=C, player_id=p) for p in seats],
        expires_in_days=days,
    )
    return stub.CreateApiToken(req, metadata=md(token), timeout=30)


def open_seat(stub: Any, api: str, player: str) -> Any:
    return stub.OpenSeat(pb.OpenSeatRequest(campaign_id=C, player_id=player), metadata=md(api), timeout=30)


def test_a_read_only_token_reads_reports_and_never_sends_orders(served: Any) -> None:
    stub, world = served
    me = seated(world, ME, "barham")
    made = make(stub, me, "barham")
    assert made.token.startswith(f"pate_at_{made.info.token_id}_") and made.info.read_only
    seat = open_seat(stub, made.token, "barham").token
    creds = Credentials(token=seat, source=world.addr)
    # the order desk's path (every caller but the reports service) refuses it ...
    with pytest.raises(DeskError) as refused:
        world.auth.caller(C, creds)
    assert refused.value.code is Code.PERMISSION_DENIED
    # ... the reports service's takes it, as the player it opened
    assert world.auth.caller(C, creds, read_only_ok=True).id == "barham"
    orders = make(stub, me, "barham", read_only=False)
    assert (
        world.auth.caller(C, Credentials(token=open_seat(stub, orders.token, "barham").token)).id == "barham"
    )


def test_a_token_reaches_only_the_seats_in_its_scope(served: Any) -> None:
    stub, world = served
    me = seated(world, ME, "barham", "calder")
    seated(world, OTHER, "decres")
    one = make(stub, me, "barham").token
    assert open_seat(stub, one, "barham").token
    assert code_of(stub.OpenSeat, pb.OpenSeatRequest(campaign_id=C, player_id="calder"), one) == "NOT_FOUND"
    every = make(stub, me).token  # all seats: his, never another account's
    assert open_seat(stub, every, "calder").token
    assert code_of(stub.OpenSeat, pb.OpenSeatRequest(campaign_id=C, player_id="decres"), every) == "NOT_FOUND"
    listed = stub.ListApiTokens(pb.ListApiTokensRequest(), metadata=md(me), timeout=30).tokens
    # made at the same moment of the test's clock: in no particular order
    assert sorted((t.all_seats, [s.player_id for s in t.seats]) for t in listed) == [
        (False, ["barham"]),
        (True, []),
    ]
    # naming a seat not his at creation is refused, naming the field
    req = pb.CreateApiTokenRequest(name="x", seats=[pb.ApiTokenSeat(campaign_id=C, player_id="decres")])
    with pytest.raises(grpc.RpcError) as err:
        stub.CreateApiToken(req, metadata=md(me), timeout=30)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND and err.value.details().startswith("seats")


def test_never_a_game_masters_seat_nor_another_accounts_call(served: Any) -> None:
    stub, world = served
    me = seated(world, ME, "barham", "admin")  # the scenario's game master seat, claimed
    api = make(stub, me, read_only=False).token
    assert (
        code_of(stub.OpenSeat, pb.OpenSeatRequest(campaign_id=C, player_id="admin"), api)
        == "PERMISSION_DENIED"
    )
    for call, req in (
        (stub.ListSeats, pb.ListSeatsRequest()),
        (stub.CreateApiToken, pb.CreateApiTokenRequest(name="more", all_seats=True)),
        (stub.ChangePassword, pb.ChangePasswordRequest(password=PASSWORD, new_password="x" * 12)),
        (stub.DeleteAccount, pb.DeleteAccountRequest(password=PASSWORD)),
        (stub.UpdateAccount, pb.UpdateAccountRequest(display_name="Pirate")),
    ):
        assert code_of(call, req, api) == "UNAUTHENTICATED", call


def test_shown_once_stored_hashed_and_revocable(served: Any) -> None:
    stub, world = served
    me = seated(world, ME, "barham")
    made = make(stub, me, "barham", read_only=False)
    seat = open_seat(stub, made.token, "barham").token
    with world.engine.connect() as conn:
        rows = conn.execute(select(at.api_tokens)).all()
    assert len(rows) == 1 and made.token.split("_")[-1] not in repr(tuple(rows[0]))
    listed = stub.ListApiTokens(pb.ListApiTokensRequest(), metadata=md(me), timeout=30)
    assert made.token not in str(listed) and listed.tokens[0].prefix == made.info.prefix
    assert listed.tokens[0].HasField("last_used_at")
    out = stub.RevokeApiToken(pb.RevokeApiTokenRequest(token_id=made.info.token_id), metadata=md(me))
    assert out.revoked == 1
    assert code_of(stub.OpenSeat, pb.OpenSeatRequest(campaign_id=C, player_id="barham"), made.token) == (
        "UNAUTHENTICATED"
    )
    with pytest.raises(DeskError):  # the seat session it opened ended with it
        world.auth.caller(C, Credentials(token=seat))
    assert not stub.ListApiTokens(pb.ListApiTokensRequest(), metadata=md(me), timeout=30).tokens


def test_a_new_password_or_the_accounts_deletion_ends_every_token(served: Any) -> None:
    stub, world = served
    me = seated(world, ME, "barham")
    api = make(stub, me).token
    fresh, _ = world.seats.change_password(me, PASSWORD, "another long password", world.addr)
    assert (
        code_of(stub.OpenSeat, pb.OpenSeatRequest(campaign_id=C, player_id="barham"), api)
        == "UNAUTHENTICATED"
    )
    make(stub, fresh)
    world.seats.delete(fresh, "another long password", world.addr)
    with world.engine.connect() as conn:
        assert conn.execute(select(at.api_tokens)).all() == []


def test_expiry_bounds_the_token_and_its_seat_sessions(served: Any) -> None:
    stub, world = served
    me = seated(world, ME, "barham")
    made = make(stub, me, "barham", days=1)
    world.clock.advance(hours=20)
    opened = open_seat(stub, made.token, "barham")
    assert opened.expires_at.ToDatetime() <= made.info.expires_at.ToDatetime()  # never past the token
    world.clock.advance(hours=5)
    assert code_of(stub.OpenSeat, pb.OpenSeatRequest(campaign_id=C, player_id="barham"), made.token) == (
        "UNAUTHENTICATED"
    )


def test_guessing_a_tokens_secret_is_throttled_as_a_login(engine: Engine) -> None:
    tight = ThrottlePolicy(source_burst=3, source_per_minute=1, settle_seconds=0.0)
    with smtp_sink() as (sink, inbox):
        world = make_world(engine, work.Sender(engine, sink), inbox, tight)
        game_master_campaign(engine, C)
        with serve_accounts(world) as addr, grpc.insecure_channel(addr) as channel:
            stub = accounts_pb2_grpc.AccountsStub(channel)
            me = seated(world, ME, "barham")
            made = make(stub, me, "barham")
            wrong = f"pate_at_{made.info.token_id}_{'A' * 43}"
            req = pb.OpenSeatRequest(campaign_id=C, player_id="barham")
            codes = [code_of(stub.OpenSeat, req, wrong) for _ in range(5)]
            assert codes[:3] == ["UNAUTHENTICATED"] * 3 and codes[-1] == "RESOURCE_EXHAUSTED"
