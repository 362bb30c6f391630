"""World states, resolutions, events, knowledge and reports of each turn."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import Connection, Engine, Insert, Select, and_, bindparam, insert, select

from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.events import Event
from pate.core.world.state import WorldState
from pate.rulesversion import rules_version
from services.platform.store.repository.base import _t, now, sha256

# --- world states -------------------------------------------------------------


# The statements of a turn's stages are built once, with bound parameters: building a
# statement again for every call cost five times as much as running it.
@cache
def _of_turn(table: str, *columns: str) -> Select[Any]:
    """SELECT ``columns`` of ``table`` WHERE campaign = :campaign AND turn = :turn."""
    c = _t(table).c
    return select(*(c[n] for n in columns)).where(
        and_(c.campaign == bindparam("campaign"), c.turn == bindparam("turn"))
    )


@cache
def _insert(table: str) -> Insert:
    return insert(_t(table))


def save_world(conn: Connection, campaign: str, turn: int, world: WorldState) -> str:
    """The world at the start of ``turn``; returns the sha256 of its JSON."""
    text = canonical_json(to_plain(world))
    digest = sha256(text)
    values = {"campaign": campaign, "turn": turn, "state_json": text, "sha256": digest, "created_at": now()}
    conn.execute(_insert("world_states"), values)
    return digest


def world_exists(conn: Connection, campaign: str, turn: int) -> bool:
    found = conn.execute(_of_turn("world_states", "turn"), {"campaign": campaign, "turn": turn})
    return found.first() is not None


def load_world_json(conn: Connection, campaign: str, turn: int) -> tuple[str, str] | None:
    query = _of_turn("world_states", "state_json", "sha256")
    row = conn.execute(query, {"campaign": campaign, "turn": turn}).first()
    return (row.state_json, row.sha256) if row else None


def load_world(conn: Connection, campaign: str, turn: int) -> WorldState:
    found = load_world_json(conn, campaign, turn)
    if found is None:
        raise LookupError(f"no world state for {campaign} turn {turn}")
    return world_from_json(found[0])


# Decoded worlds kept per process, least recently used first out, within a budget counted in
# characters of their stored JSON (a decoded world took less memory than its JSON under tracemalloc:
# training 45,000 characters and 39 KB, grand1805 288,000 and 242 KB).  64 M characters hold the
# worlds of over a thousand training campaigns: an intel worker then decodes each world once,
# as the next world of one turn, and finds it again as the world before the next turn.
class _WorldCache:
    def __init__(self, chars: int) -> None:
        self.budget = chars
        self.chars = 0
        self.worlds: OrderedDict[tuple[str, str, int], tuple[WorldState, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str, int]) -> WorldState | None:
        with self.lock:
            found = self.worlds.get(key)
            if found is None:
                return None
            self.worlds.move_to_end(key)
            return found[0]

    def clear(self) -> None:
        with self.lock:
            self.worlds.clear()
            self.chars = 0

    def put(self, key: tuple[str, str, int], world: WorldState, chars: int) -> None:
        with self.lock:
            if key not in self.worlds:
                self.worlds[key] = (world, chars)
                self.chars += chars
            while self.chars > self.budget and len(self.worlds) > 1:
                self.chars -= self.worlds.popitem(last=False)[1][1]


_WORLD_CACHE = _WorldCache(64 * 2**20)


def database_key(engine: Engine) -> str:
    """Names the database a cached world came from (tests run several in one process)."""
    return engine.url.render_as_string(hide_password=True)


def peek_world(database: str, campaign: str, turn: int) -> WorldState | None:
    """The decoded world if this process holds it already (no database read)."""
    return _WORLD_CACHE.get((database, campaign, turn))


def load_world_cached(conn: Connection, campaign: str, turn: int) -> WorldState:
    """A stored world state, decoded once per process: rows of world_states are
    written once and never changed, so the decoded value can be kept."""
    key = (database_key(conn.engine), campaign, turn)
    world = _WORLD_CACHE.get(key)
    if world is not None:
        return world
    stored = load_world_json(conn, campaign, turn)
    if stored is None:
        raise LookupError(f"no world state for {campaign} turn {turn}")
    world = world_from_json(stored[0])
    _WORLD_CACHE.put(key, world, len(stored[0]))
    return world


def world_from_json(text: str) -> WorldState:
    return from_plain(WorldState, json.loads(text))


# --- resolution and events ------------------------------------------------------


def save_resolution(conn: Connection, campaign: str, turn: int, orders_json: str, result_sha: str) -> None:
    """The replay record of a turn, with the version of the rules that resolved it."""
    values = {
        "campaign": campaign,
        "turn": turn,
        "orders_json": orders_json,
        "result_sha256": result_sha,
        "resolved_at": now(),
        "rules_version": rules_version(),
    }
    conn.execute(_insert("resolutions"), values)


def resolution_rules(conn: Connection, campaign: str, turn: int) -> str | None:
    """The rules version a turn was resolved under (None: resolved before it was recorded)."""
    c = _t("resolutions").c
    found: str | None = conn.execute(
        select(c.rules_version).where(and_(c.campaign == campaign, c.turn == turn))
    ).scalar()
    return found


def load_resolution(conn: Connection, campaign: str, turn: int) -> tuple[str, str] | None:
    query = _of_turn("resolutions", "orders_json", "result_sha256")
    row = conn.execute(query, {"campaign": campaign, "turn": turn}).first()
    return (row.orders_json, row.result_sha256) if row else None


def save_events(conn: Connection, campaign: str, turn: int, events: Sequence[Event]) -> str:
    """Store the events of a turn; returns them as one canonical JSON array (events_json),
    made from the rows' own texts rather than by encoding every event again."""
    texts = [canonical_json(to_plain(e)) for e in events]
    if texts:
        conn.execute(
            _insert("turn_events"),
            [
                {
                    "campaign": campaign,
                    "turn": turn,
                    "seq": i,
                    "phase": e.phase.value,
                    "kind": e.kind,
                    "event_json": text,
                }
                for i, (e, text) in enumerate(zip(events, texts, strict=True))
            ],
        )
    return "[" + ",".join(texts) + "]"  # what canonical_json makes of the list


def load_events(conn: Connection, campaign: str, turn: int) -> list[Event]:
    query = _of_turn("turn_events", "event_json").order_by(_t("turn_events").c.seq)
    rows = conn.execute(query, {"campaign": campaign, "turn": turn}).all()
    return [from_plain(Event, json.loads(r.event_json)) for r in rows]


def events_json(events: Sequence[Event]) -> str:
    return canonical_json([to_plain(e) for e in events])


# --- knowledge and reports --------------------------------------------------------


def save_knowledge(conn: Connection, campaign: str, turn: int, player: str, text: str) -> None:
    save_all_knowledge(conn, campaign, turn, {player: text})


def save_all_knowledge(conn: Connection, campaign: str, turn: int, texts: Mapping[str, str]) -> None:
    """Every player's knowledge of a turn in one statement (rows in player order)."""
    if texts:
        conn.execute(
            _insert("knowledge"),
            [
                {"campaign": campaign, "turn": turn, "player": p, "knowledge_json": texts[p]}
                for p in sorted(texts)
            ],
        )


def knowledge_exists(conn: Connection, campaign: str, turn: int) -> bool:
    query = _of_turn("knowledge", "player").limit(1)
    return conn.execute(query, {"campaign": campaign, "turn": turn}).first() is not None


def load_knowledge(conn: Connection, campaign: str, turn: int) -> dict[str, str]:
    query = _of_turn("knowledge", "player", "knowledge_json").order_by(_t("knowledge").c.player)
    rows = conn.execute(query, {"campaign": campaign, "turn": turn}).all()
    return {r.player: r.knowledge_json for r in rows}


def save_report(conn: Connection, campaign: str, turn: int, player: str, fmt: str, body: str) -> None:
    save_reports(conn, campaign, turn, fmt, {player: body})


def save_reports(conn: Connection, campaign: str, turn: int, fmt: str, bodies: Mapping[str, str]) -> None:
    """The reports of one form for many players in one statement (rows in player order)."""
    if bodies:
        conn.execute(
            _insert("reports"),
            [
                {"campaign": campaign, "turn": turn, "player": p, "format": fmt, "body": bodies[p]}
                for p in sorted(bodies)
            ],
        )


@cache
def _report_query() -> Select[Any]:
    c = _t("reports").c
    return _of_turn("reports", "body").where(c.player == bindparam("player"), c.format == bindparam("fmt"))


def load_report(conn: Connection, campaign: str, turn: int, player: str, fmt: str) -> str | None:
    params = {"campaign": campaign, "turn": turn, "player": player, "fmt": fmt}
    row = conn.execute(_report_query(), params).first()
    return row.body if row else None


def list_reports(conn: Connection, campaign: str, player: str | None) -> list[tuple[int, str]]:
    c = _t("reports").c
    q = select(c.turn, c.player).where(c.campaign == campaign).distinct().order_by(c.turn, c.player)
    if player:
        q = q.where(c.player == player)
    return [(r.turn, r.player) for r in conn.execute(q).all()]
