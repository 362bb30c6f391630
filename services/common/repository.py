"""Reading and writing campaigns, world states, orders, events and reports.

Every function takes a SQLAlchemy connection inside the caller's transaction,
so that a stage's work, its outbox row and its processed-message record commit
together or not at all.  World states and events are stored as the core's
canonical JSON, so a replayed turn can be compared byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Table, and_, func, insert, select, update

from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.events import Event
from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import ShipOrder, StoresMove
from pate.core.world.state import WorldState
from services.common import tables

STATUSES = ("STARTING", "OPEN", "CLOSED", "RESOLVING", "RESOLVED", "REPORTED", "FINISHED")


def _t(name: str) -> Table:
    return tables.metadata.tables[name]


def now() -> datetime:
    return datetime.now(UTC)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class CampaignRow:
    id: str
    name: str
    scenario: str
    seed: int
    turns: int
    turn: int
    status: str
    deadline: datetime | None
    turn_seconds: int


def _campaign(row: Any) -> CampaignRow:
    deadline = row.deadline
    if deadline is not None and deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=UTC)
    return CampaignRow(
        id=row.id,
        name=row.name,
        scenario=row.scenario,
        seed=int(row.seed),
        turns=row.turns,
        turn=row.turn,
        status=row.status,
        deadline=deadline,
        turn_seconds=int(row.turn_seconds),
    )


def insert_campaign(conn: Connection, c: CampaignRow) -> None:
    values: dict[str, Any] = {
        "id": c.id,
        "name": c.name,
        "scenario": c.scenario,
        "seed": c.seed,
        "turns": c.turns,
        "turn": c.turn,
        "status": c.status,
        "deadline": c.deadline,
        "created_at": now(),
        "version": 1,
        "turn_seconds": c.turn_seconds,
    }
    conn.execute(insert(_t("campaigns")).values(**values))


def get_campaign(conn: Connection, campaign: str, *, lock: bool = False) -> CampaignRow | None:
    c = _t("campaigns").c
    q = select(_t("campaigns")).where(c.id == campaign)
    if lock and conn.dialect.name == "postgresql":
        q = q.with_for_update()
    elif lock:
        # SQLite locks on the first write: take the write lock before reading,
        # so the status read cannot change before this transaction commits.
        conn.execute(update(_t("campaigns")).where(c.id == campaign).values(version=c.version))
    row = conn.execute(q).first()
    return _campaign(row) if row else None


def list_campaigns(conn: Connection) -> list[CampaignRow]:
    rows = conn.execute(select(_t("campaigns")).order_by(_t("campaigns").c.id)).all()
    return [_campaign(r) for r in rows]


def set_status(
    conn: Connection,
    campaign: str,
    *,
    turn: int,
    expect: Sequence[str],
    status: str,
    new_turn: int | None = None,
    deadline: datetime | bool | None = False,
) -> bool:
    """Move a campaign's turn from one of ``expect`` to ``status``; False when
    another process got there first (compare-and-set on status and turn)."""
    c = _t("campaigns").c
    values: dict[str, Any] = {"status": status, "version": c.version + 1}
    if new_turn is not None:
        values["turn"] = new_turn
    if deadline is not False:
        values["deadline"] = deadline
    res = conn.execute(
        update(_t("campaigns"))
        .where(and_(c.id == campaign, c.turn == turn, c.status.in_(list(expect))))
        .values(**values)
    )
    return res.rowcount == 1


def due_campaigns(conn: Connection, at: datetime) -> list[CampaignRow]:
    c = _t("campaigns").c
    rows = conn.execute(
        select(_t("campaigns")).where(and_(c.status == "OPEN", c.deadline.is_not(None), c.deadline <= at))
    ).all()
    return [_campaign(r) for r in rows]


# --- world states -------------------------------------------------------------


def save_world(conn: Connection, campaign: str, turn: int, world: WorldState) -> str:
    """The world at the start of ``turn``; returns the sha256 of its JSON."""
    text = canonical_json(to_plain(world))
    digest = sha256(text)
    conn.execute(
        insert(_t("world_states")).values(
            campaign=campaign, turn=turn, state_json=text, sha256=digest, created_at=now()
        )
    )
    return digest


def world_exists(conn: Connection, campaign: str, turn: int) -> bool:
    c = _t("world_states").c
    return (
        conn.execute(select(c.turn).where(and_(c.campaign == campaign, c.turn == turn))).first() is not None
    )


def load_world_json(conn: Connection, campaign: str, turn: int) -> tuple[str, str] | None:
    c = _t("world_states").c
    row = conn.execute(
        select(c.state_json, c.sha256).where(and_(c.campaign == campaign, c.turn == turn))
    ).first()
    return (row.state_json, row.sha256) if row else None


def load_world(conn: Connection, campaign: str, turn: int) -> WorldState:
    found = load_world_json(conn, campaign, turn)
    if found is None:
        raise LookupError(f"no world state for {campaign} turn {turn}")
    return world_from_json(found[0])


_WORLD_CACHE: OrderedDict[tuple[str, str, int], WorldState] = OrderedDict()
_WORLD_CACHE_SIZE = 64
_WORLD_CACHE_LOCK = threading.Lock()


def load_world_cached(conn: Connection, campaign: str, turn: int) -> WorldState:
    """A stored world state, decoded once per process: rows of world_states are
    written once and never changed, so the decoded value can be kept."""
    key = (conn.engine.url.render_as_string(hide_password=True), campaign, turn)
    with _WORLD_CACHE_LOCK:
        world = _WORLD_CACHE.get(key)
        if world is not None:
            _WORLD_CACHE.move_to_end(key)
            return world
    world = load_world(conn, campaign, turn)
    with _WORLD_CACHE_LOCK:
        _WORLD_CACHE[key] = world
        if len(_WORLD_CACHE) > _WORLD_CACHE_SIZE:
            _WORLD_CACHE.popitem(last=False)
    return world


def world_from_json(text: str) -> WorldState:
    return from_plain(WorldState, json.loads(text))


# --- players ------------------------------------------------------------------


def insert_players(conn: Connection, campaign: str, rows: Iterable[dict[str, Any]]) -> None:
    for r in rows:
        conn.execute(insert(_t("players")).values(campaign=campaign, **r))


def get_player(conn: Connection, campaign: str, player: str) -> Any:
    c = _t("players").c
    return conn.execute(select(_t("players")).where(and_(c.campaign == campaign, c.id == player))).first()


# --- orders -------------------------------------------------------------------


def next_order_seq(conn: Connection, campaign: str, turn: int) -> int:
    c = _t("orders").c
    top = conn.execute(
        select(func.max(c.seq)).where(and_(c.campaign == campaign, c.turn == turn))
    ).scalar_one_or_none()
    return int(top or 0) + 1


def add_order(
    conn: Connection,
    campaign: str,
    turn: int,
    order: ShipOrder,
    *,
    author: str,
    role: Author,
    seq: int,
    client_request_id: str,
) -> None:
    conn.execute(
        insert(_t("orders")).values(
            campaign=campaign,
            turn=turn,
            ship_id=order.ship_id,
            author_player=author,
            author_role=role.value,
            seq=seq,
            order_json=canonical_json(to_plain(order)),
            client_request_id=client_request_id,
            created_at=now(),
        )
    )


def submitted_orders(conn: Connection, campaign: str, turn: int) -> list[SubmittedOrder]:
    c = _t("orders").c
    rows = conn.execute(
        select(c.order_json, c.author_role, c.seq)
        .where(and_(c.campaign == campaign, c.turn == turn))
        .order_by(c.seq, c.id)
    ).all()
    return [
        SubmittedOrder(
            order=from_plain(ShipOrder, json.loads(r.order_json)), author=Author(r.author_role), seq=r.seq
        )
        for r in rows
    ]


def find_request(conn: Connection, campaign: str, client_request_id: str) -> bytes | None:
    c = _t("order_requests").c
    row = conn.execute(
        select(c.response).where(and_(c.campaign == campaign, c.client_request_id == client_request_id))
    ).first()
    return bytes(row.response) if row else None


def save_request(conn: Connection, campaign: str, client_request_id: str, response: bytes) -> None:
    conn.execute(
        insert(_t("order_requests")).values(
            campaign=campaign, client_request_id=client_request_id, response=response, created_at=now()
        )
    )


def audit(
    conn: Connection, campaign: str, turn: int, player: str, action: str, accepted: bool, detail: Any
) -> None:
    conn.execute(
        insert(_t("audit")).values(
            campaign=campaign,
            turn=turn,
            player=player,
            action=action,
            accepted=accepted,
            detail_json=canonical_json(detail),
            created_at=now(),
        )
    )


# --- resolution and events ------------------------------------------------------


def save_resolution(conn: Connection, campaign: str, turn: int, orders_json: str, result_sha: str) -> None:
    conn.execute(
        insert(_t("resolutions")).values(
            campaign=campaign, turn=turn, orders_json=orders_json, result_sha256=result_sha, resolved_at=now()
        )
    )


def load_resolution(conn: Connection, campaign: str, turn: int) -> tuple[str, str] | None:
    c = _t("resolutions").c
    row = conn.execute(
        select(c.orders_json, c.result_sha256).where(and_(c.campaign == campaign, c.turn == turn))
    ).first()
    return (row.orders_json, row.result_sha256) if row else None


def save_events(conn: Connection, campaign: str, turn: int, events: Sequence[Event]) -> None:
    if not events:
        return
    conn.execute(
        insert(_t("turn_events")),
        [
            {
                "campaign": campaign,
                "turn": turn,
                "seq": i,
                "phase": e.phase.value,
                "kind": e.kind,
                "event_json": canonical_json(to_plain(e)),
            }
            for i, e in enumerate(events)
        ],
    )


def load_events(conn: Connection, campaign: str, turn: int) -> list[Event]:
    c = _t("turn_events").c
    rows = conn.execute(
        select(c.event_json).where(and_(c.campaign == campaign, c.turn == turn)).order_by(c.seq)
    ).all()
    return [from_plain(Event, json.loads(r.event_json)) for r in rows]


def events_json(events: Sequence[Event]) -> str:
    return canonical_json([to_plain(e) for e in events])


# --- knowledge and reports --------------------------------------------------------


def save_knowledge(conn: Connection, campaign: str, turn: int, player: str, text: str) -> None:
    conn.execute(
        insert(_t("knowledge")).values(campaign=campaign, turn=turn, player=player, knowledge_json=text)
    )


def load_knowledge(conn: Connection, campaign: str, turn: int) -> dict[str, str]:
    c = _t("knowledge").c
    rows = conn.execute(
        select(c.player, c.knowledge_json)
        .where(and_(c.campaign == campaign, c.turn == turn))
        .order_by(c.player)
    ).all()
    return {r.player: r.knowledge_json for r in rows}


def save_report(conn: Connection, campaign: str, turn: int, player: str, fmt: str, body: str) -> None:
    conn.execute(
        insert(_t("reports")).values(campaign=campaign, turn=turn, player=player, format=fmt, body=body)
    )


def load_report(conn: Connection, campaign: str, turn: int, player: str, fmt: str) -> str | None:
    c = _t("reports").c
    row = conn.execute(
        select(c.body).where(
            and_(c.campaign == campaign, c.turn == turn, c.player == player, c.format == fmt)
        )
    ).first()
    return row.body if row else None


def list_reports(conn: Connection, campaign: str, player: str | None) -> list[tuple[int, str]]:
    c = _t("reports").c
    q = select(c.turn, c.player).where(c.campaign == campaign).distinct().order_by(c.turn, c.player)
    if player:
        q = q.where(c.player == player)
    return [(r.turn, r.player) for r in conn.execute(q).all()]


def set_password(conn: Connection, campaign: str, player: str, password_hash: str) -> bool:
    c = _t("players").c
    res = conn.execute(
        update(_t("players"))
        .where(and_(c.campaign == campaign, c.id == player))
        .values(password_hash=password_hash)
    )
    return res.rowcount == 1


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


def stores_moves(conn: Connection, campaign: str, turn: int) -> list[StoresMove]:
    """Each state's latest list, states in alphabetical order (4.1's "last one sent")."""
    c = _t("stores_moves").c
    rows = conn.execute(
        select(c.state, c.moves_json).where(and_(c.campaign == campaign, c.turn == turn)).order_by(c.seq)
    ).all()
    latest = {r.state: r.moves_json for r in rows}
    return [from_plain(StoresMove, m) for state in sorted(latest) for m in json.loads(latest[state])]
