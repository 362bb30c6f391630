"""Consumers are idempotent, ack only after commit, share work, and shut down cleanly."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable

import pytest
import sqlalchemy as sa
import structlog
from nats.js import JetStreamContext

from services.platform import bus
from services.platform.bus.consumer import IdempotentConsumer, PermanentError, TransientError
from services.platform.bus.outbox import add_to_outbox
from services.platform.telemetry.logging import current_trace_id
from tests.integration.platform.helpers import connected, effects, record_effect
from tests.support.aio import eventually, run, unique

pytestmark = pytest.mark.integration

Handler = Callable[[sa.Connection, bytes, dict[str, str]], None]


async def _publish(js: JetStreamContext, campaign: str, turns: range, stage: str = bus.TURN_CLOSED) -> None:
    for turn in turns:
        await js.publish(
            bus.subject(stage, campaign),
            f"turn {turn}".encode(),
            headers={
                bus.MSG_ID_HEADER: bus.msg_id(campaign, turn, stage),
                **bus.event_headers(campaign, turn),
            },
        )


def _consumer(
    engine: sa.Engine, js: JetStreamContext, campaign: str, handler: Handler, **kw: object
) -> IdempotentConsumer:
    durable = kw.pop("durable", None) or unique("d")
    kw.setdefault("nak_delay", 0.05)
    return IdempotentConsumer(
        engine,
        js,
        str(durable),
        bus.subject(bus.TURN_CLOSED, campaign),
        handler,
        **kw,  # type: ignore[arg-type]
    )


class NoAck(IdempotentConsumer):
    """Commits but 'crashes' before the ack: JetStream redelivers after ack_wait."""

    async def _ack(self, msg: object) -> None:
        return None


def test_a_redelivered_message_takes_effect_once(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()

    async def scenario() -> tuple[int, int]:
        nc, js = await connected(nats_url)
        durable = unique("d")
        crashing = NoAck(
            engine, js, durable, bus.subject(bus.TURN_CLOSED, campaign), record_effect, ack_wait=1.0
        )
        await _publish(js, campaign, range(1, 2))
        stop = asyncio.Event()
        task = asyncio.create_task(crashing.run(stop))
        await eventually(lambda: crashing.processed == 1)
        stop.set()
        await task
        healthy = _consumer(engine, js, campaign, record_effect, durable=durable, ack_wait=1.0)
        stop = asyncio.Event()
        task = asyncio.create_task(healthy.run(stop))
        await eventually(lambda: healthy.skipped == 1)
        stop.set()
        await task
        info = await js.consumer_info(bus.STREAM, durable)
        await nc.close()
        return healthy.processed, info.num_ack_pending

    processed, unacked = run(scenario())
    assert processed == 0
    assert unacked == 0
    assert len(effects(engine, campaign)) == 1


def test_a_failed_handler_is_rolled_back_and_retried(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    attempts: list[int] = []

    def flaky(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        record_effect(conn, data, headers)  # written, then rolled back on the first attempts
        attempts.append(1)
        if len(attempts) < 3:
            raise ValueError("not yet")

    async def scenario() -> None:
        nc, js = await connected(nats_url)
        consumer = _consumer(engine, js, campaign, flaky, poison_after=5)
        await _publish(js, campaign, range(1, 2))
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await eventually(lambda: consumer.processed == 1)
        stop.set()
        await task
        await nc.close()

    run(scenario())
    assert len(attempts) == 3
    assert len(effects(engine, campaign)) == 1


def test_a_poison_message_is_terminated_and_audited(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    calls: list[bytes] = []

    def picky(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        calls.append(data)
        if data == b"turn 1":
            raise ValueError("cannot parse")
        record_effect(conn, data, headers)

    async def scenario() -> None:
        nc, js = await connected(nats_url)
        consumer = _consumer(engine, js, campaign, picky, poison_after=3)
        await _publish(js, campaign, range(1, 3))
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await eventually(
            lambda: consumer.processed == 1 and len(effects(engine, campaign, "poison_message")) == 1
        )
        await asyncio.sleep(0.5)  # a redelivery would show up as a fourth call
        stop.set()
        await task
        await nc.close()

    run(scenario())
    assert calls.count(b"turn 1") == 3
    (detail,) = effects(engine, campaign, "poison_message")
    assert json.loads(detail)["deliveries"] == 3
    assert json.loads(detail)["msg_id"] == f"{campaign}:1:turn_closed"
    assert len(effects(engine, campaign)) == 1


def test_permanent_errors_terminate_at_once_and_outages_never_do(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    calls: list[bytes] = []

    def handler(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        calls.append(data)
        if data == b"turn 1":
            raise PermanentError("unknown campaign")
        if calls.count(data) <= 4:
            raise TransientError("database away")
        record_effect(conn, data, headers)

    async def scenario() -> None:
        nc, js = await connected(nats_url)
        consumer = _consumer(engine, js, campaign, handler, poison_after=2, max_nak_delay=0.1)
        await _publish(js, campaign, range(1, 3))
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await eventually(lambda: consumer.processed == 1)
        stop.set()
        await task
        await nc.close()

    run(scenario())
    assert calls.count(b"turn 1") == 1
    assert calls.count(b"turn 2") == 5
    assert len(effects(engine, campaign, "poison_message")) == 1


def test_two_workers_sharing_a_durable_split_the_work(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    durable = unique("d")
    n = 30

    def slow(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        time.sleep(0.02)
        record_effect(conn, data, headers)

    async def scenario() -> list[int]:
        conns = [await connected(nats_url, f"w{i}") for i in range(2)]
        workers = [_consumer(engine, js, campaign, slow, durable=durable) for _, js in conns]
        await _publish(conns[0][1], campaign, range(1, n + 1))
        stop = asyncio.Event()
        tasks = [asyncio.create_task(w.run(stop)) for w in workers]
        await eventually(lambda: sum(w.processed for w in workers) == n, timeout=60)
        stop.set()
        await asyncio.gather(*tasks)
        for nc, _ in conns:
            await nc.close()
        return [w.processed for w in workers]

    split = run(scenario(), timeout=120)
    assert sum(split) == n
    assert min(split) > 0, split
    datas = sorted(json.loads(d)["data"] for d in effects(engine, campaign))
    assert datas == sorted(f"turn {t}" for t in range(1, n + 1))


def test_long_work_is_kept_alive_by_heartbeats(engine: sa.Engine, nats_url: str) -> None:
    """The handler outlasts ack_wait; a second worker on the durable must not get the message."""
    campaign = unique()
    durable = unique("d")
    calls: list[bytes] = []

    def slow(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        calls.append(data)
        time.sleep(3.0)
        record_effect(conn, data, headers)

    async def scenario() -> None:
        conns = [await connected(nats_url, f"w{i}") for i in range(2)]
        workers = [_consumer(engine, js, campaign, slow, durable=durable, ack_wait=1.0) for _, js in conns]
        await _publish(conns[0][1], campaign, range(1, 2))
        stop = asyncio.Event()
        tasks = [asyncio.create_task(w.run(stop)) for w in workers]
        await eventually(lambda: sum(w.processed for w in workers) == 1)
        await asyncio.sleep(1.5)
        stop.set()
        await asyncio.gather(*tasks)
        for nc, _ in conns:
            await nc.close()

    run(scenario())
    assert calls == [b"turn 1"]
    assert len(effects(engine, campaign)) == 1


def test_stop_finishes_the_message_in_hand_and_releases_the_rest(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    durable = unique("d")
    started = threading.Event()

    def slow(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        started.set()
        time.sleep(1.0)
        record_effect(conn, data, headers)

    async def scenario() -> tuple[int, int]:
        nc, js = await connected(nats_url)
        first = _consumer(engine, js, campaign, slow, durable=durable, batch=5, ack_wait=30.0)
        await _publish(js, campaign, range(1, 4))
        stop = asyncio.Event()
        task = asyncio.create_task(first.run(stop))
        await eventually(started.is_set)
        stop.set()  # SIGTERM arrives while the first message is being worked on
        await task
        assert len(effects(engine, campaign)) == 1
        # Released messages go to the next worker at once, long before ack_wait (30 s) would expire.
        second = _consumer(engine, js, campaign, record_effect, durable=durable, ack_wait=30.0)
        stop = asyncio.Event()
        task = asyncio.create_task(second.run(stop))
        await eventually(lambda: second.processed == 2, timeout=15)
        stop.set()
        await task
        await nc.close()
        return first.processed, second.skipped

    assert run(scenario()) == (1, 0)
    datas = sorted(json.loads(d)["data"] for d in effects(engine, campaign))
    assert datas == ["turn 1", "turn 2", "turn 3"]


TRACE7 = "4bf92f3577b34da6a3ce929d0e0e4736"


def test_the_handler_runs_with_campaign_turn_and_trace_bound(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    seen: list[dict[str, object]] = []

    def handler(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        seen.append({**structlog.contextvars.get_contextvars(), "trace_id": current_trace_id()})

    async def scenario() -> None:
        nc, js = await connected(nats_url)
        consumer = _consumer(engine, js, campaign, handler)
        subj = bus.subject(bus.TURN_CLOSED, campaign)
        parent = {"traceparent": f"00-{TRACE7}-00f067aa0ba902b7-01"}
        await js.publish(subj, b"", headers={**bus.event_headers(campaign, 7, parent), "Nats-Msg-Id": "m7"})
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await eventually(lambda: consumer.processed == 1)
        stop.set()
        await task
        await nc.close()

    run(scenario())
    (ctx,) = seen
    assert {k: ctx.get(k) for k in ("campaign", "turn", "trace_id", "msg_id")} == {
        "campaign": campaign,
        "turn": 7,
        "trace_id": TRACE7,
        "msg_id": "m7",
    }


def test_a_durable_made_with_another_ack_wait_is_brought_in_line(engine: sa.Engine, nats_url: str) -> None:
    """Upgrading from a version with a longer ack_wait shortens the durable's own."""
    campaign, durable = unique(), unique("d")

    async def scenario() -> float:
        nc, js = await connected(nats_url)
        try:
            for ack_wait in (30.0, 3.0):
                stop = asyncio.Event()
                worker = _consumer(engine, js, campaign, record_effect, durable=durable, ack_wait=ack_wait)
                task = asyncio.create_task(worker.run(stop))
                await asyncio.sleep(0.5)
                stop.set()
                await task
            return float((await js.consumer_info(bus.STREAM, durable)).config.ack_wait)
        finally:
            await nc.drain()

    assert run(scenario()) == pytest.approx(3.0)


def _one_batch(
    engine: sa.Engine, nats_url: str, campaign: str, handler: Handler, *, turns: int, woken: list[int]
) -> IdempotentConsumer:
    """Turns 1..``turns`` published, then handled by a consumer taking up to 8 at a fetch until
    all are processed; each wake of the relay is counted in ``woken``."""

    async def scenario() -> IdempotentConsumer:
        nc, js = await connected(nats_url)
        await _publish(js, campaign, range(1, turns + 1))
        consumer = _consumer(engine, js, campaign, handler, batch=8, after_commit=lambda: woken.append(1))
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await eventually(lambda: consumer.processed == turns)
        stop.set()
        await task
        await nc.close()
        return consumer

    return run(scenario())


def test_a_batch_is_handled_in_one_hand_over_each_message_in_its_own_transaction(
    engine: sa.Engine, nats_url: str
) -> None:
    """The messages of one fetch go to the worker thread together; one that fails is rolled
    back and retried alone, the others commit, and the relay is woken once for the batch."""
    campaign = unique()
    failed: list[bytes] = []
    woken: list[int] = []

    def handler(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
        record_effect(conn, data, headers)
        add_to_outbox(conn, bus.subject(bus.TURN_RESOLVED, campaign), f"{campaign}:{data.decode()}", data)
        if data == b"turn 3" and not failed:
            failed.append(data)
            raise ValueError("turn 3 fails once")

    consumer = _one_batch(engine, nats_url, campaign, handler, turns=6, woken=woken)
    datas = sorted(json.loads(d)["data"] for d in effects(engine, campaign))
    assert datas == [f"turn {n}" for n in range(1, 7)]  # turn 3's first try left nothing
    assert failed == [b"turn 3"]
    # the relay was woken after the batch of six and after turn 3's retry, not after each message
    assert len(woken) == 2 and consumer.skipped == 0


def test_a_batch_that_queued_no_event_does_not_wake_the_relay(engine: sa.Engine, nats_url: str) -> None:
    """A handler that queues nothing (the GITM bridge with no GITM configured) leaves the
    relay asleep: waking it would only make it look for rows that are not there."""
    campaign = unique()
    woken: list[int] = []

    _one_batch(engine, nats_url, campaign, record_effect, turns=3, woken=woken)
    assert len(effects(engine, campaign)) == 3
    assert woken == []
