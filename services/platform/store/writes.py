"""Small portable write helpers over the tables (SQLite and PostgreSQL alike)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import Connection, Delete, Insert, Table, bindparam, delete
from sqlalchemy.dialects import postgresql, sqlite

from services.platform.store.tables import audit, processed_messages, utcnow

__all__ = [
    "claim_all",
    "insert_ignore",
    "insert_ignore_many",
    "mark_processed",
    "record_audit",
    "release_claims",
    "upsert",
    "utcnow",
]


_INSERTS: dict[str, Any] = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def _dialect_insert(conn: Connection, table: Table) -> Any:
    if conn.dialect.name not in _INSERTS:
        raise NotImplementedError(f"database {conn.dialect.name!r} is not supported")
    return _INSERTS[conn.dialect.name](table)


def insert_ignore(
    conn: Connection, table: Table, values: Mapping[str, Any], conflict_on: Sequence[str]
) -> bool:
    """INSERT one row unless a row with the same ``conflict_on`` key exists. True when inserted.

    On PostgreSQL a concurrent insert of the same key waits for the other
    transaction: it then either inserts (the other rolled back) or returns False.
    """
    stmt = _insert_ignore(conn.dialect.name, table, tuple(conflict_on))
    if conn.dialect.name == "sqlite":
        return conn.execute(stmt, dict(values)).rowcount == 1
    return conn.execute(stmt, dict(values)).first() is not None


def insert_ignore_many(
    conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]], conflict_on: Sequence[str]
) -> None:
    """insert_ignore for many rows in one statement (on PostgreSQL; SQLite's driver loops)."""
    if rows:
        conn.execute(_insert_ignore(conn.dialect.name, table, tuple(conflict_on)), [dict(r) for r in rows])


@cache
def _insert_ignore(dialect: str, table: Table, conflict_on: tuple[str, ...]) -> Insert:
    """Built once per table: every message a worker handles claims its id with it, and
    building the statement again cost more than running it."""
    if dialect not in _INSERTS:
        raise NotImplementedError(f"database {dialect!r} is not supported")
    stmt: Insert = _INSERTS[dialect](table)
    stmt = stmt.on_conflict_do_nothing(index_elements=list(conflict_on))  # type: ignore[attr-defined]
    if dialect == "postgresql":  # psycopg reports no rowcount here (-1): ask for the inserted key instead
        stmt = stmt.returning(table.c[conflict_on[0]])
    return stmt


def upsert(
    conn: Connection,
    table: Table,
    values: Mapping[str, Any],
    conflict_on: Sequence[str],
    update: Sequence[str] | None = None,
) -> None:
    """INSERT, or UPDATE the ``update`` columns (default: all but the key) of the existing row."""
    stmt = _dialect_insert(conn, table).values(**values)
    columns = update if update is not None else [c for c in values if c not in conflict_on]
    stmt = stmt.on_conflict_do_update(
        index_elements=list(conflict_on), set_={c: stmt.excluded[c] for c in columns}
    )
    conn.execute(stmt)


def mark_processed(conn: Connection, consumer: str, msg_id: str) -> bool:
    """Claim ``msg_id`` for ``consumer`` in this transaction; False when it was already processed."""
    return insert_ignore(
        conn,
        processed_messages,
        {"consumer": consumer, "msg_id": msg_id, "processed_at": utcnow()},
        ("consumer", "msg_id"),
    )


def claim_all(conn: Connection, consumer: str, msg_ids: Sequence[str]) -> set[str]:
    """Claim many message ids for ``consumer`` in one statement; the ids claimed now (those
    not processed before).  On PostgreSQL an id another transaction claims and has not
    committed makes this wait for it, as mark_processed does."""
    at = utcnow()
    rows = [{"consumer": consumer, "msg_id": m, "processed_at": at} for m in dict.fromkeys(msg_ids)]
    return {r.msg_id for r in conn.execute(_claim_many(conn.dialect.name), rows)}


@cache
def _claim_many(dialect: str) -> Insert:
    if dialect not in _INSERTS:
        raise NotImplementedError(f"database {dialect!r} is not supported")
    stmt = _INSERTS[dialect](processed_messages).on_conflict_do_nothing(index_elements=["consumer", "msg_id"])
    return stmt.returning(processed_messages.c.msg_id)  # type: ignore[no-any-return]


def release_claims(conn: Connection, consumer: str, msg_ids: Sequence[str]) -> None:
    """Take back claims made in this transaction for messages it will not handle."""
    conn.execute(_release(), [{"b_consumer": consumer, "b_msg_id": m} for m in dict.fromkeys(msg_ids)])


@cache
def _release() -> Delete:
    c = processed_messages.c
    return delete(processed_messages).where(
        c.consumer == bindparam("b_consumer"), c.msg_id == bindparam("b_msg_id")
    )


def record_audit(
    conn: Connection,
    *,
    action: str,
    accepted: bool,
    campaign: str | None = None,
    turn: int | None = None,
    player: str | None = None,
    detail: Mapping[str, Any] | None = None,
) -> None:
    """Append one audit row (detail stored as sorted JSON)."""
    conn.execute(
        audit.insert().values(
            campaign=campaign,
            turn=turn,
            player=player,
            action=action,
            accepted=accepted,
            detail_json=json.dumps(dict(detail or {}), sort_keys=True, default=str),
            created_at=utcnow(),
        )
    )
