"""The operator's upkeep of the outbox and the stream, one command per runbook step
(docs/operations.md, "Runbooks"): rows the relay set aside, the consumers' old claims, and a
stream rebuilt from the database after a restore.

Nothing here takes hand-written SQL from an operator: each function does one bounded thing
and says what it did.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, Engine, delete, select, update

from services.platform.bus import MAX_AGE_S
from services.platform.runtime.stuck import retry, stuck_turns
from services.platform.store.tables import outbox, processed_messages, utcnow

PRUNE_BATCH = 1000  # claims deleted per short transaction: writers are never held up
SHORTEST_KEEP_DAYS = int(
    MAX_AGE_S // 86400
)  # a claim younger than the stream's max age still guards a message


@dataclass(frozen=True)
class Quarantined:
    row_id: int
    subject: str
    msg_id: str
    at: datetime
    error: str


def quarantined_rows(conn: Connection, limit: int = 100) -> list[Quarantined]:
    """The outbox rows the relay set aside (a subject or size NATS can never take), newest first."""
    rows = conn.execute(
        select(outbox.c.id, outbox.c.subject, outbox.c.msg_id, outbox.c.quarantined_at, outbox.c.error)
        .where(outbox.c.quarantined_at.is_not(None), outbox.c.published_at.is_(None))
        .order_by(outbox.c.id.desc())
        .limit(limit)
    )
    return [Quarantined(r.id, r.subject, r.msg_id, r.quarantined_at, (r.error or "")[:200]) for r in rows]


def release(conn: Connection, row_id: int) -> Quarantined:
    """Hand a quarantined row back to the relay, which publishes it at its next pass (after the
    cause was fixed).  LookupError when no such row waits."""
    found = [q for q in quarantined_rows(conn, limit=10_000) if q.row_id == row_id]
    if not found:
        raise LookupError(f"no quarantined outbox row {row_id} (published, released or never set aside)")
    conn.execute(update(outbox).where(outbox.c.id == row_id).values(quarantined_at=None, error=None))
    return found[0]


def prune_claims(engine: Engine, older_than_days: int) -> int:
    """Delete the consumers' claims of messages older than ``older_than_days`` (at least the
    stream's max age: a younger claim may still guard a message the stream could deliver
    again), in batches of PRUNE_BATCH, each its own transaction; the number deleted."""
    if older_than_days < SHORTEST_KEEP_DAYS:
        raise ValueError(
            f"--older-than-days: at least {SHORTEST_KEEP_DAYS} (the stream keeps messages that long)"
        )
    limit = utcnow() - timedelta(days=older_than_days)
    t = processed_messages
    total = 0
    while True:
        with engine.begin() as conn:
            keys = conn.execute(
                select(t.c.consumer, t.c.msg_id).where(t.c.processed_at < limit).limit(PRUNE_BATCH)
            ).all()
            for consumer, msg_id in keys:
                conn.execute(delete(t).where(t.c.consumer == consumer, t.c.msg_id == msg_id))
        total += len(keys)
        if len(keys) < PRUNE_BATCH:
            return total


@dataclass(frozen=True)
class Requeued:
    campaign: str
    turn: int
    status: str
    msg_id: str  # the copy queued for the relay


def requeue_waiting(conn: Connection) -> list[Requeued]:
    """Every campaign between two stages waits for an event a rebuilt stream does not hold:
    queue a copy of each such event (the relay publishes it; its stage finds what is already
    stored and does only what is missing)."""
    out = []
    for s in stuck_turns(conn, timedelta(0)):
        out.append(Requeued(s.campaign, s.turn, s.status, retry(conn, s.msg_id)))
    return out
