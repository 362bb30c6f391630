"""Idempotent JetStream consumer: the work and its processed-message record commit together.

Many processes share one durable pull consumer (same durable name = one
work queue).  For each message, one database transaction first claims
(durable, Nats-Msg-Id) in ``processed_messages`` and then runs the handler;
only after the commit is the message acked.  A message seen again (redelivery
after a crash, a re-published event) finds its claim and is acked untouched.
A groupable handler's messages of one fetch share such a transaction (group.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Callable
from typing import Any

import grpc
import nats.errors
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode
from prometheus_client import Counter
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError

from services.platform.bus import (
    CAMPAIGN_HEADER,
    STREAM,
    TURN_HEADER,
    campaign_of,
    ensure_stream,
)
from services.platform.bus.group import Received, attributes, is_groupable, received, work_group
from services.platform.bus.outbox import events_added, forget_added
from services.platform.faults import crash_point
from services.platform.store import failures
from services.platform.store.writes import mark_processed, record_audit
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import bind_context, get_logger

Handler = Callable[[Connection, bytes, dict[str, str]], None]
log = get_logger(__name__)
_DURABLE = re.compile(r"[A-Za-z0-9_-]+")
_TRANSIENT_GRPC = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
_TURN = re.compile(r"[0-9]{1,9}")

POISONED = Counter(
    "pate_consumer_poison_messages",
    "Messages terminated because their handler kept failing (or failed permanently)",
    ["consumer"],
)


# A message whose worker died is redelivered this long after its last heartbeat; a
# living worker beats every ACK_WAIT_S / 4 (msg.in_progress), so a long turn is never
# redelivered while its worker runs.  Takeover after a SIGKILL: under ACK_WAIT_S plus
# one fetch timeout (the recovery goal: under 5 s, docs/operations.md).  2 s: a takeover
# within a second or two of the worker's death; a heartbeat starved past it on a loaded
# machine costs a redelivery that the claim turns into a skipped duplicate, never a second run.
ACK_WAIT_S = 2.0
FETCH_RETRY_S = 0.2  # after a refused fetch (no leader, no connection)
_NOT_STARTED = object()  # a message of a batch left when the worker was told to stop
_EMITTED = object()  # a message handled whose transaction queued events for the relay


class TransientError(Exception):
    """Raised by a handler for a failure worth retrying for ever (never poisons the message).
    ``retry_after``: the peer's own word on when to try again (seconds), a floor of the back-off."""

    def __init__(self, *args: object, retry_after: float | None = None) -> None:
        super().__init__(*args)
        self.retry_after = retry_after


class BusyError(Exception):
    """Raised by a handler for a peer that asks to be called again later (too busy, a conflict):
    retried with the back-off like an outage, but set aside as poison after ``give_up_after``
    deliveries, since a peer that stays busy that long needs an administrator."""

    def __init__(self, *args: object, retry_after: float | None = None, give_up_after: int = 20) -> None:
        super().__init__(*args)
        self.retry_after = retry_after
        self.give_up_after = give_up_after


class PermanentError(Exception):
    """Raised by a handler for a message that can never succeed: terminated at once, audited."""


def is_transient(exc: BaseException) -> bool:
    """Outages of the database, the network or a peer service: retry, never give up."""
    if isinstance(exc, TransientError | OperationalError | TimeoutError | ConnectionError):
        return True
    return isinstance(exc, grpc.RpcError) and getattr(exc, "code", lambda: None)() in _TRANSIENT_GRPC


class IdempotentConsumer:
    def __init__(
        self,
        engine: Engine,
        js: JetStreamContext,
        durable: str,
        subject: str,
        handler: Handler,
        *,
        batch: int = 1,
        ack_wait: float = ACK_WAIT_S,
        fetch_timeout: float = 1.0,
        poison_after: int = 5,
        nak_delay: float = 1.0,
        max_nak_delay: float = 30.0,
        after_commit: Callable[[], None] | None = None,
        jitter: bool = False,
    ) -> None:
        """``jitter``: full jitter on the back-off (a delay drawn from 0 to the exponential one),
        so that many messages failing together do not all come back together."""
        if not _DURABLE.fullmatch(durable):
            raise ValueError(f"durable name {durable!r}: letters, digits, '_' and '-' only")
        self.engine = engine
        self.js = js
        self.durable = durable
        self.subject = subject
        self.handler = handler
        self.batch = batch
        self.ack_wait = ack_wait
        self.fetch_timeout = fetch_timeout
        self.poison_after = poison_after
        self.nak_delay = nak_delay
        self.max_nak_delay = max_nak_delay
        self.after_commit = after_commit
        self.jitter = jitter
        self.rand: Callable[[], float] = random.random
        self.grouped = is_groupable(handler)  # several messages of a fetch in one transaction
        self._fetch_failures = 0  # in a row, for the log
        self.processed = 0  # handler commits by this instance
        self.skipped = 0  # duplicates acked without running the handler

    def consumer_config(self) -> ConsumerConfig:
        return ConsumerConfig(
            durable_name=self.durable,
            name=self.durable,
            filter_subject=self.subject,
            ack_policy=AckPolicy.EXPLICIT,
            deliver_policy=DeliverPolicy.ALL,
            ack_wait=self.ack_wait,
            max_deliver=-1,  # outages retry for ever; poison messages are terminated by us
            max_ack_pending=1000,
        )

    async def run(self, stop: asyncio.Event) -> None:
        """Work until ``stop`` is set; the message in hand is finished, later ones are released."""
        sub = await self._subscribe(stop)
        if sub is None:
            return
        try:
            while not stop.is_set():
                msgs = await self._fetch(sub)
                if msgs:
                    await self.handle_batch(msgs, stop)
        finally:
            await _quietly(sub.unsubscribe())

    async def _subscribe(self, stop: asyncio.Event) -> JetStreamContext.PullSubscription | None:
        delay = 0.5
        while not stop.is_set():
            try:
                await ensure_stream(self.js)
                sub = await self.js.pull_subscribe(
                    self.subject, durable=self.durable, stream=STREAM, config=self.consumer_config()
                )
                info = await self.js.consumer_info(STREAM, self.durable)
                if info.config.filter_subject != self.subject:
                    raise ValueError(
                        f"durable {self.durable!r} already filters {info.config.filter_subject!r}, "
                        f"not {self.subject!r}: delete it or choose another name"
                    )
                if info.config.ack_wait is not None and abs(info.config.ack_wait - self.ack_wait) > 0.01:
                    # a durable made by an older version keeps its ack_wait unless told
                    await self.js.add_consumer(STREAM, self.consumer_config())
                    log.info("consumer.updated", consumer=self.durable, ack_wait=self.ack_wait)
                log.info("consumer.subscribed", consumer=self.durable, subject=self.subject)
                return sub
            except ValueError:
                raise
            except Exception as exc:
                log.warning("consumer.subscribe_failed", consumer=self.durable, error=repr(exc))
                await _wait(stop, delay)
                delay = min(delay * 2, 5.0)
        return None

    async def _fetch(self, sub: JetStreamContext.PullSubscription) -> list[Msg]:
        try:
            msgs = await sub.fetch(self.batch, timeout=self.fetch_timeout)
        except nats.errors.TimeoutError:
            self._fetch_failures = 0
            return []
        except Exception as exc:  # disconnected, or the consumer's leader is being elected again
            # A refused fetch answers at once, and the new leader may be there a moment later:
            # ask again soon, logging the 1st, 2nd, 4th, 8th... failure in a row.
            self._fetch_failures += 1
            if self._fetch_failures & (self._fetch_failures - 1) == 0:
                log.warning(
                    "consumer.fetch_failed",
                    consumer=self.durable,
                    error=repr(exc),
                    failures=self._fetch_failures,
                )
            await asyncio.sleep(min(self.fetch_timeout, FETCH_RETRY_S))
            return []
        self._fetch_failures = 0
        return msgs

    async def handle_batch(self, msgs: list[Msg], stop: asyncio.Event | None = None) -> None:
        """The messages of one fetch in one hand-over to a worker thread, each in a transaction
        of its own (one campaign's failure never touches another's), then acked.  Handing
        over, waking the relay and fetching once per batch rather than once per message is
        what a batch saves; messages not started when ``stop`` is set are released."""
        heartbeat = asyncio.create_task(self._heartbeat(msgs))
        try:
            outcomes = await asyncio.to_thread(self._work_through, msgs, stop)
        finally:
            heartbeat.cancel()
        committed = False
        for msg, (mid, outcome) in zip(msgs, outcomes, strict=True):
            if outcome is _NOT_STARTED:
                await _quietly(msg.nak())
            elif isinstance(outcome, Exception):
                await self._failed(msg, mid, outcome)
            else:
                if outcome:
                    self.processed += 1
                    committed = committed or outcome is _EMITTED
                else:
                    self.skipped += 1
                    log.info("consumer.duplicate_skipped", msg_id=mid)
                await self._ack(msg)
        if committed and self.after_commit is not None:
            self.after_commit()  # the events the batch queued leave now, not at the next poll

    def _work_through(self, msgs: list[Msg], stop: asyncio.Event | None) -> list[tuple[str, object]]:
        """Each message's id and outcome: _EMITTED (handled, events queued), True (handled),
        False (a duplicate), the exception, or _NOT_STARTED.  A groupable handler's messages
        go in groups (group.py), each message alone when its group rolled back."""
        out: list[tuple[str, object]] = []
        rest = [received(msg, _turn) for msg in msgs]
        while rest:
            if stop is not None and stop.is_set():
                out += [("", _NOT_STARTED)] * len(rest)
                break
            taken, outcomes = 1, None
            if self.grouped and len(rest) > 1:
                taken, outcomes = work_group(self, rest, True, _EMITTED)
            out += outcomes if outcomes is not None else [self._one(r) for r in rest[:taken]]
            rest = rest[taken:]
        return out

    def _one(self, r: Received) -> tuple[str, object]:
        mid, headers = r.mid, r.headers
        # one span per stage of a turn, a child of the span that wrote the event
        with (
            tracing.span(
                f"{self.durable} process",
                parent=headers,
                kind=SpanKind.CONSUMER,
                attributes=attributes(self.durable, r),
            ),
            bind_context(campaign=r.campaign, turn=r.turn, consumer=self.durable, msg_id=mid),
        ):
            try:
                return mid, self._transaction(r.msg.data, headers, mid)
            except Exception as exc:
                current = trace.get_current_span()
                current.record_exception(exc)
                current.set_status(Status(StatusCode.ERROR, type(exc).__name__))
                return mid, exc

    def _transaction(self, data: bytes, headers: dict[str, str], mid: str) -> object:
        crash_point(f"consumer.{self.durable}.received")  # the recovery test holds a message here
        with metrics.stage_timer(self.durable), self.engine.begin() as conn:
            # Claim first: on PostgreSQL a concurrent duplicate blocks here and then skips.
            if not mark_processed(conn, self.durable, mid):
                return False
            forget_added(conn)
            self.handler(conn, data, headers)
            emitted = events_added(conn)
        return _EMITTED if emitted else True

    async def _heartbeat(self, msgs: list[Msg]) -> None:
        while True:
            await asyncio.sleep(self.ack_wait / 4)
            await _quietly(*(msg.in_progress() for msg in msgs))

    async def _ack(self, msg: Msg) -> None:
        # Not waited for: the claim committed with the work makes a lost ack harmless (the
        # redelivery is acked as a duplicate), and a round trip per message cost a fifth of a
        # small stage's CPU.
        try:
            await msg.ack()
        except Exception as exc:  # the commit stands; a redelivery will be skipped as a duplicate
            log.warning("consumer.ack_failed", error=repr(exc))

    async def _failed(self, msg: Msg, mid: str, exc: Exception) -> None:
        deliveries = msg.metadata.num_delivered
        permanent = isinstance(exc, PermanentError)
        limit = exc.give_up_after if isinstance(exc, BusyError) else self.poison_after
        if permanent or (not is_transient(exc) and deliveries >= limit):
            POISONED.labels(consumer=self.durable).inc()
            log.error(
                "consumer.poison_message",
                deliveries=deliveries,
                subject=msg.subject[:120],
                error=repr(exc)[:300],
                exc_info=exc,
            )
            await asyncio.to_thread(self._audit_poison, msg, mid, deliveries, exc)
            await _quietly(msg.term())
            return
        delay = self.retry_delay(deliveries, exc)
        log.warning(
            "consumer.handler_failed", deliveries=deliveries, retry_in_s=delay, error=repr(exc), exc_info=exc
        )
        await _quietly(msg.nak(delay=delay))

    def retry_delay(self, deliveries: int, exc: Exception) -> float:
        """The back-off before delivery ``deliveries + 1``: ``nak_delay`` doubling per delivery up
        to ``max_nak_delay``, drawn from 0 to that with ``jitter``; never below the peer's own
        ``retry_after``, itself bounded by ``max_nak_delay``."""
        ceiling = min(self.max_nak_delay, self.nak_delay * 2 ** max(0, deliveries - 1))
        delay: float = self.rand() * ceiling if self.jitter else ceiling
        hint = getattr(exc, "retry_after", None)
        if isinstance(hint, int | float) and hint > 0:
            delay = max(delay, min(float(hint), self.max_nak_delay))
        return delay

    def _audit_poison(self, msg: Msg, mid: str, deliveries: int, exc: Exception) -> None:
        """Audit the poison message and, when it names a campaign's turn, mark that turn
        failed where its game master sees it: poison is never a log line alone."""
        headers = msg.headers or {}
        turn = headers.get(TURN_HEADER, "")
        campaign = headers.get(CAMPAIGN_HEADER) or campaign_of(msg.subject)
        try:
            with self.engine.begin() as conn:
                if campaign and _turn(turn) is not None and self._mark_failed(conn, msg, campaign, exc):
                    metrics.TURN_FAILURES.labels(stage=self.durable).inc()
                record_audit(
                    conn,
                    action="poison_message",
                    accepted=False,
                    campaign=campaign,
                    turn=_turn(turn),
                    detail={
                        "consumer": self.durable,
                        "msg_id": mid,
                        "subject": msg.subject,
                        "deliveries": deliveries,
                        "error": repr(exc),
                    },
                )
        except Exception:
            log.exception("consumer.audit_failed")

    def _mark_failed(self, conn: Connection, msg: Msg, campaign: str, exc: Exception) -> bool:
        return failures.record_failure(
            conn,
            campaign,
            _turn((msg.headers or {}).get(TURN_HEADER)) or 0,
            stage=self.durable,
            reason=failures.failure_reason(exc),
            subject=msg.subject,
            payload=msg.data,
            headers=msg.headers or {},
        )


def _turn(header: str | None) -> int | None:
    return int(header) if header and _TURN.fullmatch(header) else None


async def _quietly(*aws: Any) -> None:
    """Await acks/naks whose failure only means the server will redeliver."""
    for aw in aws:
        try:
            await aw
        except Exception as exc:
            log.debug("consumer.ack_ignored", error=repr(exc))


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)
