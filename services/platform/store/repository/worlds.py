"""World states: stored once per turn as canonical JSON, and decoded worlds kept per process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from sqlalchemy import Connection, Engine

from pate.core.codec import canonical_json, from_plain, parse_json
from pate.core.world.state import WorldState
from services.platform.store.repository.base import insert_into, now, of_turn, sha256
from services.platform.store.repository.world_reuse import Held, decode_like, encode_like

V = TypeVar("V")


def save_world(
    conn: Connection, campaign: str, turn: int, world: WorldState, resolved_from: WorldState | None = None
) -> str:
    """The world at the start of ``turn``; returns the sha256 of its JSON.  Encoded against
    ``resolved_from`` (the world before, which the rules kept most entries of) when this
    process holds its plain data (world_reuse.py: the same bytes, the unchanged entries not
    encoded again)."""
    key = (database_key(conn.engine), campaign, turn)
    plain = encode_like(world, _held_of(key, resolved_from))
    text = canonical_json(plain)
    _keep((*key, _WRITTEN), Held(world, plain), len(text))
    digest = sha256(text)
    values = {"campaign": campaign, "turn": turn, "state_json": text, "sha256": digest, "created_at": now()}
    conn.execute(insert_into("world_states"), values)
    return digest


def world_exists(conn: Connection, campaign: str, turn: int) -> bool:
    found = conn.execute(of_turn("world_states", "turn"), {"campaign": campaign, "turn": turn})
    return found.first() is not None


def load_world_json(conn: Connection, campaign: str, turn: int) -> tuple[str, str] | None:
    query = of_turn("world_states", "state_json", "sha256")
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
class _WorldCache(Generic[V]):
    def __init__(self, chars: int) -> None:
        self.budget = chars
        self.chars = 0
        self.worlds: OrderedDict[tuple[object, ...], tuple[V, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[object, ...]) -> V | None:
        with self.lock:
            found = self.worlds.get(key)
            if found is None:
                return None
            self.worlds.move_to_end(key)
            return found[0]

    def pop(self, key: tuple[object, ...]) -> None:
        with self.lock:
            old = self.worlds.pop(key, None)
            if old is not None:
                self.chars -= old[1]

    def clear(self) -> None:
        with self.lock:
            self.worlds.clear()
            self.chars = 0

    def put(self, key: tuple[object, ...], value: V, chars: int) -> None:
        with self.lock:
            old = self.worlds.pop(key, None)
            if old is not None:
                self.chars -= old[1]
            self.worlds[key] = (value, chars)
            self.chars += chars
            while self.chars > self.budget and len(self.worlds) > 1:
                self.chars -= self.worlds.popitem(last=False)[1][1]


_WORLD_CACHE: _WorldCache[WorldState] = _WorldCache(64 * 2**20)
# The worlds a resolver stored, each with its digest: the world after one turn is the world
# before the next, and the worker that resolves that next turn (one in as many as there are
# resolvers) takes it from here rather than reading and decoding it again (for grand1805 some
# 20 ms of a turn's 85).  It is kept before its transaction commits, so it is used only while
# the stored row's digest is still its own: a turn resolved again differently never reads it.
_RESOLVED: _WorldCache[tuple[WorldState, str]] = _WorldCache(64 * 2**20)
# The worlds this process last decoded or encoded, each with its plain data, that the next
# turn's world of the same campaign is decoded or encoded against (world_reuse.py).  A plain
# world took about four bytes for each character of its JSON under tracemalloc (training
# 180 KB for 47,800 characters), on top of the caches above, in processes whose pods may be
# limited to 512 MiB (intel, orders): 32 MiB of them, one world a campaign (a newer one
# replaces the older), hold some 180 training campaigns or 28 grand1805.  One evicted only
# costs the full decode or encode, as before it was kept; one kept for a transaction that
# rolled back is still a world and its own plain data, so it is as good a memo as any.
_PLAIN_COST = 4
_PLAINS: _WorldCache[Held] = _WorldCache(32 * 2**20)
# The world this process last read, and the one it last wrote, whatever their campaigns:
# decoding a world of a campaign it holds nothing of, its entries are compared with the last
# read's (at a deadline many campaigns share, the world of the same turn of another campaign
# of the same scenario, with most entries alike; the comparison is by value, so any world will
# do, and a campaign's own earlier world does better).
_LAST: dict[str, Held] = {}


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
    world = _decode_held(key, stored[0])
    _WORLD_CACHE.put(key, world, len(stored[0]))
    return world


def _decode_held(key: tuple[str, str, int], text: str) -> WorldState:
    """A stored world decoded against the campaign's latest world this process holds with
    its plain data (holding none, the last world it read), and kept with its own for the next."""
    plain = parse_json(text)
    world = decode_like(plain, _earlier(key) or _LAST.get(_READ) or _LAST.get(_WRITTEN))
    _keep((*key, _READ), Held(world, plain), len(text))
    return world


# A world held with its plain data is kept as read (decoded from its row) or as written (encoded
# by save_world), apart: a process that does both (a test, a benchmark) keeps the resolver's
# own world for its next encode, whose entries are that world's objects.
_READ, _WRITTEN = "read", "written"


def _earlier(key: tuple[str, str, int]) -> Held | None:
    """The latest of the campaign's last few worlds this process holds with their plain data
    (with several workers a stage, the one that saw the campaign last may have been another)."""
    database, campaign, turn = key
    for back in range(1, 5):
        for kind in (_READ, _WRITTEN):
            held = _PLAINS.get((database, campaign, turn - back, kind))
            if held is not None:
                return held
    return None


def _held_of(key: tuple[str, str, int], world: WorldState | None) -> Held | None:
    """The plain data this process holds of ``world`` (the one before ``key``'s), if any."""
    database, campaign, turn = key
    for kind in (_WRITTEN, _READ):
        held = _PLAINS.get((database, campaign, turn - 1, kind))
        if held is not None and held.world is world:
            return held
    return None


def _keep(key: tuple[str, str, int, str], held: Held, chars: int) -> None:
    database, campaign, turn, kind = key
    _PLAINS.pop((database, campaign, turn - 1, kind))  # no longer the campaign's latest
    _PLAINS.put(key, held, _PLAIN_COST * chars)
    _LAST[kind] = held


def remember_world(conn: Connection, campaign: str, turn: int, world: WorldState, digest: str) -> None:
    """Keep the world a resolver has just stored (save_world's digest) for the next turn."""
    _RESOLVED.put((database_key(conn.engine), campaign, turn), (world, digest), _chars(world))


def load_world_resolved(conn: Connection, campaign: str, turn: int, digest: str | None = None) -> WorldState:
    """The stored world of ``turn``: the one this process kept (remember_world) when the
    row's digest (``digest`` when the caller has read it) is still its own, else read and decoded."""
    held = _RESOLVED.get((database_key(conn.engine), campaign, turn))
    if held is not None:
        if digest is None:
            digest = conn.execute(
                of_turn("world_states", "sha256"), {"campaign": campaign, "turn": turn}
            ).scalar()
        if digest == held[1]:
            return held[0]
    stored = load_world_json(conn, campaign, turn)
    if stored is None:
        raise LookupError(f"no world state for {campaign} turn {turn}")
    return _decode_held((database_key(conn.engine), campaign, turn), stored[0])


def _chars(world: WorldState) -> int:
    """About as many characters as the world's stored JSON, without writing it again (the
    map's ports and areas about 37,000, each ship about 450: training 45,161, grand1805 287,549)."""
    return 450 * len(world.ships) + 37_000


def world_from_json(text: str) -> WorldState:
    return from_plain(WorldState, parse_json(text))
