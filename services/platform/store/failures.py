"""Turns that could not be resolved, and the players whose orders were replaced by defaults.

A campaign has at most one failed turn: the stage that gave up (the resolver
when the engine raised, or any stage whose message became poison), a reason
the game master may read, and the message given up on, which a retry
publishes again (docs/operations.md, "A failed turn").
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, Delete, Select, bindparam, delete, func, insert, select
from sqlalchemy.exc import SQLAlchemyError

from services.platform.store.recovery_tables import turn_defaults, turn_failures
from services.platform.store.tables import campaigns, utcnow

REASON_CHARS = 200
_UNSAFE = re.compile(r"[^A-Za-z0-9 _.,:;'()\[\]=<>/+-]")


@dataclass(frozen=True, slots=True)
class TurnFailure:
    campaign: str
    turn: int
    stage: str
    reason: str
    subject: str
    payload: bytes
    headers: dict[str, str]
    failed_at: datetime


def failure_reason(exc: BaseException) -> str:
    """What the game master is told of a failure: the exception's class and the first
    line of its message, printable characters only, at most REASON_CHARS.  A database
    error says only its class (its text may hold SQL and the values bound to it), and
    no traceback is ever kept."""
    name = type(exc).__name__[:60]
    if isinstance(exc, SQLAlchemyError):
        return f"{name} (database error)"
    first = (str(exc).splitlines() or [""])[0]
    text = _UNSAFE.sub("?", first)
    reason = f"{name}: {text}" if text else name
    return reason if len(reason) <= REASON_CHARS else reason[: REASON_CHARS - 3] + "..."


def record_failure(
    conn: Connection,
    campaign: str,
    turn: int,
    *,
    stage: str,
    reason: str,
    subject: str,
    payload: bytes,
    headers: Mapping[str, str],
    at: datetime | None = None,
) -> bool:
    """Mark the campaign's turn failed (replacing an earlier failure); False, and
    nothing stored, when there is no such campaign."""
    if conn.execute(select(campaigns.c.id).where(campaigns.c.id == campaign)).first() is None:
        return False
    conn.execute(delete(turn_failures).where(turn_failures.c.campaign == campaign))
    conn.execute(
        insert(turn_failures).values(
            campaign=campaign,
            turn=turn,
            stage=stage[:64],
            reason=reason[:REASON_CHARS],
            subject=subject[:200],
            payload=payload,
            headers_json=json.dumps(dict(headers), sort_keys=True),
            failed_at=at or utcnow(),
        )
    )
    return True


def get_failure(conn: Connection, campaign: str) -> TurnFailure | None:
    row = conn.execute(select(turn_failures).where(turn_failures.c.campaign == campaign)).first()
    return _failure(row) if row is not None else None


def all_failures(conn: Connection) -> dict[str, TurnFailure]:
    rows = conn.execute(select(turn_failures).order_by(turn_failures.c.campaign)).all()
    return {r.campaign: _failure(r) for r in rows}


def count_failures(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(turn_failures)).scalar_one())


@cache
def _clear() -> Delete:
    return delete(turn_failures).where(turn_failures.c.campaign == bindparam("campaign"))


@cache
def _defaulted() -> Select[Any]:
    c = turn_defaults.c
    return select(c.player).where(c.campaign == bindparam("campaign"), c.turn == bindparam("turn"))


def clear_failure(conn: Connection, campaign: str) -> bool:
    return conn.execute(_clear(), {"campaign": campaign}).rowcount == 1


def add_defaulted(conn: Connection, campaign: str, turn: int, player: str) -> None:
    exists = conn.execute(
        select(turn_defaults.c.player).where(
            turn_defaults.c.campaign == campaign,
            turn_defaults.c.turn == turn,
            turn_defaults.c.player == player,
        )
    ).first()
    if exists is None:
        conn.execute(insert(turn_defaults).values(campaign=campaign, turn=turn, player=player))


def defaulted_players(conn: Connection, campaign: str, turn: int) -> frozenset[str]:
    rows = conn.execute(_defaulted(), {"campaign": campaign, "turn": turn}).all()
    return frozenset(str(r.player) for r in rows)


def _failure(r: Any) -> TurnFailure:
    headers = json.loads(r.headers_json)
    return TurnFailure(
        campaign=r.campaign,
        turn=int(r.turn),
        stage=r.stage,
        reason=r.reason,
        subject=r.subject,
        payload=bytes(r.payload),
        headers={str(k): str(v) for k, v in headers.items()},
        failed_at=r.failed_at,
    )
