"""A gRPC call's committed events leave at once (docs/operations.md "Outbox"): the transaction
helper of the servicers (runtime.rpc.in_transaction) wakes the process's running outbox relay
when its work queued an event, so a turn closed by a Confirm does not wait for the relay's poll."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
import sqlalchemy as sa

from services.platform.bus.outbox import add_to_outbox
from services.platform.bus.relay import OutboxRelay
from services.platform.runtime.rpc import in_transaction


class Stream:
    """Stands for JetStream: takes every publish."""

    def __init__(self) -> None:
        self.subjects: list[str] = []

    async def publish(self, subject: str, payload: bytes, **_: object) -> SimpleNamespace:
        self.subjects.append(subject)
        return SimpleNamespace(duplicate=False)


def test_events_committed_by_a_grpc_transaction_wake_the_relay(engine: sa.Engine) -> None:
    stream = Stream()

    async def scene() -> int:
        # a poll of a minute: within the test only a wake can make it publish
        relay = OutboxRelay(engine, stream, poll_interval=60)  # type: ignore[arg-type]
        stop = asyncio.Event()
        running = asyncio.create_task(relay.run(stop))
        await asyncio.sleep(0.3)  # its first look finds nothing; it sleeps
        await in_transaction(engine, lambda c: add_to_outbox(c, "pate.test.wake", "wake-1", b"x"))
        for _ in range(200):
            if relay.published:
                break
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.wait_for(running, timeout=20)
        return relay.published

    assert asyncio.run(scene()) == 1
    assert stream.subjects == ["pate.test.wake"]


def test_a_transaction_that_queued_nothing_or_rolled_back_publishes_nothing(engine: sa.Engine) -> None:
    stream = Stream()

    def fails(conn: sa.Connection) -> None:
        add_to_outbox(conn, "pate.test.wake", "wake-2", b"x")
        raise RuntimeError("the work failed")

    async def scene() -> int:
        relay = OutboxRelay(engine, stream, poll_interval=60)  # type: ignore[arg-type]
        stop = asyncio.Event()
        running = asyncio.create_task(relay.run(stop))
        await asyncio.sleep(0.3)
        await in_transaction(engine, lambda c: c.execute(sa.text("SELECT 1")))
        with pytest.raises(RuntimeError):
            await in_transaction(engine, fails)
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.wait_for(running, timeout=20)
        return relay.published

    assert asyncio.run(scene()) == 0 and stream.subjects == []
