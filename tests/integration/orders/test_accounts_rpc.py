"""pate.v1.Accounts over gRPC, in process on a migrated database: no answer tells whether an
address has an account (same codes, same texts), hostile input is refused naming its field
before any work, and a call without an account session costs no password check
(docs/security.md, "Accounts")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine

from pate.v1 import accounts_pb2 as pb
from pate.v1 import accounts_pb2_grpc
from services.notifier import work
from services.platform.security.throttle import ThrottlePolicy
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
KNOWN, UNKNOWN = "known@example.org", "unknown@example.org"
# generous: this file is about answers, test_accounts_throttle.py about the buckets
ROOMY = ThrottlePolicy(source_burst=50, account_burst=50, address_burst=100, settle_seconds=0.0)


@pytest.fixture
def served(engine: Engine) -> Iterator[tuple[accounts_pb2_grpc.AccountsStub, World]]:
    with smtp_sink() as (sink, inbox):
        world = make_world(engine, work.Sender(engine, sink), inbox, ROOMY)
        with serve_accounts(world) as addr, grpc.insecure_channel(addr) as channel:
            yield accounts_pb2_grpc.AccountsStub(channel), world


def answer(call: Any, request: Any, token: str = "") -> tuple[str, str]:
    """(status code, details) of a call, "OK" and the reply's text when it succeeds."""
    md = (("authorization", f"Bearer {token}"),) if token else ()
    try:
        reply = call(request, metadata=md, timeout=30)
    except grpc.RpcError as err:
        return err.code().name, err.details() or ""
    return "OK", str(reply)


def test_sign_up_login_and_reset_answer_alike_for_known_and_unknown_addresses(served: Any) -> None:
    stub, world = served
    world.member(KNOWN)
    mails = len(world.inbox.mails)
    sign_ups = {
        email: answer(stub.SignUp, pb.SignUpRequest(display_name="X", email=email, password=PASSWORD))
        for email in (KNOWN, UNKNOWN)
    }
    assert sign_ups[KNOWN] == sign_ups[UNKNOWN] and sign_ups[KNOWN][0] == "OK"
    logins = {
        email: answer(stub.Login, pb.AccountLoginRequest(email=email, password="wrong password!"))
        for email in (KNOWN, "nobody@example.org")
    }
    assert (
        logins[KNOWN]
        == logins["nobody@example.org"]
        == ("UNAUTHENTICATED", "unknown email or wrong password")
    )
    resets = {
        email: answer(stub.RequestReset, pb.RequestResetRequest(email=email))
        for email in (KNOWN, "nobody@example.org")
    }
    assert resets[KNOWN] == resets["nobody@example.org"] and resets[KNOWN][0] == "OK"
    world.deliver()
    # what differs goes only to the owner of each address: a mail each, never a reply
    assert len(world.inbox.mails) == mails + 3  # known: "already has an account", reset; unknown: verify


def test_a_link_spent_once_answers_as_an_unknown_one(served: Any) -> None:
    stub, world = served
    world.accounts.sign_up("X", KNOWN, PASSWORD, "", world.addr)
    link = world.last_token(KNOWN)
    assert answer(stub.Verify, pb.VerifyRequest(token=link))[0] == "OK"
    again = answer(stub.Verify, pb.VerifyRequest(token=link))
    assert again == answer(stub.Verify, pb.VerifyRequest(token="x" * 43))
    assert again[0] == "UNAUTHENTICATED"


def test_the_whole_flow_over_rpc(served: Any) -> None:
    stub, world = served
    game_master_campaign(world.engine, "rpc-seats")
    world.accounts.sign_up("Jervis", KNOWN, PASSWORD, "Europe/Lisbon", world.addr)
    answer(stub.Verify, pb.VerifyRequest(token=world.last_token(KNOWN)))
    login = stub.Login(pb.AccountLoginRequest(email=KNOWN, password=PASSWORD), timeout=30)
    md = (("authorization", f"Bearer {login.token}"),)
    claim = pb.ClaimSeatRequest(campaign_id="rpc-seats", player_id="barham", password=SEAT_PASSWORD)
    assert stub.ClaimSeat(claim, metadata=md, timeout=30).seat.player_id == "barham"
    assert answer(stub.ClaimSeat, claim, login.token)[0] in ("UNAUTHENTICATED", "FAILED_PRECONDITION")
    seats = stub.ListSeats(pb.ListSeatsRequest(), metadata=md, timeout=30)
    assert (seats.display_name, seats.time_zone) == ("Jervis", "Europe/Lisbon")
    assert [(s.campaign_id, s.player_id, s.status) for s in seats.seats] == [("rpc-seats", "barham", "OPEN")]
    opened = stub.OpenSeat(pb.OpenSeatRequest(campaign_id="rpc-seats", player_id="barham"), metadata=md)
    assert opened.token and opened.state
    listed = stub.ListSessions(pb.ListSessionsRequest(), metadata=md, timeout=30).sessions
    assert sorted(s.campaign_id for s in listed) == ["", "rpc-seats"]
    # a seat's token is no account token, and the other way round
    assert answer(stub.ListSeats, pb.ListSeatsRequest(), opened.token)[0] == "UNAUTHENTICATED"
    revoked = stub.RevokeSessions(pb.RevokeAccountSessionsRequest(), metadata=md, timeout=30)
    assert revoked.revoked == 2
    assert answer(stub.ListSeats, pb.ListSeatsRequest(), login.token)[0] == "UNAUTHENTICATED"


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (pb.SignUpRequest(display_name="n" * 101, email=KNOWN, password=PASSWORD), "display_name"),
        (pb.SignUpRequest(display_name="Ann\x00", email=KNOWN, password=PASSWORD), "display_name"),
        (pb.SignUpRequest(display_name="Ann", email="a" * 250 + "@x.org", password=PASSWORD), "email"),
        (
            pb.SignUpRequest(display_name="Ann", email="ann@x.org\r\nBcc: all@x.org", password=PASSWORD),
            "email",
        ),
        (pb.SignUpRequest(display_name="Ann", email=KNOWN, password="p" * 1025), "password"),
        (pb.SignUpRequest(display_name="Ann", email=KNOWN, password="short"), "password"),
        (
            pb.SignUpRequest(
                display_name="Ann", email=KNOWN, password=PASSWORD, time_zone="../../etc/passwd"
            ),
            "time_zone",
        ),
        (
            pb.SignUpRequest(display_name="Ann", email=KNOWN, password=PASSWORD, time_zone="Mars/Olympus"),
            "time_zone",
        ),
        (pb.SignUpRequest(display_name="Ann\u202e", email=KNOWN, password=PASSWORD), "display_name"),
        (pb.VerifyRequest(token="t" * 101), "token"),
        (pb.ResetPasswordRequest(token="t" * 43, new_password="p" * 2000), "new_password"),
        (pb.RevokeAccountSessionsRequest(session_id="' OR 1=1 --"), "session_id"),
    ],
)
def test_hostile_input_is_refused_naming_its_field(served: Any, request_: Any, field: str) -> None:
    stub, _ = served
    method = {
        "SignUpRequest": stub.SignUp,
        "VerifyRequest": stub.Verify,
        "ResetPasswordRequest": stub.ResetPassword,
        "RevokeAccountSessionsRequest": stub.RevokeSessions,
    }[type(request_).__name__]
    code, details = answer(method, request_, "x" * 43)
    assert code == "INVALID_ARGUMENT" and details.startswith(field), details


def test_without_an_account_session_no_password_is_checked(served: Any) -> None:
    """Authenticate before any costly work: a claim or a deletion without a live account
    session is refused before the seat's or the account's password is looked at."""
    stub, world = served
    game_master_campaign(world.engine, "rpc-cheap")
    claim = pb.ClaimSeatRequest(campaign_id="rpc-cheap", player_id="barham", password="guess guess")
    for token in ("", "not-a-session-token"):
        assert answer(stub.ClaimSeat, claim, token)[0] == "UNAUTHENTICATED"
        assert (
            answer(stub.DeleteAccount, pb.DeleteAccountRequest(password="guess"), token)[0]
            == "UNAUTHENTICATED"
        )
    assert world.accounts.throttle.tracked() == 0  # no bucket was charged: no argon2 check ran
