"""What a CreateSolo costs the orders service before it knows who asks: a forged or spent session
is refused after one lookup, with no scenario read and no password hashed, and a real one pays
for one hash (his seat's), not one per seat of the scenario."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine

from pate.v1 import bots_pb2
from services.orders import admirals, solo
from services.platform.security import sessions
from tests.integration.orders.test_solo_create import ROOMY, _token

ADMIN = "admin-token-for-the-test"


class AbortedError(Exception):
    pass


class Context:
    """The little of grpc.aio.ServicerContext that the servicer reads."""

    def __init__(self, metadata: tuple[tuple[str, str], ...] = (("x-pate-admin-token", ADMIN),)) -> None:
        self.code: grpc.StatusCode | None = None
        self.details = ""
        self.metadata = metadata

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self.metadata

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.code, self.details = code, details
        raise AbortedError(details)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"hash": 0, "scenario": 0}
    real_hash, real_scenario = admirals.hash_password, solo.scenario_for

    def hash_password(password: str) -> str:
        calls["hash"] += 1
        return real_hash(password)

    def scenario_for(ask: solo.SoloAsk) -> Any:
        calls["scenario"] += 1
        return real_scenario(ask)

    monkeypatch.setattr(admirals, "hash_password", hash_password)
    monkeypatch.setattr(solo, "scenario_for", scenario_for)
    return calls


def _ask(
    servicer: admirals.BotAdmiralsServicer, token: str, cid: str, context: Context | None = None
) -> tuple[Any, Context]:
    request = bots_pb2.CreateSoloRequest(
        session_token=token, campaign_id=cid, scenario="grand1805", seat="nelson"
    )
    context = context or Context()
    try:
        reply = asyncio.run(servicer.CreateSolo(request, context))
    except AbortedError:
        reply = None
    return reply, context


def test_a_forged_session_costs_no_scenario_and_no_hash(engine: Engine, counted: dict[str, int]) -> None:
    servicer = admirals.BotAdmiralsServicer(engine, ADMIN, limits=ROOMY)
    reply, context = _ask(servicer, "s1." + "A" * 40, "forged")
    assert reply is None and context.code == grpc.StatusCode.UNAUTHENTICATED
    assert "session_token" in context.details
    assert counted == {"hash": 0, "scenario": 0}


def test_a_real_session_pays_for_one_hash_whatever_the_seats(engine: Engine, counted: dict[str, int]) -> None:
    _token(engine)
    with engine.begin() as conn:
        token, _ = sessions.issue(conn, "home", "cornwallis", now=datetime.now(UTC), ttl=3600)
    servicer = admirals.BotAdmiralsServicer(engine, ADMIN, limits=ROOMY)
    reply, context = _ask(servicer, token, "big")
    assert context.code is None and reply is not None and reply.password
    assert counted == {"hash": 1, "scenario": 2}  # checked before the hash, read again in the transaction
    with engine.begin() as conn:
        session = sessions.lookup(conn, reply.token, now=datetime.now(UTC))
        assert session is not None and (session.campaign, session.player) == ("big", "nelson")


def test_a_player_asks_for_himself_with_his_own_session_and_no_administrator_token(
    engine: Engine, counted: dict[str, int]
) -> None:
    """The web desk holds no administrator token: the session the request names, sent as the
    call's bearer token, is the right to ask. Another bearer, or none, is refused before any work."""
    servicer = admirals.BotAdmiralsServicer(engine, ADMIN, limits=ROOMY)
    _token(engine)
    with engine.begin() as conn:
        token, _ = sessions.issue(conn, "home", "cornwallis", now=datetime.now(UTC), ttl=3600)
    for metadata in ((), (("authorization", "Bearer s1." + "B" * 40),)):
        reply, context = _ask(servicer, token, "not-his", Context(metadata))
        assert reply is None and context.code == grpc.StatusCode.PERMISSION_DENIED, metadata
    assert counted == {"hash": 0, "scenario": 0}
    reply, context = _ask(servicer, token, "his-own", Context((("authorization", f"Bearer {token}"),)))
    assert reply is not None and reply.campaign_id == "his-own", context.details
