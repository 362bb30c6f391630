"""One retry of a turn, whatever held it up: ``recovery.retry_turn`` (the RetryTurn RPC,
``pate campaign retry``) publishes a failed turn's message again, queues again the event a
waiting turn never received, and refuses a turn that neither failed nor waits, by field."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from pate.v1 import events_pb2
from services.orders import recovery
from services.platform import bus
from services.platform.bus.outbox import emit_event
from services.platform.errors import Code, DeskError
from services.platform.store import failures, tables
from services.platform.store import repository as repo
from tests.integration.platform.test_poison_failed_turn import campaign_row
from tests.support.aio import unique

pytestmark = pytest.mark.integration


def _outbox(conn: sa.Connection, campaign: str) -> list[tuple[str, str]]:
    rows = conn.execute(
        sa.select(tables.outbox.c.subject, tables.outbox.c.msg_id)
        .where(tables.outbox.c.msg_id.like(f"{campaign}:%"))
        .order_by(tables.outbox.c.id)
    )
    return [(r.subject, r.msg_id) for r in rows]


def _closed(conn: sa.Connection, campaign: str) -> None:
    repo.insert_campaign(conn, campaign_row(campaign, status="CLOSED"))
    closed = events_pb2.TurnClosed(campaign_id=campaign, turn=1)
    emit_event(conn, bus.TURN_CLOSED, campaign, 1, closed)


def test_a_turn_whose_event_was_lost_has_that_event_queued_again(engine: sa.Engine) -> None:
    campaign = unique()
    with engine.begin() as conn:
        _closed(conn, campaign)
        [(subject, first)] = _outbox(conn, campaign)
    with engine.begin() as conn:
        row = recovery.retry_turn(conn, campaign, 1)
        assert (row.status, failures.get_failure(conn, campaign)) == ("CLOSED", None)
    with engine.begin() as conn:
        recovery.retry_turn(conn, campaign, 1)  # again: a third copy, numbered on
        assert _outbox(conn, campaign) == [
            (subject, first),
            (subject, f"{first}:retry-1"),
            (subject, f"{first}:retry-2"),
        ]
    assert subject == bus.subject(bus.TURN_CLOSED, campaign)


def test_a_failed_turn_has_its_failed_message_published_again(engine: sa.Engine) -> None:
    campaign = unique()
    with engine.begin() as conn:
        _closed(conn, campaign)
        failures.record_failure(
            conn,
            campaign,
            1,
            stage="resolver",
            reason="ValueError: x",
            subject="pate.x",
            payload=b"p",
            headers={},
        )
    with engine.begin() as conn:
        recovery.retry_turn(conn, campaign, 1)
        assert failures.get_failure(conn, campaign) is None
        sent = _outbox(conn, campaign)
    assert [s for s, _ in sent] == [
        bus.subject(bus.TURN_CLOSED, campaign),
        "pate.x",
    ]  # not the lost-event copy
    assert sent[1][1].startswith(f"{campaign}:1:resolver:retry:")


@pytest.mark.parametrize(
    ("status", "turn", "failed", "code", "says"),
    [
        ("OPEN", 1, False, Code.FAILED_PRECONDITION, "has not failed and waits for no event"),
        ("CLOSED", 2, False, Code.FAILED_PRECONDITION, "(the campaign is at turn 1, CLOSED)"),
        ("CLOSED", 2, True, Code.FAILED_PRECONDITION, "the failed turn is 1, not 2"),
    ],
)
def test_a_turn_that_neither_failed_nor_waits_is_refused_by_field(
    engine: sa.Engine, status: str, turn: int, failed: bool, code: Code, says: str
) -> None:
    campaign = unique()
    with engine.begin() as conn:
        repo.insert_campaign(conn, campaign_row(campaign, status=status))
        emit_event(conn, bus.TURN_OPENED, campaign, 1, events_pb2.TurnOpened(campaign_id=campaign, turn=1))
        if failed:
            failures.record_failure(
                conn, campaign, 1, stage="intel", reason="r", subject="pate.y", payload=b"", headers={}
            )
    with engine.begin() as conn, pytest.raises(DeskError) as refused:
        recovery.retry_turn(conn, campaign, turn)
    assert (
        refused.value.code == code
        and refused.value.message.startswith("turn: ")
        and says in refused.value.message
    )
    with engine.begin() as conn:
        assert len(_outbox(conn, campaign)) == 1  # nothing queued


def test_an_unknown_or_malformed_campaign_is_refused_by_field(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        with pytest.raises(DeskError, match=r"^campaign_id: no campaign"):
            recovery.retry_turn(conn, unique(), 1)
        with pytest.raises(DeskError, match=r"^campaign_id: 1 to 40"):
            recovery.retry_turn(conn, "Bad Id; DROP", 1)
