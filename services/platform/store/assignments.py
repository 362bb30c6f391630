"""The officers a naval minister assigned during a turn (rule 2.3), read by
the resolver when the turn is resolved.  A later assignment of a ship in the
same turn replaces the earlier one."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, and_, bindparam, delete, select

from pate.core.rules.validation.assign import Assignment
from services.platform.store import tables


def add_assignments(
    conn: Connection, campaign: str, turn: int, minister: str, items: Sequence[Assignment]
) -> None:
    t = tables.assignments
    for a in items:
        conn.execute(
            delete(t).where(and_(t.c.campaign == campaign, t.c.turn == turn, t.c.ship_id == a.ship_id))
        )
        conn.execute(
            t.insert().values(
                campaign=campaign,
                turn=turn,
                ship_id=a.ship_id,
                commander=a.commander,
                deputy=a.deputy,
                minister=minister,
            )
        )


@cache
def _of_turn() -> Select[Any]:
    t = tables.assignments
    where = and_(t.c.campaign == bindparam("campaign"), t.c.turn == bindparam("turn"))
    return select(t).where(where).order_by(t.c.ship_id)


def assignments(
    conn: Connection, campaign: str, turn: int, excluding: frozenset[str] = frozenset()
) -> list[Assignment]:
    """The turn's assignments, but those of the ministers in ``excluding`` (players whose turn
    the game master resolved with the defaults of rule 4.11: docs/rules/turn.md)."""
    rows = conn.execute(_of_turn(), {"campaign": campaign, "turn": turn}).all()
    return [Assignment(r.ship_id, r.commander, r.deputy) for r in rows if r.minister not in excluding]
