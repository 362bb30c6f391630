"""When the next turn's deadline falls (its opening, or the kept schedule of an early close)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, bindparam, select

from services.platform.store import desk_tables
from services.platform.store import repository as repo


@cache
def _early_close_query() -> Select[Any]:
    """Built once: it is read at every opening of a scheduled turn."""
    t = desk_tables.early_close
    return select(t).where(t.c.campaign == bindparam("campaign"))


def next_deadline(conn: Connection, row: repo.CampaignRow, turn: int, at: datetime) -> datetime | None:
    """The deadline of the turn after ``turn``: from its opening, or, when the
    turn closed early and the game master keeps the schedule, one turn after
    the deadline it would have had."""
    if not row.turn_seconds:
        return None
    step = timedelta(seconds=row.turn_seconds)
    found = conn.execute(_early_close_query(), {"campaign": row.id}).first()
    if (
        found is not None
        and found.keep_schedule
        and found.closed_turn == turn
        and found.scheduled_deadline is not None
        and found.scheduled_deadline + step > at
    ):
        return found.scheduled_deadline + step  # type: ignore[no-any-return]
    return at + step
