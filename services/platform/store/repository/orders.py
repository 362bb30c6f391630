"""Orders as submitted, idempotent request ids, and the ministers' store moves."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, and_, bindparam, func, insert, select, true

from pate.core.codec import canonical_json, from_plain, parse_json, to_plain
from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import ShipOrder, StoresMove
from services.platform.store.repository.base import _t, now

# --- orders -------------------------------------------------------------------


def next_order_seq(conn: Connection, campaign: str, turn: int) -> int:
    c = _t("orders").c
    top = conn.execute(
        select(func.max(c.seq)).where(and_(c.campaign == campaign, c.turn == turn))
    ).scalar_one_or_none()
    return int(top or 0) + 1


def order_row(
    campaign: str,
    turn: int,
    order: ShipOrder,
    *,
    author: str,
    role: Author,
    seq: int,
    client_request_id: str,
    created_at: datetime | None = None,
) -> dict[str, Any]:
    """The ``orders`` row of one submitted order (one by one, or in a group); sent now unless said."""
    return {
        "campaign": campaign,
        "turn": turn,
        "ship_id": order.ship_id,
        "author_player": author,
        "author_role": role.value,
        "seq": seq,
        "order_json": canonical_json(to_plain(order)),
        "client_request_id": client_request_id,
        "created_at": created_at or now(),
    }


def add_orders(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Store submitted orders, each built by ``order_row``."""
    if rows:
        conn.execute(insert(_t("orders")), list(rows))


def _counting_orders(excluding: Collection[str] = ()) -> Select[Any]:
    c = _t("orders").c
    # One pass over the turn's rows, whatever the statistics say (a join of the rows to their
    # per-ship maxima became a nested loop on PostgreSQL's stale estimates: 3.5 s for 8,000).
    newest_first = func.row_number().over(
        partition_by=(c.ship_id, c.author_role == Author.DEPUTY.value), order_by=(c.seq.desc(), c.id.desc())
    )
    ranked = (
        select(c.order_json, c.author_role, c.seq, c.id, newest_first.label("age"))
        .where(c.campaign == bindparam("campaign"), c.turn == bindparam("turn"))
        .where(c.author_player.not_in(sorted(excluding)) if excluding else true())
        .subquery()
    )
    return (
        select(ranked.c.order_json, ranked.c.author_role, ranked.c.seq)
        .where(ranked.c.age == 1)
        .order_by(ranked.c.seq, ranked.c.id)
    )


_COUNTING_ORDERS = _counting_orders()  # built once: a turn close runs it for every campaign


def submitted_orders(
    conn: Connection, campaign: str, turn: int, *, excluding: Collection[str] = ()
) -> list[SubmittedOrder]:
    """The orders of the turn that can still count (rule 4.1): for each ship its last
    deputy's order and its last order from anyone else, in the order they were sent.

    Precedence picks among these only, so leaving out the orders sent before them
    changes nothing, and a turn whose players resent their orders a thousand times
    is read and parsed as if each had sent them once.  The orders of the players in
    ``excluding`` are left out, as if never sent: their ships take the defaults (rule 4.11)."""
    query = _counting_orders(excluding) if excluding else _COUNTING_ORDERS
    rows = conn.execute(query, {"campaign": campaign, "turn": turn}).all()
    return [
        SubmittedOrder(
            order=from_plain(ShipOrder, parse_json(r.order_json)), author=Author(r.author_role), seq=r.seq
        )
        for r in rows
    ]


def find_request(conn: Connection, campaign: str, player: str, client_request_id: str) -> bytes | None:
    """The fingerprint stored for this player's request id (ids are the player's own)."""
    c = _t("order_requests").c
    row = conn.execute(
        select(c.response).where(
            and_(c.campaign == campaign, c.player == player, c.client_request_id == client_request_id)
        )
    ).first()
    return bytes(row.response) if row else None


def request_row(
    campaign: str, player: str, client_request_id: str, response: bytes, created_at: datetime
) -> dict[str, Any]:
    """The ``order_requests`` row that makes a request id answer as a replay."""
    return {
        "campaign": campaign,
        "player": player,
        "client_request_id": client_request_id,
        "response": response,
        "created_at": created_at,
    }


def save_request(
    conn: Connection, campaign: str, player: str, client_request_id: str, response: bytes
) -> None:
    conn.execute(
        insert(_t("order_requests")).values(
            **request_row(campaign, player, client_request_id, response, now())
        )
    )


# --- store moves (rule 3.5) -------------------------------------------------------


def add_stores_moves(
    conn: Connection, campaign: str, turn: int, state: str, author: str, moves: Sequence[StoresMove]
) -> None:
    c = _t("stores_moves").c
    top = conn.execute(
        select(func.max(c.seq)).where(and_(c.campaign == campaign, c.turn == turn))
    ).scalar_one_or_none()
    conn.execute(
        insert(_t("stores_moves")).values(
            campaign=campaign,
            turn=turn,
            state=state,
            author_player=author,
            seq=int(top or 0) + 1,
            moves_json=canonical_json([to_plain(m) for m in moves]),
            created_at=now(),
        )
    )


_STORES_MOVES = (
    select(_t("stores_moves").c.state, _t("stores_moves").c.moves_json)
    .where(
        _t("stores_moves").c.campaign == bindparam("campaign"), _t("stores_moves").c.turn == bindparam("turn")
    )
    .order_by(_t("stores_moves").c.seq)
)


def stores_moves(
    conn: Connection, campaign: str, turn: int, *, excluding: Collection[str] = ()
) -> list[StoresMove]:
    """Each state's latest list, states in alphabetical order (4.1's "last one sent");
    the lists sent by the players in ``excluding`` are left out."""
    c = _t("stores_moves").c
    if excluding:
        where = and_(c.campaign == campaign, c.turn == turn, c.author_player.not_in(sorted(excluding)))
        rows = conn.execute(select(c.state, c.moves_json).where(where).order_by(c.seq)).all()
    else:  # every turn the resolver reads: the statement is built once
        rows = conn.execute(_STORES_MOVES, {"campaign": campaign, "turn": turn}).all()
    latest = {r.state: r.moves_json for r in rows}
    return [from_plain(StoresMove, m) for state in sorted(latest) for m in parse_json(latest[state])]
