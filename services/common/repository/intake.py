"""Set-based reads and writes for a group of order submissions (issue 15).

The order desk commits the submissions that arrive together in one
transaction; these functions read and write the whole group with a few
statements instead of a handful per submission.  The statements are built
once (their lists are expanding parameters), so a group costs no SQL
construction and hits SQLAlchemy's compiled cache every time.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, tuple_

from services.common import tables
from services.common.repository.campaigns import CampaignRow, _campaign

RequestKey = tuple[str, str, str]  # (campaign, player, client request id)

_C = tables.campaigns.c
_R = tables.order_requests.c
_O = tables.orders.c

_CAMPAIGNS = select(tables.campaigns).where(_C.id.in_(bindparam("ids", expanding=True))).order_by(_C.id)
_CAMPAIGNS_LOCKED = _CAMPAIGNS.with_for_update()
_REQUESTS = select(_R.campaign, _R.player, _R.client_request_id, _R.response).where(
    tuple_(_R.campaign, _R.player, _R.client_request_id).in_(bindparam("keys", expanding=True))
)
_TOP_SEQS = (
    select(_O.campaign, _O.turn, func.max(_O.seq))
    .where(tuple_(_O.campaign, _O.turn).in_(bindparam("turns", expanding=True)))
    .group_by(_O.campaign, _O.turn)
)
_INSERTS = {name: insert(tables.metadata.tables[name]) for name in ("orders", "order_requests", "audit")}


def lock_campaigns(conn: Connection, ids: Collection[str]) -> dict[str, CampaignRow]:
    """The campaign rows, locked until the transaction ends.

    On PostgreSQL the rows are locked in id order, so two writers locking
    overlapping groups cannot deadlock.  On SQLite the caller's transaction
    began IMMEDIATE and holds the single write lock already."""
    q = _CAMPAIGNS_LOCKED if conn.dialect.name == "postgresql" else _CAMPAIGNS
    return {row.id: _campaign(row) for row in conn.execute(q, {"ids": sorted(ids)})}


def find_requests(conn: Connection, keys: Collection[RequestKey]) -> dict[RequestKey, bytes]:
    """The stored fingerprint of each request id that was seen before."""
    if not keys:
        return {}
    rows = conn.execute(_REQUESTS, {"keys": sorted(keys)})
    return {(r.campaign, r.player, r.client_request_id): bytes(r.response) for r in rows}


def next_order_seqs(conn: Connection, turns: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
    """The next free order sequence number of each (campaign, turn)."""
    wanted = sorted(set(turns))
    top = {(r[0], r[1]): int(r[2] or 0) for r in conn.execute(_TOP_SEQS, {"turns": wanted})}
    return {key: top.get(key, 0) + 1 for key in wanted}


def insert_rows(conn: Connection, table: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert many rows of ``table`` (orders, order_requests or audit) with one statement."""
    if rows:
        conn.execute(_INSERTS[table], list(rows))
