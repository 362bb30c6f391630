"""Order intake's hot path and grouped writer, on the desk's own code and a real database.

Rule 4.1: "orders are accepted until the deadline" and the last order sent for a
ship counts.  A group of submissions stored by ``record_group`` must leave the
same rows as the same submissions stored one by one by ``record_submission``,
refuse a turn that closed since the check, replay an identical request and
refuse a request id reused for a different request.
"""

from __future__ import annotations

import hashlib

import pytest
import sqlalchemy as sa

from pate.v1 import common_pb2, orders_pb2
from services.orders import desk, intake
from services.platform.errors import Code, DeskError
from services.platform.security.auth import Authenticator, Credentials
from services.platform.store import repository as repo
from services.platform.store import tables
from services.platform.store.db import reader
from services.platform.store.repository import intake as batch
from tests.support.passwords import open_training_campaign

pytestmark = pytest.mark.integration


def _campaign(engine: sa.Engine, cid: str) -> None:
    with engine.begin() as conn:
        open_training_campaign(conn, cid)


def _request(
    cid: str, rid: str, stance: str = "engage", ship: str = "BR1FL"
) -> orders_pb2.SubmitOrdersRequest:
    order = common_pb2.ShipOrder(ship_id=ship, combat=common_pb2.Combat(stance=stance))
    return orders_pb2.SubmitOrdersRequest(campaign_id=cid, turn=1, orders=[order], client_request_id=rid)


def _fingerprint(req: orders_pb2.SubmitOrdersRequest) -> bytes:
    return hashlib.sha256(req.SerializeToString(deterministic=True)).digest()


def _warm(engine: sa.Engine, auth: Authenticator, turns: intake.OpenTurns, cid: str, token: str) -> None:
    """What the full path leaves in memory: the session, the open turn, the world."""
    with reader(engine) as conn:
        auth.token_caller(conn, cid, Credentials(token=token))
        turns.remember(desk.open_turn(conn, cid, 1, lock=False))
        repo.load_world_cached(conn, cid, 1)


def _hot(
    engine: sa.Engine,
    auth: Authenticator,
    turns: intake.OpenTurns,
    token: str,
    req: orders_pb2.SubmitOrdersRequest,
) -> intake.Submission:
    found = intake.check_from_memory(
        auth, turns, repo.database_key(engine), req, Credentials(token=token), _fingerprint(req)
    )
    assert found is not None
    return found


def _orders_rows(engine: sa.Engine, cid: str) -> list[tuple[object, ...]]:
    o = tables.orders.c
    with reader(engine) as conn:
        return [
            tuple(r)
            for r in conn.execute(
                sa.select(o.ship_id, o.author_player, o.author_role, o.seq, o.order_json, o.client_request_id)
                .where(o.campaign == cid)
                .order_by(o.seq)
            )
        ]


def test_a_group_stores_what_one_by_one_stores(engine: sa.Engine) -> None:
    auth, turns = Authenticator(engine), intake.OpenTurns(seconds=60)
    for cid in ("grouped", "alone"):
        _campaign(engine, cid)
    requests = {
        cid: [_request(cid, f"r{i}", stance) for i, stance in enumerate(("engage", "evade", "accept"))]
        for cid in ("grouped", "alone")
    }
    with engine.begin() as conn:
        token, _ = _login(conn, "grouped")
        token_alone, _ = _login(conn, "alone")
    _warm(engine, auth, turns, "grouped", token)
    _warm(engine, auth, turns, "alone", token_alone)

    group = [_hot(engine, auth, turns, token, r) for r in requests["grouped"]]
    with engine.begin() as conn:
        answers = intake.record_group(conn, group)
    assert answers == [(["BR1FL"], False)] * 3

    for req in requests["alone"]:
        sub = _hot(engine, auth, turns, token_alone, req)
        with engine.begin() as conn:
            desk.record_submission(conn, "alone", 1, sub.checked, sub.orders, sub.request_id, sub.fingerprint)

    assert _orders_rows(engine, "grouped") == _orders_rows(engine, "alone")
    assert [r[3] for r in _orders_rows(engine, "grouped")] == [1, 2, 3]  # the last one sent counts (4.1)
    a = tables.audit.c
    with reader(engine) as conn:
        audits = conn.execute(
            sa.select(a.campaign, a.accepted, a.detail_json).where(a.action == "submit_orders")
        )
        kept = sorted(tuple(r) for r in audits)
    assert kept == sorted([("grouped", True, '["BR1FL"]')] * 3 + [("alone", True, '["BR1FL"]')] * 3)


def test_a_group_replays_refuses_reuse_and_a_closed_turn(engine: sa.Engine) -> None:
    auth, turns = Authenticator(engine), intake.OpenTurns(seconds=60)
    for cid in ("open-one", "closing"):
        _campaign(engine, cid)
    with engine.begin() as conn:
        token, _ = _login(conn, "open-one")
        token_closing, _ = _login(conn, "closing")
    _warm(engine, auth, turns, "open-one", token)
    _warm(engine, auth, turns, "closing", token_closing)

    first = _hot(engine, auth, turns, token, _request("open-one", "same"))
    again = _hot(engine, auth, turns, token, _request("open-one", "same"))
    reused = _hot(engine, auth, turns, token, _request("open-one", "same", stance="evade"))
    late = _hot(engine, auth, turns, token_closing, _request("closing", "late"))
    early = _hot(engine, auth, turns, token_closing, _request("closing", "early", stance="accept"))
    with engine.begin() as conn:
        assert intake.record_group(conn, [early]) == [(["BR1FL"], False)]
    with engine.begin() as conn:  # the turn closes after the check and before the write
        repo.set_status(conn, "closing", turn=1, expect=("OPEN",), status="CLOSED")
    with engine.begin() as conn:
        answers = intake.record_group(conn, [first, again, reused, late])
    assert answers[0] == (["BR1FL"], False)
    assert answers[1] == (["BR1FL"], True)  # the identical copy replays the first
    assert isinstance(answers[2], DeskError) and answers[2].code == Code.INVALID_ARGUMENT
    assert isinstance(answers[3], DeskError) and answers[3].code == Code.FAILED_PRECONDITION
    assert len(_orders_rows(engine, "open-one")) == 1 and len(_orders_rows(engine, "closing")) == 1

    # a retry of a request accepted before the close is still its replay (as on the full path)
    with engine.begin() as conn:
        assert intake.record_group(conn, [early]) == [(["BR1FL"], True)]

    # an earlier transaction's request id replays too, and a reuse is still refused
    with engine.begin() as conn:
        later = intake.record_group(conn, [again, reused])
    assert later[0] == (["BR1FL"], True)
    assert isinstance(later[1], DeskError) and later[1].code == Code.INVALID_ARGUMENT


def test_memory_alone_never_accepts_what_the_full_path_would_refuse(engine: sa.Engine) -> None:
    auth, turns = Authenticator(engine), intake.OpenTurns(seconds=60)
    _campaign(engine, "strict")
    with engine.begin() as conn:
        token, _ = _login(conn, "strict")
    db = repo.database_key(engine)

    def hot(req: orders_pb2.SubmitOrdersRequest, creds: Credentials) -> intake.Submission | None:
        return intake.check_from_memory(auth, turns, db, req, creds, _fingerprint(req))

    good = _request("strict", "ok")
    assert hot(good, Credentials(token=token)) is None  # nothing known yet: the full path answers
    _warm(engine, auth, turns, "strict", token)
    assert hot(good, Credentials(token=token)) is not None
    assert hot(_request("strict", "x", ship="FR1FL"), Credentials(token=token)) is None  # not his ship
    assert hot(_request("strict", "x", stance="charge"), Credentials(token=token)) is None  # no such stance
    assert hot(good, Credentials(token=token, player="ganteaume")) is None  # another player's name
    assert hot(good, Credentials(token="not-a-token")) is None
    wrong_turn = _request("strict", "t")
    wrong_turn.turn = 2
    assert hot(wrong_turn, Credentials(token=token)) is None
    auth.logout(token)  # revoked through this process: forgotten at once
    assert hot(good, Credentials(token=token)) is None


def _login(conn: sa.Connection, cid: str) -> tuple[str, object]:
    from services.platform.security import sessions

    return sessions.issue(conn, cid, "cornwallis", now=repo.now(), ttl=3600)


def test_a_groups_lookups_are_index_probes_not_table_scans(engine: sa.Engine) -> None:
    """A row-value IN list made SQLite scan every stored request and every order of the
    campaign for each group, so a group cost time in proportion to what was stored before it."""
    if engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL's plans follow its statistics; its group reads are planned afresh each time")
    requests, tops = batch._QUERIES["sqlite"]
    with reader(engine) as conn:
        for query in (requests, tops):
            compiled = query.compile(dialect=conn.dialect)
            values = compiled.construct_params({"keys": "[]"})
            params = tuple(values[name] for name in compiled.positiontup or ())
            rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", params)
            plan = " | ".join(row[3] for row in rows)
            assert "SCAN order_requests" not in plan and "SCAN orders" not in plan, plan
            assert "SEARCH" in plan and "INDEX" in plan, plan
