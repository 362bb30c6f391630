"""Helpers shared by the repository modules."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import Insert, Select, Table, and_, bindparam, insert, select

from services.platform.store import tables


def _t(name: str) -> Table:
    return tables.metadata.tables[name]


def now() -> datetime:
    return datetime.now(UTC)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# The statements of a turn's stages are built once, with bound parameters: building a
# statement again for every call cost five times as much as running it.
@cache
def of_turn(table: str, *columns: str) -> Select[Any]:
    """SELECT ``columns`` of ``table`` WHERE campaign = :campaign AND turn = :turn."""
    c = _t(table).c
    return select(*(c[n] for n in columns)).where(
        and_(c.campaign == bindparam("campaign"), c.turn == bindparam("turn"))
    )


@cache
def insert_into(table: str) -> Insert:
    return insert(_t(table))
