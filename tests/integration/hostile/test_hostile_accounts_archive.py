"""Hostile input to the API-token, account-edit and archive calls, each field by name, in
process on a migrated database (docs/security.md, "Limits and hostile input"): a refusal names
its field, changes nothing and carries no SQL or traceback; a malformed API token costs no
database read of tokens and no throttle bucket.  (test_hostile_rpcs.py attacks the same RPCs
with generated requests over the whole stack.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine, func, select

from pate.v1 import accounts_pb2 as pb
from pate.v1 import accounts_pb2_grpc, result_pb2
from services.notifier import work
from services.platform.store import account_tables as at
from services.platform.store import tables
from tests.support.accounts import (
    PASSWORD,
    SEAT_PASSWORD,
    World,
    game_master_campaign,
    make_world,
    serve_accounts,
)
from tests.support.mailsink import smtp_sink
from tests.support.results import refusal, results_stub

pytestmark = pytest.mark.integration
OLD, NEW = "old@example.org", "new@example.org"
SQL_OR_TRACE = ("select ", "sqlalchemy", "sqlite", "psycopg", "traceback", 'file "')


@pytest.fixture
def stub(engine: Engine) -> Iterator[Any]:
    with results_stub(engine) as out:
        yield out


@pytest.fixture
def world(engine: Engine) -> Iterator[World]:
    with smtp_sink() as (sink, inbox):
        yield make_world(engine, work.Sender(engine, sink), inbox)


def clean(details: str) -> bool:
    return not any(bad in details.lower() for bad in SQL_OR_TRACE) and len(details) < 300


@pytest.mark.parametrize(
    "bearer",
    [
        "pate_at_",
        "pate_at_' OR 1=1 --",
        "pate_at_0123456789ab_' OR '1'='1",
        "pate_at_0123456789AB_" + "A" * 43,  # upper-case id: no token has one
        "pate_at_0123456789ab_" + "A" * 5000,
        "pate_at_0123456789ab_" + "A" * 19,  # too short a secret
        "pate_at_../../etc/passwd_" + "A" * 43,
    ],
)
def test_malformed_api_tokens_are_refused_before_any_work(world: World, bearer: str) -> None:
    game_master_campaign(world.engine, "hostile-tok")
    with serve_accounts(world) as addr, grpc.insecure_channel(addr) as channel:
        stub_ = accounts_pb2_grpc.AccountsStub(channel)
        with pytest.raises(grpc.RpcError) as err:
            req = pb.OpenSeatRequest(campaign_id="hostile-tok", player_id="barham")
            stub_.OpenSeat(req, metadata=(("authorization", f"Bearer {bearer}"),), timeout=30)
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED and clean(err.value.details() or "")
    assert world.accounts.throttle.tracked() == 0  # no bucket charged: it never looked like a token
    with world.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(tables.sessions)).scalar_one() == 0


def test_a_real_token_id_with_a_wrong_secret_opens_nothing(world: World) -> None:
    game_master_campaign(world.engine, "hostile-tok")
    me = world.member(OLD)
    world.seats.claim(me, "hostile-tok", "barham", SEAT_PASSWORD, world.addr)
    with serve_accounts(world) as addr, grpc.insecure_channel(addr) as channel:
        stub_ = accounts_pb2_grpc.AccountsStub(channel)
        made = stub_.CreateApiToken(
            pb.CreateApiTokenRequest(name="bot", all_seats=True),
            metadata=(("authorization", f"Bearer {me}"),),
        )
        forged = made.token[:-1] + ("A" if made.token[-1] != "A" else "B")
        with pytest.raises(grpc.RpcError) as err:
            req = pb.OpenSeatRequest(campaign_id="hostile-tok", player_id="barham")
            stub_.OpenSeat(req, metadata=(("authorization", f"Bearer {forged}"),), timeout=30)
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED and clean(err.value.details() or "")
    with world.engine.connect() as conn:  # only the account's claim revoked seat sessions: none opened
        live = conn.execute(select(tables.sessions).where(tables.sessions.c.revoked_at.is_(None))).all()
    assert live == []


@pytest.mark.parametrize(
    ("req", "field"),
    [
        (pb.UpdateAccountRequest(display_name="n" * 101), "display_name"),
        (pb.UpdateAccountRequest(display_name="Ann\u202e"), "display_name"),
        (pb.UpdateAccountRequest(time_zone="../../etc/passwd"), "time_zone"),
        (pb.UpdateAccountRequest(time_zone="Europe/Paris", clear_time_zone=True), "time_zone"),
        (pb.UpdateAccountRequest(email="a@b.org\r\nBcc: all@x.org", password=PASSWORD), "email"),
        (pb.UpdateAccountRequest(email=NEW, password="p" * 1025), "password"),
        (pb.CreateApiTokenRequest(name="", all_seats=True), "name"),
        (pb.CreateApiTokenRequest(name="n" * 65, all_seats=True), "name"),
        (pb.CreateApiTokenRequest(name="bot\x07", all_seats=True), "name"),
        (pb.CreateApiTokenRequest(name="bot", all_seats=True, expires_in_days=366), "expires_in_days"),
        (pb.CreateApiTokenRequest(name="bot", all_seats=True, expires_in_days=-1), "expires_in_days"),
        (pb.CreateApiTokenRequest(name="bot"), "seats"),
        (
            pb.CreateApiTokenRequest(
                name="bot", seats=[pb.ApiTokenSeat(campaign_id="c", player_id="p")] * 51
            ),
            "seats",
        ),
        (
            pb.CreateApiTokenRequest(
                name="bot", seats=[pb.ApiTokenSeat(campaign_id="c" * 65, player_id="p")]
            ),
            "seats",
        ),
        (pb.RevokeApiTokenRequest(token_id="' OR 1=1 --"), "token_id"),
    ],
)
def test_hostile_edits_and_tokens_are_refused_naming_the_field(world: World, req: Any, field: str) -> None:
    token = world.member(OLD)
    method = {
        "UpdateAccountRequest": "UpdateAccount",
        "CreateApiTokenRequest": "CreateApiToken",
        "RevokeApiTokenRequest": "RevokeApiToken",
    }[type(req).__name__]
    with serve_accounts(world) as addr, grpc.insecure_channel(addr) as channel:
        call = getattr(accounts_pb2_grpc.AccountsStub(channel), method)
        with pytest.raises(grpc.RpcError) as err:
            call(req, metadata=(("authorization", f"Bearer {token}"),), timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and err.value.details().startswith(field)
    with world.engine.connect() as conn:  # nothing changed
        row = conn.execute(select(at.accounts)).one()
        assert (row.display_name, row.email) == ("Horatio", OLD)
        assert conn.execute(select(at.api_tokens)).all() == []


@pytest.mark.parametrize(
    ("method", "req", "field"),
    [
        ("ListArchive", result_pb2.ListArchiveRequest(page_size=51), "page_size"),
        ("ListArchive", result_pb2.ListArchiveRequest(page_size=-1), "page_size"),
        ("ListArchive", result_pb2.ListArchiveRequest(page_token="a" * 65), "page_token"),
        ("ListArchive", result_pb2.ListArchiveRequest(page_token="a\x00' OR 1=1"), "page_token"),
        ("GetArchived", result_pb2.GetArchivedRequest(campaign_id="c" * 65), "campaign_id"),
        ("GetArchived", result_pb2.GetArchivedRequest(campaign_id=""), "campaign_id"),
    ],
)
def test_hostile_archive_requests_are_refused_naming_the_field(
    stub: Any, method: str, req: Any, field: str
) -> None:
    code, details = refusal(getattr(stub, method), req)
    assert code == "INVALID_ARGUMENT" and details.startswith(field), details
