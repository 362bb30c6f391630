"""World states, resolutions, events, knowledge and reports of each turn."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence

from sqlalchemy import Connection, Engine, and_, insert, select

from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.events import Event
from pate.core.world.state import WorldState
from pate.rulesversion import rules_version
from services.platform.store.repository.base import _t, now, sha256

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


def database_key(engine: Engine) -> str:
    """Names the database a cached world came from (tests run several in one process)."""
    return engine.url.render_as_string(hide_password=True)


def peek_world(database: str, campaign: str, turn: int) -> WorldState | None:
    """The decoded world if this process holds it already (no database read)."""
    with _WORLD_CACHE_LOCK:
        return _WORLD_CACHE.get((database, campaign, turn))


def load_world_cached(conn: Connection, campaign: str, turn: int) -> WorldState:
    """A stored world state, decoded once per process: rows of world_states are
    written once and never changed, so the decoded value can be kept."""
    key = (database_key(conn.engine), campaign, turn)
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


# --- resolution and events ------------------------------------------------------


def save_resolution(conn: Connection, campaign: str, turn: int, orders_json: str, result_sha: str) -> None:
    """The replay record of a turn, with the version of the rules that resolved it."""
    conn.execute(
        insert(_t("resolutions")).values(
            campaign=campaign,
            turn=turn,
            orders_json=orders_json,
            result_sha256=result_sha,
            resolved_at=now(),
            rules_version=rules_version(),
        )
    )


def resolution_rules(conn: Connection, campaign: str, turn: int) -> str | None:
    """The rules version a turn was resolved under (None: resolved before it was recorded)."""
    c = _t("resolutions").c
    found: str | None = conn.execute(
        select(c.rules_version).where(and_(c.campaign == campaign, c.turn == turn))
    ).scalar()
    return found


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


def knowledge_exists(conn: Connection, campaign: str, turn: int) -> bool:
    c = _t("knowledge").c
    found = conn.execute(
        select(c.player).where(and_(c.campaign == campaign, c.turn == turn)).limit(1)
    ).first()
    return found is not None


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
