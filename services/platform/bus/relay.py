"""The outbox relay: rows of the outbox published to JetStream, in order, once.

It publishes unpublished rows (``services.platform.bus.outbox``) and marks them
only after JetStream acked them.  A crash between the ack and the mark
re-publishes the row; JetStream drops that copy because the ``Nats-Msg-Id``
repeats inside the duplicate window.

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
from collections.abc import Sequence
from typing import Any

import nats.errors
import nats.js.errors
from nats.js import JetStreamContext
from opentelemetry.trace import SpanKind
from prometheus_client import Counter
from sqlalchemy import Connection, Engine, Row, bindparam, select, text, update

from services.platform.bus import MSG_ID_HEADER
from services.platform.store.db import is_sqlite, reader
from services.platform.store.tables import outbox, utcnow
from services.platform.telemetry import tracing
from services.platform.telemetry.logging import get_logger

log = get_logger(__name__)
_PG_RELAY_LOCK = 0x5A7E_0002  # held by the one relay publishing at a time
_TRY_LOCK = text("SELECT pg_try_advisory_xact_lock(:k)")
_LOCKED = -1  # what a batch returns while another relay holds the lock
_LOCKED_RETRY_S = 0.05
_RETRY_BASE_S = 0.05  # the first retry after a failed batch: 0.1 s, doubling up to max_backoff
_NOT_SENT = object()  # a row of a wave after an outage
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


_MARK = (
    update(outbox)
    .where(outbox.c.id.in_(bindparam("ids", expanding=True)), outbox.c.published_at.is_(None))
    .values(published_at=bindparam("at"))
)


class OutboxRelay:
    """Publishes outbox rows to JetStream; run one per process that writes events.

    Several relays may run against one database and the stream still
    receives the rows once, each subject's in id order.  A batch is published
    with one hand-over from the relay's thread to the event loop, its rows in
    flight together (``publish_waves``), which is what keeps a relay cheap per
    event.  On PostgreSQL one relay at a time holds an advisory lock (the
    others look again every 50 ms while it publishes, and take over within one
    poll interval if it dies) and claims its batch with ``FOR UPDATE SKIP
    LOCKED`` until the rows are published and marked.  On SQLite, holding the single
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
        max_backoff: float = 1.0,
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
        _RUNNING.add(self)
        try:
            await self._run(stop)
        finally:
            _RUNNING.discard(self)

    async def _run(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while not stop.is_set():
            try:
                sent = await asyncio.to_thread(self._relay_batch, loop)
                failures = 0
            except Exception as exc:
                failures += 1
                # An outage of NATS is mostly a stream leader being elected again (a few
                # seconds): try again within a second of its end, not at the next poll, and
                # log the first failure and then ever fewer of a long outage.
                delay = min(self.max_backoff, _RETRY_BASE_S * 2**failures)
                if failures & (failures - 1) == 0:
                    log.warning(
                        "outbox.publish_failed",
                        error=repr(exc),
                        failures=failures,
                        retry_in_s=round(delay, 2),
                    )
                await _sleep_or_stop(stop, self._wake, delay)
                continue
            if sent == _LOCKED:
                # another process's relay is publishing: its batch may have been chosen before
                # this process's rows committed, so look again soon rather than at the next poll
                await _sleep_or_stop(stop, self._wake, min(self.poll_interval, _LOCKED_RETRY_S))
            elif sent < self.batch:  # caught up: wait for new rows
                await _sleep_or_stop(stop, self._wake, self.poll_interval)

    async def drain(self) -> int:
        """Publish everything pending now (tests, tools). Returns the number of rows marked."""
        loop = asyncio.get_running_loop()
        total = 0
        while (sent := await asyncio.to_thread(self._relay_batch, loop)) > 0:
            total += sent
        return total

    # -- worker thread ---------------------------------------------------------------------------------

    def _relay_batch(self, loop: asyncio.AbstractEventLoop) -> int:
        """Publish one batch; the rows looked at, or ``_LOCKED`` while another relay publishes."""
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
            if not conn.execute(_TRY_LOCK, {"k": _PG_RELAY_LOCK}).scalar():
                return _LOCKED  # another relay is publishing; a second one would break the order
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
        """Publish a batch with one hand-over to the event loop, its rows in flight together
        (waves, below); mark them in id order: an outage stops the marking at the first row
        it hit, so that row and every later one go again, and a row that can never go
        through is set aside."""
        done: list[int] = []
        bad: list[tuple[Row[Any], str]] = []
        sendable: list[Row[Any]] = []
        for row in rows:
            problem = unpublishable(row, self._max_payload())
            if problem is None:
                sendable.append(row)
            else:
                bad.append((row, problem[:_ERROR_CHARS]))
        outcome = self._send(sendable, loop)
        for row in sendable:
            result = outcome.get(row.id, _NOT_SENT)
            if result is _NOT_SENT or isinstance(result, _OUTAGES) or _cancelled(result):
                if not done and not bad:
                    raise result if isinstance(result, Exception) else TimeoutError("publish not done")
                break
            if isinstance(result, BaseException):
                bad.append((row, f"{type(result).__name__}: {result}"[:_ERROR_CHARS]))
            else:
                done.append(row.id)
        return done, bad

    def _max_payload(self) -> int:
        nc = getattr(self.js, "_nc", None)
        return int(getattr(nc, "max_payload", 0) or 1024 * 1024)

    def _send(self, rows: Sequence[Row[Any]], loop: asyncio.AbstractEventLoop) -> dict[int, object]:
        """Each row's publish outcome (its ack, or the exception), from one run in the loop."""
        if not rows:
            return {}
        waves = publish_waves(rows)
        future = asyncio.run_coroutine_threadsafe(self._send_waves(waves), loop)
        try:
            return future.result(timeout=(self.publish_timeout + 1) * len(waves))
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise

    async def _send_waves(self, waves: list[list[Row[Any]]]) -> dict[int, object]:
        out: dict[int, object] = {}
        for wave in waves:
            results = await asyncio.gather(*(self._publish_one(row) for row in wave), return_exceptions=True)
            out.update(zip((row.id for row in wave), results, strict=True))
            if any(isinstance(r, _OUTAGES) or _cancelled(r) for r in results):
                break  # the next waves hold later rows of the same subjects: they wait
        return out

    async def _publish_one(self, row: Row[Any]) -> object:
        stored = json.loads(row.headers_json)
        attrs = {"messaging.system": "nats", "messaging.destination.name": row.subject}
        # the publish span continues the trace of the work that wrote the row; the consumer's its child.
        # On SQLite every process's relay may publish the same row (JetStream keeps one): only the
        # one whose publish was not a duplicate exports its span.
        name = f"publish {row.subject}"
        with tracing.kept_span(name, parent=stored, kind=SpanKind.PRODUCER, attributes=attrs) as keep:
            headers = {**tracing.inject(stored), MSG_ID_HEADER: row.msg_id}
            ack = await self.js.publish(
                row.subject, bytes(row.payload), timeout=self.publish_timeout, headers=headers
            )
            keep.it = not ack.duplicate
            log.debug("outbox.published", subject=row.subject, msg_id=row.msg_id, duplicate=ack.duplicate)
            return ack

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


_RUNNING: set[OutboxRelay] = set()  # the relays running in this process's event loop


def wake_relays() -> None:
    """Wake this process's running relays (call in the event loop after committing events
    outside a consumer: a gRPC call's transaction), so they leave now, not at the next poll."""
    for relay in _RUNNING:
        relay.notify()


def publish_waves(rows: Sequence[Row[Any]]) -> list[list[Row[Any]]]:
    """Rows in waves sent one after another, the rows of a wave in flight together: the n-th
    row of a subject goes in the n-th wave, so a subject's events reach the stream in id order
    even when an outage stops a batch part way (rows of different subjects may then arrive out
    of id order: they are different campaigns or stages, which no consumer orders together)."""
    waves: list[list[Row[Any]]] = []
    seen: dict[str, int] = {}
    for row in rows:
        depth = seen.get(row.subject, 0)
        if depth == len(waves):
            waves.append([])
        waves[depth].append(row)
        seen[row.subject] = depth + 1
    return waves


def _cancelled(result: object) -> bool:
    return isinstance(result, asyncio.CancelledError)


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
