"""Hostile input to the Absences service (proto/pate/v1/absence.proto) over gRPC, on a real
database: every field's limit answered INVALID_ARGUMENT naming the field before any work, no
session or a forged one UNAUTHENTICATED, another player's seat never reachable (with a seat
session or an account's), the game master's call refused without his token, hostile standing
instructions refused naming the line and field, and none of it changes a stored row.  The
generic attack of every RPC (test_hostile_rpcs.py) covers the service too."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from pate.datafiles import load_scenario
from pate.v1 import absence_pb2 as pb
from pate.v1 import absence_pb2_grpc
from services.orders import campaigns
from services.orders.absence_rpc import AbsencesServicer
from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.security import sessions
from services.platform.security.auth import Authenticator
from services.platform.store import absence_tables, bots, tables
from services.platform.store import repository as repo
from services.platform.store.db import reader
from tests.support.passwords import EveryPlayer

pytestmark = pytest.mark.integration
CID = "hostile-away"
ADMIN = "an-admin-token-for-these-tests"


@pytest.fixture
def stub(engine: Engine) -> Iterator[absence_pb2_grpc.AbsencesStub]:
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            CID,
            load_scenario("training"),
            "training",
            seed=1,
            turns=6,
            first_deadline=None,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        repo.set_status(conn, CID, turn=1, expect=("STARTING",), status="OPEN")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    servicer = AbsencesServicer(engine, Authenticator(engine), ADMIN)
    start = serve_grpc([(servicer, absence_pb2_grpc.add_AbsencesServicer_to_server)], "127.0.0.1:0", "orders")
    server = asyncio.run_coroutine_threadsafe(start, loop).result(30)
    channel = grpc.insecure_channel(f"127.0.0.1:{bound_port(server)}")
    try:
        yield absence_pb2_grpc.AbsencesStub(channel)
    finally:
        channel.close()
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def _token(engine: Engine, player: str) -> tuple[tuple[str, str], ...]:
    with engine.begin() as conn:
        # issued now, not when the module was imported: a long run would find it expired
        token, _ = sessions.issue(conn, CID, player, now=datetime.now(UTC), ttl=600)
    return (("authorization", f"Bearer {token}"),)


def _rows(engine: Engine) -> tuple[int, ...]:
    with reader(engine) as conn:
        return tuple(
            conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
            for t in (
                absence_tables.absences,
                absence_tables.absence_rules,
                absence_tables.standing_instructions,
                tables.bot_players,
            )
        )


def _refused(call: object, req: object, md: tuple[tuple[str, str], ...] = ()) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call(req, metadata=md, timeout=20)  # type: ignore[operator]
    return err.value


@pytest.mark.parametrize(
    ("method", "request_", "field"),
    [
        ("DeclareAbsence", pb.DeclareAbsenceRequest(campaign_id=CID, from_turn=2, to_turn=101), "to_turn"),
        ("DeclareAbsence", pb.DeclareAbsenceRequest(campaign_id=CID, from_turn=-1, to_turn=2), "from_turn"),
        (
            "DeclareAbsence",
            pb.DeclareAbsenceRequest(campaign_id="x\x00", from_turn=2, to_turn=2),
            "campaign_id",
        ),
        ("CancelAbsence", pb.CancelAbsenceRequest(campaign_id=CID, from_turn=2**31 - 1), "from_turn"),
        ("GetAbsence", pb.GetAbsenceRequest(campaign_id=CID, player_id="../etc"), "player_id"),
        (
            "SetStandingInstructions",
            pb.SetStandingInstructionsRequest(campaign_id=CID, text="k" * 2001),
            "text",
        ),
        (
            "SetStandingInstructions",
            pb.SetStandingInstructionsRequest(campaign_id=CID, text="keep\x00"),
            "text",
        ),
        ("GetStandingInstructions", pb.GetStandingInstructionsRequest(campaign_id="A" * 41), "campaign_id"),
        ("SetAbsenceAllowance", pb.SetAbsenceAllowanceRequest(campaign_id=CID, allowance=16), "allowance"),
    ],
)
def test_each_fields_limit_is_refused_naming_it_and_nothing_is_stored(
    engine: Engine, stub: absence_pb2_grpc.AbsencesStub, method: str, request_: object, field: str
) -> None:
    before = _rows(engine)
    md = _token(engine, "cornwallis") if method != "SetAbsenceAllowance" else (("x-pate-admin-token", ADMIN),)
    err = _refused(getattr(stub, method), request_, md)
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT and (err.details() or "").startswith(f"{field}: ")
    assert _rows(engine) == before


def test_no_session_a_forged_one_or_a_bad_header_is_unauthenticated(
    engine: Engine, stub: absence_pb2_grpc.AbsencesStub
) -> None:
    before = _rows(engine)
    ask = pb.DeclareAbsenceRequest(campaign_id=CID, from_turn=2, to_turn=2)
    for md in ((), (("authorization", "Bearer forged"),), (("authorization", "Basic abc"),)):
        assert _refused(stub.DeclareAbsence, ask, md).code() is grpc.StatusCode.UNAUTHENTICATED
    assert _rows(engine) == before


def test_a_seat_session_acts_for_its_own_seat_only(
    engine: Engine, stub: absence_pb2_grpc.AbsencesStub
) -> None:
    mine = _token(engine, "cornwallis")
    other = pb.DeclareAbsenceRequest(campaign_id=CID, player_id="calder", from_turn=2, to_turn=2)
    assert _refused(stub.DeclareAbsence, other, mine).code() is grpc.StatusCode.UNAUTHENTICATED
    elsewhere = pb.GetAbsenceRequest(campaign_id="another-campaign")
    assert _refused(stub.GetAbsence, elsewhere, mine).code() is grpc.StatusCode.UNAUTHENTICATED
    text = pb.SetStandingInstructionsRequest(campaign_id=CID, text="keep in port for BR2FL")  # Calder's
    err = _refused(stub.SetStandingInstructions, text, mine)
    assert err.details() == "text: line 1: for: BR2FL is not a ship you order"
    with engine.begin() as conn:
        assert bots.bot_players(conn, CID) == {}


def test_the_allowance_is_the_game_masters(engine: Engine, stub: absence_pb2_grpc.AbsencesStub) -> None:
    """The administrator's token, or the campaign's game master's own session (his page); a
    player's session, a forged one or another campaign's game master are refused."""
    ask = pb.SetAbsenceAllowanceRequest(campaign_id=CID, allowance=5)
    forged = (("authorization", "Bearer forged"),)
    for md in ((), (("x-pate-admin-token", "wrong"),), _token(engine, "cornwallis"), forged):
        assert _refused(stub.SetAbsenceAllowance, ask, md).code() is grpc.StatusCode.PERMISSION_DENIED
    elsewhere = pb.SetAbsenceAllowanceRequest(campaign_id="another-campaign", allowance=5)
    err = _refused(stub.SetAbsenceAllowance, elsewhere, _token(engine, "admin"))
    assert err.code() is grpc.StatusCode.PERMISSION_DENIED
    assert stub.SetAbsenceAllowance(ask, metadata=_token(engine, "admin"), timeout=20).allowance == 5
    got = stub.SetAbsenceAllowance(ask, metadata=(("x-pate-admin-token", ADMIN),), timeout=20)
    assert got.allowance == 5
    missing = pb.SetAbsenceAllowanceRequest(campaign_id="no-such-campaign", allowance=5)
    err = _refused(stub.SetAbsenceAllowance, missing, (("x-pate-admin-token", ADMIN),))
    assert err.code() is grpc.StatusCode.NOT_FOUND


HOSTILE_LINES = [
    "if superior enemy sighted then return Plymouth; DROP TABLE absences",
    "keep blockade ' OR 1=1 --",
    "keep in port for " + " ".join(["BR1FL"] * 21),
    "\n".join(["keep in port"] * 11),
    "if if if then then return Plymouth",
    "return {{7*7}}",
    "keep blockade Brest\u202e",
]


@pytest.mark.parametrize("text", HOSTILE_LINES)
def test_hostile_standing_instructions_are_refused_naming_a_line_and_field(
    engine: Engine, stub: absence_pb2_grpc.AbsencesStub, text: str
) -> None:
    md = _token(engine, "cornwallis")
    err = _refused(
        stub.SetStandingInstructions, pb.SetStandingInstructionsRequest(campaign_id=CID, text=text), md
    )
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT
    details = err.details() or ""
    assert details.startswith("text: ") and len(details) <= 1000 and "Traceback" not in details
    got = stub.GetStandingInstructions(
        pb.GetStandingInstructionsRequest(campaign_id=CID), metadata=md, timeout=20
    )
    assert got.text == ""


def test_a_well_formed_round_trip(engine: Engine, stub: absence_pb2_grpc.AbsencesStub) -> None:
    """The same calls accepted: declared, read back, the open turn's seat taken by the bot."""
    md = _token(engine, "cornwallis")
    state = stub.DeclareAbsence(
        pb.DeclareAbsenceRequest(campaign_id=CID, from_turn=1, to_turn=2), metadata=md
    )
    assert state.absent_now and state.used == 2 and state.player_id == "cornwallis"
    assert stub.GetAbsence(pb.GetAbsenceRequest(campaign_id=CID), metadata=md).used == 2
    back = stub.CancelAbsence(pb.CancelAbsenceRequest(campaign_id=CID, from_turn=1), metadata=md)
    assert not back.absent_now and back.used == 0
