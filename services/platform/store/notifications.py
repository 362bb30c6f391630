"""Notification choices and the messages waiting to be sent.

Shared by the orders service (a player sets his choices through PlayerDesk)
and the notifier worker (which queues and sends).  A message's key (campaign,
player, event key, channel) is its primary key: queueing the same event twice
adds nothing, so a redelivered bus message sends nothing twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, select, update

from services.platform.errors import Code, DeskError
from services.platform.store import tables

KINDS = ("turn_opened", "deadline", "reports", "campaign", "messages")
# The campaign column of an account's mail (docs/accounts.md): '@' is in no campaign id.  Its
# body holds a single-use link, so it is erased once the mail is sent or given up.
ACCOUNT_MAIL = "@account"
MAX_ATTEMPTS = 6
_EMAIL = re.compile(r"[^@\s<>,;]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}")
_URL = re.compile(r"https?://[^\s]{1,490}")


@dataclass(frozen=True, slots=True)
class Prefs:
    email: str = ""
    webhook: str = ""
    kinds: tuple[str, ...] = ()


def check_prefs(email: str, webhook: str, kinds: list[str]) -> Prefs:
    """Hostile input is normal input: each field checked, named when wrong."""
    email, webhook = email.strip(), webhook.strip()
    if email and (len(email) > 320 or not _EMAIL.fullmatch(email)):
        raise DeskError(Code.INVALID_ARGUMENT, "email: not an email address")
    if webhook and not _URL.fullmatch(webhook):
        raise DeskError(
            Code.INVALID_ARGUMENT, "webhook: an http:// or https:// URL of at most 500 characters"
        )
    if webhook and "@" in webhook.split("/", 3)[2]:
        # the notifier refuses loopback, private and metadata addresses when it sends
        raise DeskError(Code.INVALID_ARGUMENT, "webhook: no user name or password in the URL")
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise DeskError(
            Code.INVALID_ARGUMENT, f"kinds: unknown {', '.join(unknown)[:100]} (one of {', '.join(KINDS)})"
        )
    return Prefs(email, webhook, tuple(k for k in KINDS if k in kinds))


def get_prefs(conn: Connection, campaign: str, player: str) -> Prefs:
    t = tables.notify_prefs
    row = conn.execute(select(t).where(and_(t.c.campaign == campaign, t.c.player == player))).first()
    if row is None:
        return Prefs()
    return Prefs(row.email or "", row.webhook or "", tuple(k for k in row.kinds.split(",") if k))


def set_prefs(conn: Connection, campaign: str, player: str, prefs: Prefs, now: datetime) -> None:
    t = tables.notify_prefs
    values = {
        "email": prefs.email or None,
        "webhook": prefs.webhook or None,
        "kinds": ",".join(prefs.kinds),
        "updated_at": now,
    }
    done = conn.execute(
        update(t).where(and_(t.c.campaign == campaign, t.c.player == player)).values(**values)
    )
    if done.rowcount == 0:
        conn.execute(t.insert().values(campaign=campaign, player=player, **values))


def subscribers(conn: Connection, campaign: str, kind: str) -> list[tuple[str, Prefs]]:
    t = tables.notify_prefs
    rows = conn.execute(select(t).where(t.c.campaign == campaign).order_by(t.c.player)).all()
    out = []
    for row in rows:
        prefs = Prefs(row.email or "", row.webhook or "", tuple(k for k in row.kinds.split(",") if k))
        if kind in prefs.kinds and (prefs.email or prefs.webhook):
            out.append((row.player, prefs))
    return out


def enqueue(
    conn: Connection,
    campaign: str,
    player: str,
    key: str,
    prefs: Prefs,
    subject: str,
    body: str,
    now: datetime,
) -> int:
    """Queue the message on each channel the player gave; an existing key is left alone."""
    t = tables.notifications
    added = 0
    for channel, target in (("email", prefs.email), ("webhook", prefs.webhook)):
        if not target:
            continue
        exists = conn.execute(
            select(t.c.status).where(
                and_(t.c.campaign == campaign, t.c.player == player, t.c.key == key, t.c.channel == channel)
            )
        ).first()
        if exists is not None:
            continue
        conn.execute(
            t.insert().values(
                campaign=campaign,
                player=player,
                key=key[:120],
                channel=channel,
                target=target,
                subject=subject[:200],
                body=body,
                status="pending",
                attempts=0,
                next_at=now,
            )
        )
        added += 1
    return added


def due(conn: Connection, now: datetime, limit: int = 50) -> list[Any]:
    t = tables.notifications
    return list(
        conn.execute(
            select(t)
            .where(and_(t.c.status == "pending", t.c.next_at <= now))
            .order_by(t.c.next_at)
            .limit(limit)
        ).all()
    )


def _where(row: Any) -> Any:
    t = tables.notifications
    return and_(
        t.c.campaign == row.campaign, t.c.player == row.player, t.c.key == row.key, t.c.channel == row.channel
    )


def lease(conn: Connection, row: Any, until: datetime) -> None:
    conn.execute(update(tables.notifications).where(_where(row)).values(next_at=until))


def mark(conn: Connection, row: Any, ok: bool, now: datetime) -> None:
    """Sent; or tried once more, later (doubling the wait), and given up after MAX_ATTEMPTS."""
    t = tables.notifications
    where = _where(row)
    scrub = {"body": ""} if row.campaign == ACCOUNT_MAIL else {}
    if ok:
        values = {"status": "sent", "sent_at": now, "attempts": row.attempts + 1, **scrub}
        conn.execute(update(t).where(where).values(**values))
        return
    attempts = row.attempts + 1
    status = "failed" if attempts >= MAX_ATTEMPTS else "pending"
    wait = timedelta(seconds=min(3600, 5 * 2**attempts))
    gone = scrub if status == "failed" else {}
    conn.execute(update(t).where(where).values(status=status, attempts=attempts, next_at=now + wait, **gone))
