"""Transactional outbox: events are rows written with the work, published later.

``add_to_outbox`` runs inside the caller's transaction, so an event exists
if and only if the work that caused it committed.  The relay
(``services.platform.bus.relay``) publishes the rows and marks them only
after JetStream acked them; this module holds the writing side, the pruning
of published rows and the count of those waiting.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

from google.protobuf.message import Message
from sqlalchemy import Connection, Engine, delete, func, select

from services.platform import bus
from services.platform.store.db import reader
from services.platform.store.tables import outbox, utcnow
from services.platform.store.writes import insert_ignore, insert_ignore_many
from services.platform.telemetry import metrics
from services.platform.telemetry.logging import get_logger

log = get_logger(__name__)


# Set on a connection when add_to_outbox queues an event: a consumer wakes its relay after a
# transaction that queued one, and not after one that did not (a duplicate, or the GITM
# bridge where no GITM is configured), which would only make the relay look for nothing.
_ADDED = "pate.outbox.added"


def forget_added(conn: Connection) -> None:
    """Clear the mark: it lives on the pooled connection, from one transaction to the next."""
    conn.info.pop(_ADDED, None)


def events_added(conn: Connection) -> bool:
    """Whether add_to_outbox queued an event on ``conn`` since forget_added."""
    return bool(conn.info.get(_ADDED))


# Set on a connection by a group of messages sharing one transaction (group.py): the rows its
# handlers queue are kept here and written in one statement before the group commits.
_HELD = "pate.outbox.held"


def add_to_outbox(
    conn: Connection, subject: str, msg_id: str, payload: bytes, headers: Mapping[str, str] | None = None
) -> bool:
    """Queue one event in the caller's transaction. A repeated ``msg_id`` is a no-op (returns False).
    Inside a group (hold_outbox) the row is written when the group's rows are, and the call
    answers True: a repeated ``msg_id`` is then left out there."""
    row = {
        "subject": subject,
        "msg_id": msg_id,
        "payload": payload,
        "headers_json": json.dumps(dict(headers or {}), sort_keys=True),
        "created_at": utcnow(),
    }
    held = conn.info.get(_HELD)
    if held is not None:
        held.append(row)
        conn.info[_ADDED] = True
        return True
    added = insert_ignore(conn, outbox, row, ("msg_id",))
    if added:
        conn.info[_ADDED] = True
    return added


@contextlib.contextmanager
def held_outbox(conn: Connection) -> Iterator[None]:
    """Keep the rows queued on ``conn`` inside the block and write them in one statement at its
    end (the block's transaction commits them; an exception leaves them unwritten)."""
    rows: list[dict[str, Any]] = []
    conn.info[_HELD] = rows
    try:
        yield
        insert_ignore_many(conn, outbox, rows, ("msg_id",))
    finally:
        conn.info.pop(_HELD, None)  # the mark lives on the pooled connection: never leave it


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
