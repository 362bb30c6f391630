"""A groupable handler's messages share one transaction, and lose none of the consumer's guarantees.

services/platform/bus/group.py: the messages of one fetch are claimed in one statement and
handled in one transaction.  A message that fails rolls the group back and every message of it
is handled again alone, so a poisoned campaign fails alone; a message seen before is skipped,
in a group as alone; a worker that dies in a group has committed nothing of it, and the
redelivered messages are all handled, once.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa

from services.platform import bus
from services.platform.bus import group
from services.platform.bus.consumer import IdempotentConsumer, PermanentError
from services.platform.bus.group import groupable
from services.platform.bus.outbox import add_to_outbox
from services.platform.store.db import reader
from services.platform.store.tables import outbox, processed_messages
from tests.integration.platform.helpers import connected, effects, record_effect
from tests.support.aio import eventually, run, unique

pytestmark = pytest.mark.integration


class Died(BaseException):
    """Stands for the worker's death in the middle of a group (nothing after it runs)."""


def _messages(campaigns: list[str], stage: str = bus.TURN_CLOSED) -> list[Any]:
    """Messages as a fetch hands them over: one turn closed of each campaign."""
    return [
        SimpleNamespace(
            headers={bus.MSG_ID_HEADER: bus.msg_id(c, 1, stage), **bus.event_headers(c, 1)},
            data=c.encode(),
            subject=bus.subject(stage, c),
            metadata=SimpleNamespace(stream="PATE", sequence=SimpleNamespace(stream=i), num_delivered=1),
        )
        for i, c in enumerate(campaigns)
    ]


def _handler(poisoned: set[str] | None = None, dies_at: str | None = None) -> Any:
    @groupable
    def handle(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        campaign = data.decode()
        record_effect(conn, data, headers)
        add_to_outbox(conn, bus.subject(bus.TURN_RESOLVED, campaign), f"{campaign}:1:resolved", data)
        if campaign == dies_at:
            raise Died
        if poisoned and campaign in poisoned:
            raise PermanentError(f"{campaign} cannot be resolved")

    return handle


def _consumer(engine: sa.Engine, handler: Any, durable: str) -> IdempotentConsumer:
    return IdempotentConsumer(engine, None, durable, "pate.turn_closed.*", handler, batch=8)  # type: ignore[arg-type]


def _claims(engine: sa.Engine, durable: str) -> int:
    with reader(engine) as conn:
        c = processed_messages.c
        return int(conn.scalar(sa.select(sa.func.count()).where(c.consumer == durable)) or 0)


def _queued(engine: sa.Engine, campaigns: list[str]) -> list[str]:
    with reader(engine) as conn:
        ids = [f"{c}:1:resolved" for c in campaigns]
        return sorted(conn.scalars(sa.select(outbox.c.msg_id).where(outbox.c.msg_id.in_(ids))))


def test_a_poisoned_campaign_in_a_group_leaves_the_others_committed(engine: sa.Engine) -> None:
    campaigns = [unique() for _ in range(5)]
    durable = unique("d")
    consumer = _consumer(engine, _handler(poisoned={campaigns[2]}), durable)
    outcomes = consumer._work_through(_messages(campaigns), None)
    assert [isinstance(o, PermanentError) for _, o in outcomes] == [False, False, True, False, False]
    for c in campaigns:  # each campaign's work once, the poisoned one's not at all
        assert len(effects(engine, c)) == (0 if c == campaigns[2] else 1)
    assert _queued(engine, campaigns) == sorted(f"{c}:1:resolved" for c in campaigns if c != campaigns[2])
    assert _claims(engine, durable) == 4  # the poisoned message is not claimed: it may be retried


def test_a_redelivered_message_in_a_group_is_handled_once(engine: sa.Engine) -> None:
    campaigns = [unique() for _ in range(4)]
    durable = unique("d")
    consumer = _consumer(engine, _handler(), durable)
    first = consumer._work_through(_messages(campaigns[:2]), None)
    assert all(o is not False for _, o in first)
    # the first two again (their acks lost), and twice in the same fetch, with two new ones
    again = _messages(campaigns[:2]) + _messages(campaigns) + _messages(campaigns[3:])
    outcomes = [o for _, o in consumer._work_through(again, None)]
    assert outcomes.count(False) == 5 and len(outcomes) == 7
    for c in campaigns:
        assert len(effects(engine, c)) == 1
    assert _claims(engine, durable) == 4


def test_a_worker_dying_in_a_group_commits_nothing_of_it_and_the_redelivery_loses_nothing(
    engine: sa.Engine,
) -> None:
    campaigns = [unique() for _ in range(5)]
    durable = unique("d")
    with pytest.raises(Died):
        _consumer(engine, _handler(dies_at=campaigns[3]), durable)._work_through(_messages(campaigns), None)
    assert _claims(engine, durable) == 0 and _queued(engine, campaigns) == []
    assert all(effects(engine, c) == [] for c in campaigns)
    outcomes = _consumer(engine, _handler(), durable)._work_through(_messages(campaigns), None)
    assert all(o is not False and not isinstance(o, BaseException) for _, o in outcomes)
    assert all(len(effects(engine, c)) == 1 for c in campaigns)
    assert len(_queued(engine, campaigns)) == 5


def test_a_group_closes_after_its_time_and_releases_the_claims_it_did_not_reach(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaigns = [unique() for _ in range(4)]
    durable = unique("d")
    monkeypatch.setattr(group, "GROUP_SECONDS", -1.0)  # every group closes after its first message
    taken, outcomes = group.work_group(
        _consumer(engine, _handler(), durable),
        [group.received(m, lambda _t: 1) for m in _messages(campaigns)],
        True,
        "emitted",
    )
    assert taken == 1 and outcomes == [(bus.msg_id(campaigns[0], 1, bus.TURN_CLOSED), "emitted")]
    assert _claims(engine, durable) == 1  # the three not reached were claimed, then released
    outcomes_all = _consumer(engine, _handler(), durable)._work_through(_messages(campaigns), None)
    assert [o for _, o in outcomes_all].count(False) == 1
    assert all(len(effects(engine, c)) == 1 for c in campaigns)


def test_a_group_through_the_bus_fails_one_message_alone_and_wakes_the_relay_once(
    engine: sa.Engine, nats_url: str
) -> None:
    campaign = unique()
    failed: list[bytes] = []
    woken: list[int] = []

    @groupable
    def handler(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        record_effect(conn, data, headers)
        add_to_outbox(conn, bus.subject(bus.TURN_RESOLVED, campaign), f"{campaign}:{data.decode()}", data)
        if data == b"turn 3" and not failed:
            failed.append(data)
            raise ValueError("turn 3 fails once")

    async def scenario() -> IdempotentConsumer:
        nc, js = await connected(nats_url)
        for turn in range(1, 7):
            headers = {
                bus.MSG_ID_HEADER: bus.msg_id(campaign, turn, bus.TURN_CLOSED),
                **bus.event_headers(campaign, turn),
            }
            await js.publish(bus.subject(bus.TURN_CLOSED, campaign), f"turn {turn}".encode(), headers=headers)
        consumer = IdempotentConsumer(
            engine,
            js,
            unique("d"),
            bus.subject(bus.TURN_CLOSED, campaign),
            handler,
            batch=8,
            after_commit=lambda: woken.append(1),
        )
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await eventually(lambda: consumer.processed == 6)
        stop.set()
        await task
        await nc.close()
        return consumer

    consumer = run(scenario())
    datas = sorted(json.loads(d)["data"] for d in effects(engine, campaign))
    assert datas == [f"turn {n}" for n in range(1, 7)]  # the group's first try left nothing
    assert failed == [b"turn 3"] and consumer.skipped == 0
    assert len(woken) >= 1
