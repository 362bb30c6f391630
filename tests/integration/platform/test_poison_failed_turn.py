"""Poison is not silence: a message of a campaign's turn that its handler can never take ends
in the failed-turn state the game master sees, with a bounded reason, and a retry publishes
the same message again under a fresh id."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import sqlalchemy as sa

from services.orders import recovery
from services.platform import bus
from services.platform.errors import DeskError
from services.platform.store import failures, tables
from services.platform.store import repository as repo
from tests.integration.platform.helpers import connected, effects
from tests.integration.platform.test_consumer import _consumer, _publish
from tests.support.aio import eventually, run, unique

pytestmark = pytest.mark.integration

SECRET_SQL = "SELECT password_hash FROM players WHERE id = 'x'"


def campaign_row(campaign: str, status: str = "RESOLVED") -> repo.CampaignRow:
    return repo.CampaignRow(
        id=campaign, name="n", scenario="training", seed=1, turns=15, turn=1,
        status=status, deadline=None, turn_seconds=0,
    )  # fmt: skip


def test_a_poison_message_marks_its_turn_failed(engine: sa.Engine, nats_url: str) -> None:
    campaign, neighbour = unique(), unique()
    with engine.begin() as conn:
        repo.insert_campaign(conn, campaign_row(campaign))
        repo.insert_campaign(conn, campaign_row(neighbour))

    def broken(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        raise ValueError(f"cannot take it\nTraceback (most recent call last): {SECRET_SQL}\x1b[2J")

    durable = unique("intel")

    async def scenario() -> None:
        nc, js = await connected(nats_url)
        consumer = _consumer(engine, js, campaign, broken, poison_after=2, durable=durable)
        await _publish(js, campaign, range(1, 2))
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await eventually(lambda: len(effects(engine, campaign, "poison_message")) == 1)
        stop.set()
        await task
        await nc.close()

    run(scenario())
    with engine.begin() as conn:
        failure = failures.get_failure(conn, campaign)
        assert failures.get_failure(conn, neighbour) is None  # no other campaign is touched
    assert failure is not None
    assert (failure.turn, failure.stage) == (1, durable)
    assert failure.reason == "ValueError: cannot take it"  # first line only: no traceback, no SQL
    assert failure.payload == b"turn 1" and failure.subject == bus.subject(bus.TURN_CLOSED, campaign)

    with engine.begin() as conn:  # the game master retries once a fix is deployed
        recovery.retry_turn(conn, campaign, 1)
        assert failures.get_failure(conn, campaign) is None
        rows = conn.execute(
            sa.select(tables.outbox.c.msg_id, tables.outbox.c.payload).where(
                tables.outbox.c.subject == failure.subject
            )
        ).all()
    assert [r.payload for r in rows] == [b"turn 1"]
    assert rows[0].msg_id.startswith(f"{campaign}:1:{durable}:retry:")


def test_a_database_error_is_named_by_its_class_only() -> None:
    err = sa.exc.IntegrityError(SECRET_SQL, {"id": "x"}, Exception("UNIQUE constraint failed"))
    assert failures.failure_reason(err) == "IntegrityError (database error)"
    long = failures.failure_reason(KeyError("B" * 1000))
    assert len(long) == failures.REASON_CHARS and long.endswith("...")


def test_a_later_stage_failure_is_retried_only(engine: sa.Engine) -> None:
    campaign = unique()
    with engine.begin() as conn:
        repo.insert_campaign(conn, campaign_row(campaign, status="RESOLVED"))
        subject = bus.subject(bus.TURN_RESOLVED, campaign)
        failures.record_failure(
            conn, campaign, 1, stage="intel", reason="r", subject=subject, payload=b"", headers={}
        )
    acts: list[Callable[[sa.Connection], object]] = [
        lambda c: recovery.reopen_turn(c, campaign, 1, None),
        lambda c: recovery.resolve_with_defaults(c, campaign, 1, "cornwallis"),
    ]
    for act in acts:
        with pytest.raises(DeskError, match="only a retry applies"), engine.begin() as conn:
            act(conn)
    with engine.begin() as conn:
        assert failures.get_failure(conn, campaign) is not None  # still waiting for a retry
