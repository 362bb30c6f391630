"""Transactional outbox: events are rows written with the work, published later.

``add_to_outbox`` runs inside the caller's transaction, so an event exists
if and only if the work that caused it committed.  ``OutboxRelay`` publishes
unpublished rows in id order and marks them only after JetStream acked them.
A crash between the ack and the mark re-publishes the row; JetStream drops
that copy because the ``Nats-Msg-Id`` repeats inside the duplicate window.

A row that can never be published (a subject or header NATS refuses, a
payload over the server's limit, any error that is not an outage) is
quarantined: marked with its error, logged once, counted in
``pate_outbox_quarantined_total``, and passed over, so that one campaign's bad
row never holds back another campaign's events.  An operator who
fixed the cause sets ``quarantined_at`` back to NULL to publish it again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import nats.errors
import nats.js.errors
from google.protobuf.message import Message
from nats.js import JetStreamContext
from opentelemetry.trace import SpanKind
from prometheus_client import Counter
from sqlalchemy import Connection, Engine, Row, bindparam, delete, func, select, text, update

from services.platform import bus
from services.platform.bus import MSG_ID_HEADER
from services.platform.store.db import is_sqlite, reader
from services.platform.store.tables import outbox, utcnow
from services.platform.store.writes import insert_ignore
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import get_logger

log = get_logger(__name__)
_PG_RELAY_LOCK = 0x5A7E_0002  # held by the one relay publishing at a time
_SUBJECT = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*")
_HEADER_NAME = re.compile(r"[!-9;-~]+")  # printable ASCII without ':' (RFC 7230 token-ish)
_ERROR_CHARS = 300  # of an error kept in the row and the log: an excerpt, not the input
# Failures of the connection or the server's availability: the row is retried, never quarantined.
_OUTAGES = (
    TimeoutError,
    concurrent.futures.TimeoutError,
    ConnectionError,
    nats.errors.ConnectionClosedError,
    nats.errors.ConnectionReconnectingError,
    nats.errors.ConnectionDrainingError,
    nats.errors.NoServersError,
    nats.errors.NoRespondersError,
    nats.errors.OutboundBufferLimitError,
    nats.errors.StaleConnectionError,
    nats.errors.FlushTimeoutError,
    nats.js.errors.ServiceUnavailableError,
    nats.js.errors.NoStreamResponseError,
)

QUARANTINED = Counter("pate_outbox_quarantined", "Outbox rows set aside because they can never be published")
PUBLISHED = Counter("pate_outbox_published", "Outbox rows published to JetStream and marked")


def add_to_outbox(
    conn: Connection, subject: str, msg_id: str, payload: bytes, headers: Mapping[str, str] | None = None
) -> bool:
    """Queue one event in the caller's transaction. A repeated ``msg_id`` is a no-op (returns False)."""
    return insert_ignore(
        conn,
        outbox,
        {
            "subject": subject,
            "msg_id": msg_id,
            "payload": payload,
            "headers_json": json.dumps(dict(headers or {}), sort_keys=True),
            "created_at": utcnow(),
        },
        ("msg_id",),
    )


def emit_event(
    conn: Connection,
    stage: str,
    campaign: str,
    turn: int,
    message: Message,
    headers: Mapping[str, str] | None = None,
    *,
    id_stage: str | None = None,
) -> bool:
    """Queue a protobuf event of one stage of one campaign's turn, on subject
    ``pate.<stage>.<campaign>`` with the deterministic id ``<campaign>:<turn>:<stage>``
    (``id_stage`` names the id's stage where one subject carries several events)."""
    # Only the trace context travels on from the event being handled (or the RPC in hand).
    return add_to_outbox(
        conn,
        bus.subject(stage, campaign),
        bus.msg_id(campaign, turn, id_stage or stage),
        message.SerializeToString(),
        bus.event_headers(campaign, turn, parent=headers),
    )


# Published rows are kept this long (PATE_OUTBOX_RETENTION_HOURS) for inspection, then pruned by the
# orders process; never less than JetStream's duplicate window, inside which a msg_id must still be
# known to add_to_outbox so that the same event is not queued twice.
DEFAULT_RETENTION = timedelta(days=7)
MIN_RETENTION = timedelta(seconds=bus.DUPLICATE_WINDOW_S)


def prune_published(
    engine: Engine,
    retention: timedelta = DEFAULT_RETENTION,
    *,
    now: datetime | None = None,
    batch: int = 1000,
) -> int:
    """Delete rows published more than ``retention`` ago, ``batch`` at a time (short transactions,
    so writers are never held up); unpublished rows are never touched.  Returns the rows deleted."""
    if retention < MIN_RETENTION:
        raise ValueError(f"outbox retention {retention} is shorter than the duplicate window {MIN_RETENTION}")
    cutoff = (now or utcnow()) - retention
    total = 0
    while True:
        oldest = (
            select(outbox.c.id)
            .where(outbox.c.published_at.is_not(None), outbox.c.published_at < cutoff)
            .order_by(outbox.c.id)
            .limit(batch)
        )
        with engine.begin() as conn:
            deleted = conn.execute(delete(outbox).where(outbox.c.id.in_(oldest.scalar_subquery()))).rowcount
        total += deleted
        if deleted < batch:
            break
    metrics.OUTBOX_PRUNED.inc(total)
    if total:
        log.info("outbox.pruned", rows=total, published_before=cutoff.isoformat())
    return total


def pending_count(engine: Engine) -> int:
    with reader(engine) as conn:
        pending = select(func.count()).where(
            outbox.c.published_at.is_(None), outbox.c.quarantined_at.is_(None)
        )
        return int(conn.scalar(pending) or 0)


_MARK = (
    update(outbox)
    .where(outbox.c.id.in_(bindparam("ids", expanding=True)), outbox.c.published_at.is_(None))
    .values(published_at=bindparam("at"))
)


class OutboxRelay:
    """Publishes outbox rows to JetStream; run one per process that writes events.

    Several relays may run against one database and the stream still
    receives the rows once, in id order.  On PostgreSQL one relay at a time
    holds an advisory lock (the others stand by, taking over within one poll
    interval if it dies) and claims its batch with ``FOR UPDATE SKIP LOCKED``
    until the rows are published and marked.  On SQLite, holding the single
    write lock across network calls would stall every writer, so relays read
    without a lock and may publish a row twice; JetStream's duplicate window
    drops the copy, and each relay publishes in id order, so the first
    copies reach the stream in id order.
    """

    def __init__(
        self,
        engine: Engine,
        js: JetStreamContext,
        *,
        batch: int = 100,
        poll_interval: float = 0.2,
        publish_timeout: float = 5.0,
        max_backoff: float = 5.0,
    ) -> None:
        self.engine = engine
        self.js = js
        self.batch = batch
        self.poll_interval = poll_interval
        self.publish_timeout = publish_timeout
        self.max_backoff = max_backoff
        self.published = 0  # rows this relay marked (for tests and metrics)
        self._wake = asyncio.Event()
        # built once: the relay runs them after every committed event and at every poll
        self._pending_rows = (
            select(outbox.c.id, outbox.c.subject, outbox.c.msg_id, outbox.c.payload, outbox.c.headers_json)
            .where(outbox.c.published_at.is_(None), outbox.c.quarantined_at.is_(None))
            .order_by(outbox.c.id)
            .limit(self.batch)
        )

    def notify(self) -> None:
        """Wake the relay now (call after committing a transaction that added events)."""
        self._wake.set()

    async def run(self, stop: asyncio.Event) -> None:
        """Publish until ``stop`` is set; a batch in flight is finished first."""
        loop = asyncio.get_running_loop()
        failures = 0
        while not stop.is_set():
            try:
                sent = await asyncio.to_thread(self._relay_batch, loop)
                failures = 0
            except Exception as exc:
                failures += 1
                delay = min(self.max_backoff, self.poll_interval * 2**failures)
                log.warning("outbox.publish_failed", error=repr(exc), retry_in_s=round(delay, 2))
                await _sleep_or_stop(stop, self._wake, delay)
                continue
            if sent < self.batch:  # caught up: wait for new rows
                await _sleep_or_stop(stop, self._wake, self.poll_interval)

    async def drain(self) -> int:
        """Publish everything pending now (tests, tools). Returns the number of rows marked."""
        loop = asyncio.get_running_loop()
        total = 0
        while sent := await asyncio.to_thread(self._relay_batch, loop):
            total += sent
        return total

    # -- worker thread ---------------------------------------------------------------------------------

    def _relay_batch(self, loop: asyncio.AbstractEventLoop) -> int:
        if is_sqlite(self.engine):
            with reader(self.engine) as conn:
                rows = conn.execute(self._pending()).all()
            published, quarantined = self._publish_rows(rows, loop)
            if published or quarantined:
                with self.engine.begin() as conn:
                    self._mark(conn, published)
                    self._quarantine(conn, quarantined)
            return len(rows)
        with self.engine.begin() as conn:
            if not conn.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": _PG_RELAY_LOCK}).scalar():
                return 0  # another relay is publishing; a second one would break the id order
            rows = conn.execute(self._pending().with_for_update(skip_locked=True)).all()
            published, quarantined = self._publish_rows(rows, loop)
            self._mark(conn, published)
            self._quarantine(conn, quarantined)
        return len(rows)

    def _pending(self) -> Any:
        return self._pending_rows

    def _publish_rows(
        self, rows: Sequence[Row[Any]], loop: asyncio.AbstractEventLoop
    ) -> tuple[list[int], list[tuple[Row[Any], str]]]:
        """Publish in id order; an outage stops the batch so later rows never overtake a
        row that will go through later, a row that can never go through is set aside."""
        done: list[int] = []
        bad: list[tuple[Row[Any], str]] = []
        for row in rows:
            problem = unpublishable(row, self._max_payload())
            if problem is None:
                try:
                    self._publish_one(row, loop)
                except _OUTAGES:
                    if not done and not bad:
                        raise
                    break
                except Exception as exc:
                    problem = f"{type(exc).__name__}: {exc}"
            if problem is not None:
                bad.append((row, problem[:_ERROR_CHARS]))
                continue
            done.append(row.id)
        return done, bad

    def _max_payload(self) -> int:
        nc = getattr(self.js, "_nc", None)
        return int(getattr(nc, "max_payload", 0) or 1024 * 1024)

    def _publish_one(self, row: Row[Any], loop: asyncio.AbstractEventLoop) -> None:
        stored = json.loads(row.headers_json)
        attrs = {"messaging.system": "nats", "messaging.destination.name": row.subject}
        # the publish span continues the trace of the work that wrote the row; the consumer's its child.
        # On SQLite every process's relay may publish the same row (JetStream keeps one): only the
        # one whose publish was not a duplicate exports its span.
        name = f"publish {row.subject}"
        with tracing.kept_span(name, parent=stored, kind=SpanKind.PRODUCER, attributes=attrs) as keep:
            headers = {**tracing.inject(stored), MSG_ID_HEADER: row.msg_id}
            future = asyncio.run_coroutine_threadsafe(
                self.js.publish(
                    row.subject, bytes(row.payload), timeout=self.publish_timeout, headers=headers
                ),
                loop,
            )
            ack = future.result(timeout=self.publish_timeout + 1)
            keep.it = not ack.duplicate
            log.debug("outbox.published", subject=row.subject, msg_id=row.msg_id, duplicate=ack.duplicate)

    def _mark(self, conn: Connection, ids: list[int]) -> None:
        if not ids:
            return
        result = conn.execute(_MARK, {"ids": ids, "at": utcnow()})
        self.published += result.rowcount
        PUBLISHED.inc(result.rowcount)

    def _quarantine(self, conn: Connection, rows: list[tuple[Row[Any], str]]) -> None:
        for row, problem in rows:
            conn.execute(
                update(outbox)
                .where(outbox.c.id == row.id, outbox.c.published_at.is_(None))
                .values(quarantined_at=utcnow(), error=problem)
            )
            QUARANTINED.inc()
            log.error(
                "outbox.quarantined",
                outbox_id=row.id,
                subject=_excerpt(row.subject),
                msg_id=_excerpt(row.msg_id),
                error=problem,
            )


def unpublishable(row: Row[Any], max_payload: int) -> str | None:
    """Why NATS can never take this row, or None: checked before sending, so that a
    subject with a newline never reaches the wire (where it would break the connection)."""
    if not _SUBJECT.fullmatch(row.subject):
        return f"subject {_excerpt(row.subject)} is not a NATS subject"
    try:
        headers = json.loads(row.headers_json)
    except ValueError:
        return "headers_json is not JSON"
    if not isinstance(headers, dict):
        return "headers_json is not an object"
    for key, value in {**headers, MSG_ID_HEADER: row.msg_id}.items():
        if not isinstance(key, str) or not _HEADER_NAME.fullmatch(key):
            return f"header name {_excerpt(str(key))} is not a token"
        if not isinstance(value, str) or any(c in value for c in "\r\n\0"):
            return f"header {key}: value {_excerpt(str(value))} holds a line break or NUL"
    if len(row.payload) > max_payload:
        return f"payload of {len(row.payload)} bytes exceeds the server's {max_payload}"
    return None


def _excerpt(value: str, limit: int = 80) -> str:
    return repr(value[:limit]) + ("..." if len(value) > limit else "")


async def _sleep_or_stop(stop: asyncio.Event, wake: asyncio.Event, seconds: float) -> None:
    waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(wake.wait())]
    try:
        await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waiters:
            w.cancel()
        wake.clear()
