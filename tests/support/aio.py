"""Helpers for async code in plain pytest tests (no pytest-asyncio here)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
    """Run ``coro`` in a new event loop; a hang fails the test instead of blocking the suite."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def unique(prefix: str = "c") -> str:
    """An id usable as a subject token and durable name, unique across tests and runs."""
    return f"{prefix}{uuid.uuid4().hex[:10]}"


async def eventually(
    predicate: Callable[[], bool | Awaitable[bool]], timeout: float = 20.0, interval: float = 0.05
) -> None:
    """Wait until ``predicate`` holds; raise AssertionError after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = predicate()
        if not isinstance(result, bool):
            result = await result
        if result:
            return
        if loop.time() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(interval)


async def stream_messages(js: JetStreamContext, filter_subject: str, stream: str = "PATE") -> list[Msg]:
    """Every message the stream holds on ``filter_subject``, read with a throw-away consumer."""
    config = ConsumerConfig(
        deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.NONE, inactive_threshold=30.0
    )
    sub = await js.pull_subscribe(filter_subject, stream=stream, config=config)
    out: list[Msg] = []
    try:
        while True:
            try:
                out.extend(await sub.fetch(100, timeout=0.5))
            except TimeoutError:
                return out
    finally:
        await sub.unsubscribe()
