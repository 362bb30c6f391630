"""Turns that wait for an event nobody handles, messages set aside as poison (``pate turn
stuck|poison``), and putting a waiting turn's event on the bus again: the lost-event half of
the one retry, ``RetryTurn`` (``pate campaign retry``; services/orders/recovery.py), which
takes it when the turn has not failed.

A campaign waits between two stages (STARTING, CLOSED, RESOLVING, RESOLVED, REPORTED) for the
last event it wrote to its outbox.  When that event is lost (a stream rebuilt after a restore)
or its message was terminated as poison (after fixing the cause), writing a copy of its
outbox row under a new message id makes the relay publish it again; the stage's handler finds
what is already stored and does only what is missing, so a second handling is harmless.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, func, select

from services.platform.store.tables import audit, campaigns, outbox, utcnow

WAITING = ("STARTING", "CLOSED", "RESOLVING", "RESOLVED", "REPORTED")
MAX_RETRIES = 99  # copies of one event: more means the cause was not fixed


@dataclass(frozen=True)
class Stuck:
    campaign: str
    turn: int
    status: str
    waiting_for: str  # the subject of the last event the campaign wrote
    msg_id: str
    since: datetime


@dataclass(frozen=True)
class Poison:
    at: datetime
    campaign: str | None
    turn: int | None
    consumer: str
    msg_id: str
    error: str


def stuck_turns(conn: Connection, older_than: timedelta, now: datetime | None = None) -> list[Stuck]:
    """Campaigns waiting for an event written longer than ``older_than`` ago."""
    limit = (now or utcnow()) - older_than
    out: list[Stuck] = []
    rows = conn.execute(select(campaigns.c.id, campaigns.c.turn, campaigns.c.status).order_by(campaigns.c.id))
    for c in rows:
        if c.status not in WAITING:
            continue
        last = last_event(conn, c.id)
        if last is not None and last.created_at <= limit:
            out.append(Stuck(c.id, c.turn, c.status, last.subject, last.msg_id, last.created_at))
    return out


def last_event(conn: Connection, campaign: str):  # type: ignore[no-untyped-def]
    """(subject, msg_id, created_at) of the last event ``campaign`` wrote to its outbox, or None."""
    prefix = _like_prefix(campaign) + ":"
    return conn.execute(
        select(outbox.c.subject, outbox.c.msg_id, outbox.c.created_at)
        .where(outbox.c.msg_id.like(prefix + "%", escape="\\"))
        .order_by(outbox.c.id.desc())
        .limit(1)
    ).first()


def poison_messages(conn: Connection, limit: int = 100) -> list[Poison]:
    rows = conn.execute(
        select(audit.c.created_at, audit.c.campaign, audit.c.turn, audit.c.detail_json)
        .where(audit.c.action == "poison_message")
        .order_by(audit.c.id.desc())
        .limit(limit)
    )
    out = []
    for r in rows:
        d = json.loads(r.detail_json or "{}")
        out.append(
            Poison(
                r.created_at,
                r.campaign,
                r.turn,
                str(d.get("consumer", "")),
                str(d.get("msg_id", "")),
                str(d.get("error", ""))[:200],
            )
        )
    return out


def retry(conn: Connection, msg_id: str) -> str:
    """Queue the outbox row ``msg_id`` again under a new id; the new id.  LookupError when
    the row is gone (pruned after PATE_OUTBOX_RETENTION_HOURS) or retried too often."""
    row = conn.execute(select(outbox).where(outbox.c.msg_id == msg_id)).first()
    if row is None:
        raise LookupError(f"no outbox row {msg_id!r} (pruned, or never written)")
    base = msg_id.split(":retry-", maxsplit=1)[0]
    copies = outbox.c.msg_id.like(_like_prefix(base) + ":retry-%", escape="\\")
    tries = conn.execute(select(func.count()).select_from(outbox).where(copies)).scalar_one()
    if tries >= MAX_RETRIES:
        raise LookupError(f"{base!r} was queued again {tries} times: fix the cause first (logs, audit)")
    new_id = f"{base}:retry-{tries + 1}"
    conn.execute(
        outbox.insert().values(
            subject=row.subject,
            msg_id=new_id,
            payload=row.payload,
            headers_json=row.headers_json,
            created_at=utcnow(),
        )
    )
    return new_id


def _like_prefix(text: str) -> str:
    """``text`` for a LIKE pattern, its wildcards escaped with a backslash."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
