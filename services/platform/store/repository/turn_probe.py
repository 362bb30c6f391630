"""What a stage needs to know of a turn before it reads it, asked in one statement.

Each of a resolver's reads was a statement of its own, and most of them found nothing on
most turns (no failure to clear, no player defaulted, no officers assigned, often no store
moves): a statement cost about a fifth of a millisecond of a worker's CPU, more than the
empty read it answered.  One SELECT of flags tells which reads are worth their statement.

It runs after the campaign's row is locked (repository.get_campaign with lock), never as
part of the locking statement: PostgreSQL reads a locking statement's subqueries in the
snapshot taken before it waited for the lock, so a flag read there could miss what the
transaction it waited for committed (a game master's defaults, say).  A statement after
the lock sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, and_, bindparam, exists, select

from services.platform.store.recovery_tables import turn_defaults, turn_failures
from services.platform.store.repository.base import _t


@dataclass(frozen=True, slots=True)
class TurnProbe:
    resolved: bool  # the world after the turn is stored: the turn is resolved
    digest: str | None  # the sha256 of the world at the start of the turn (None: not stored)
    failed: bool  # a failure of the campaign waits for its game master
    defaulted: bool  # players whose orders of the turn the game master replaced by defaults
    moves: bool  # store moves sent for the turn
    officers: bool  # officers assigned during the turn


def _of(table: Any, turn: str = "turn") -> Any:
    return and_(table.c.campaign == bindparam("campaign"), table.c.turn == bindparam(turn))


@cache
def _probe() -> Select[Any]:
    worlds = _t("world_states")
    return select(
        exists().where(_of(worlds, "next")).label("resolved"),
        select(worlds.c.sha256).where(_of(worlds)).scalar_subquery().label("digest"),
        exists().where(turn_failures.c.campaign == bindparam("campaign")).label("failed"),
        exists().where(_of(turn_defaults)).label("defaulted"),
        exists().where(_of(_t("stores_moves"))).label("moves"),
        exists().where(_of(_t("assignments"))).label("officers"),
    )


def probe_turn(conn: Connection, campaign: str, turn: int) -> TurnProbe:
    row = conn.execute(_probe(), {"campaign": campaign, "turn": turn, "next": turn + 1}).one()
    return TurnProbe(
        resolved=bool(row.resolved),
        digest=row.digest,
        failed=bool(row.failed),
        defaulted=bool(row.defaulted),
        moves=bool(row.moves),
        officers=bool(row.officers),
    )
