"""The gauges that describe shared state: the outbox and campaigns (from the database) and the
durable consumers (from JetStream), refreshed every few seconds by each process.

They live in the runtime because they read the store and the bus, which the telemetry package
below them may not import; the metric objects themselves are in ``telemetry.metrics``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, func, select

from services.platform.store import failures, tables
from services.platform.store.db import reader
from services.platform.telemetry.logging import get_logger
from services.platform.telemetry.metrics import (
    CAMPAIGNS,
    CONSUMER_ACK_PENDING,
    CONSUMER_PENDING,
    CONSUMER_REDELIVERED,
    FAILED_TURNS,
    OUTBOX_DEPTH,
    OUTBOX_OLDEST,
)

log = get_logger(__name__)


def refresh_database_gauges(engine: Engine, *, campaigns: bool) -> None:
    """Outbox depth and age (and campaigns by status when ``campaigns``), from the database."""
    with reader(engine) as conn:
        depth, oldest = conn.execute(
            select(func.count(), func.min(tables.outbox.c.created_at)).where(
                tables.outbox.c.published_at.is_(None)
            )
        ).one()
        counts: dict[str, int] = {}
        if campaigns:
            rows = conn.execute(
                select(tables.campaigns.c.status, func.count()).group_by(tables.campaigns.c.status)
            ).all()
            counts = {str(status): int(n) for status, n in rows}
            failed = failures.count_failures(conn)
    OUTBOX_DEPTH.set(int(depth or 0))
    OUTBOX_OLDEST.set(_age_seconds(oldest))
    if campaigns:
        for status in tables.CAMPAIGN_STATUSES:
            CAMPAIGNS.labels(status=status).set(counts.get(status, 0))
        FAILED_TURNS.set(failed)


def _age_seconds(oldest: datetime | None) -> float:
    if oldest is None:
        return 0.0
    now = tables.utcnow()
    if oldest.tzinfo is None:  # SQLite returns naive UTC
        now = now.replace(tzinfo=None)
    return max(0.0, (now - oldest).total_seconds())


async def refresh_consumer_gauges(js: Any, stream: str, durables: Sequence[str]) -> None:
    """Pending, ack-pending and redelivered counts of each durable consumer (JetStream consumer info)."""
    for durable in durables:
        try:
            info = await js.consumer_info(stream, durable)
        except Exception as exc:  # not created yet, or the bus is away: keep the last figures
            log.debug("metrics.consumer_info_failed", consumer=durable, error=repr(exc))
            continue
        CONSUMER_PENDING.labels(consumer=durable).set(info.num_pending or 0)
        CONSUMER_ACK_PENDING.labels(consumer=durable).set(info.num_ack_pending or 0)
        CONSUMER_REDELIVERED.labels(consumer=durable).set(info.num_redelivered or 0)


async def poll_gauges(
    engine: Engine,
    js: Any,
    stream: str,
    durables: Sequence[str],
    stop: asyncio.Event,
    *,
    campaigns: bool,
    every: float = 5.0,
) -> None:
    """Refresh the gauges every ``every`` seconds until ``stop``; a failed round is logged and retried."""
    while not stop.is_set():
        try:
            await asyncio.to_thread(refresh_database_gauges, engine, campaigns=campaigns)
            await refresh_consumer_gauges(js, stream, durables)
        except Exception as exc:
            log.warning("metrics.poll_failed", error=repr(exc))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every)
