"""Prometheus metrics of every PATE process (prometheus-client, default registry).

Each process serves ``/metrics`` on PATE_METRICS_ADDR (HOST:PORT; empty or
``0`` switches it off).  Counters and histograms are updated where the work
happens (the gRPC interceptor, the order desk, logins, the consumers); the
gauges that describe shared state (outbox, consumers, campaigns) are refreshed
by ``poll_gauges`` every few seconds.  Other modules may register their own
metrics on the default registry: they are served too.

The outbox and campaign gauges describe the one shared database, so every
process reports the same figure: aggregate them with ``max``, not ``sum``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Iterator, Sequence
from datetime import datetime
from time import perf_counter
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, start_http_server
from sqlalchemy import Engine, func, select

from services.common.logging import get_logger

log = get_logger(__name__)

# Latency buckets in seconds: from a cached report read to a grand1805 turn.
_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

GRPC_CALLS = Counter("pate_grpc_server_calls", "gRPC calls handled, by method and status", ["method", "code"])
GRPC_SECONDS = Histogram(
    "pate_grpc_server_seconds", "gRPC call latency by method", ["method"], buckets=_BUCKETS
)
ORDERS_ACCEPTED = Counter("pate_orders_accepted", "ship orders accepted by the order desk")
SUBMISSIONS_REFUSED = Counter(
    "pate_order_submissions_refused", "order submissions refused as a whole, by reason", ["reason"]
)
LOGINS_FAILED = Counter("pate_logins_failed", "player logins refused, by reason", ["reason"])
STAGE_SECONDS = Histogram(
    "pate_turn_stage_seconds",
    "time a consumer spent on one message of its stage (resolve, intel, reports, next turn)",
    ["stage", "outcome"],
    buckets=_BUCKETS,
)
CONSUMER_PENDING = Gauge(
    "pate_consumer_pending_messages", "messages of the stream not yet delivered to the consumer", ["consumer"]
)
CONSUMER_ACK_PENDING = Gauge(
    "pate_consumer_ack_pending_messages", "messages delivered and not yet acknowledged", ["consumer"]
)
CONSUMER_REDELIVERED = Gauge(
    "pate_consumer_redelivered_messages", "messages delivered more than once and not yet acked", ["consumer"]
)
OUTBOX_DEPTH = Gauge("pate_outbox_unpublished_rows", "outbox rows not yet published to JetStream")
OUTBOX_OLDEST = Gauge(
    "pate_outbox_oldest_unpublished_age_seconds", "age of the oldest unpublished outbox row (0: none)"
)
OUTBOX_PRUNED = Counter("pate_outbox_pruned_rows", "published outbox rows deleted past their retention")
CAMPAIGNS = Gauge("pate_campaigns", "campaigns by the status of their current turn", ["status"])


def parse_addr(value: str) -> tuple[str, int] | None:
    """``HOST:PORT`` -> (host, port); empty or ``0`` -> None (metrics off).  Port 0 = any free port."""
    value = value.strip()
    if value in ("", "0"):
        return None
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"PATE_METRICS_ADDR={value!r}: expected HOST:PORT, e.g. 0.0.0.0:9464, or empty")
    return host.strip("[]"), int(port)


def serve_metrics(addr: str) -> int | None:
    """Serve the default registry on ``addr`` from a daemon thread; returns the bound port."""
    parsed = parse_addr(addr)
    if parsed is None:
        return None
    server, _thread = start_http_server(parsed[1], addr=parsed[0])
    port = int(server.server_port)
    log.info("metrics.serving", addr=addr, port=port)
    return port


def grpc_call(method: str, code: str, seconds: float) -> None:
    _call_counter(method, code).inc()
    _call_timer(method).observe(seconds)


# A labelled child is looked up once per method (and status), not on every call; the
# methods are the server's own (the logging interceptor wraps only handlers that exist).
@functools.lru_cache(maxsize=1024)
def _call_counter(method: str, code: str) -> Any:
    return GRPC_CALLS.labels(method=method, code=code)


@functools.lru_cache(maxsize=1024)
def _call_timer(method: str) -> Any:
    return GRPC_SECONDS.labels(method=method)


@contextlib.contextmanager
def stage_timer(stage: str) -> Iterator[None]:
    """Observe the block's duration under ``stage`` with outcome ``ok`` or ``error``."""
    started, outcome = perf_counter(), "error"
    try:
        yield
        outcome = "ok"
    finally:
        STAGE_SECONDS.labels(stage=stage, outcome=outcome).observe(perf_counter() - started)


# -- gauges of shared state -----------------------------------------------------------------------------


def refresh_database_gauges(engine: Engine, *, campaigns: bool) -> None:
    """Outbox depth and age (and campaigns by status when ``campaigns``), from the database."""
    from services.common import tables
    from services.common.db import reader

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
    OUTBOX_DEPTH.set(int(depth or 0))
    OUTBOX_OLDEST.set(_age_seconds(oldest))
    if campaigns:
        for status in tables.CAMPAIGN_STATUSES:
            CAMPAIGNS.labels(status=status).set(counts.get(status, 0))


def _age_seconds(oldest: datetime | None) -> float:
    from services.common.tables import utcnow

    if oldest is None:
        return 0.0
    now = utcnow()
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
