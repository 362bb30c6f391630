"""The SQLite store: one transaction per call, calls served one after another (L15, L16)."""

from __future__ import annotations

import json
import sqlite3
import threading
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CONTRACT = Path(__file__).resolve().parents[2] / "proto" / "gitm" / "v1" / "contract.toml"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    id TEXT PRIMARY KEY, content BLOB NOT NULL, open_answer BLOB NOT NULL, world TEXT NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0, close_answer BLOB, pate_turn INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS transfers (
    id TEXT PRIMARY KEY, campaign TEXT NOT NULL, content BLOB NOT NULL, record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS transfers_campaign ON transfers (campaign);
CREATE TABLE IF NOT EXISTS reports (
    kind TEXT NOT NULL, id TEXT NOT NULL, content BLOB NOT NULL, answer BLOB NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE TABLE IF NOT EXISTS holds (
    hold_id TEXT PRIMARY KEY, campaign TEXT NOT NULL, turn INTEGER NOT NULL,
    request_id TEXT NOT NULL, port TEXT NOT NULL, expires_at INTEGER NOT NULL,
    release_state TEXT, UNIQUE (campaign, turn, request_id)
);
"""


def load_contract() -> tuple[frozenset[str], str]:
    """The cities on GITM's map and the digest of [data], from the contract beside the proto."""
    data = tomllib.loads(CONTRACT.read_text(encoding="utf-8"))
    cities = data["cities"]
    names = cities if isinstance(cities, list) else cities.get("names", list(cities))
    return frozenset(str(name) for name in names), str(data["data"]["digest"])


class Store:
    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=2.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

    @contextmanager
    def tx(self) -> Iterator[Tx]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")


class Tx:
    """What one call reads and writes."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        row = self.db.execute(sql, args).fetchone()
        return tuple(row) if row is not None else None

    def run(self, sql: str, *args: Any) -> None:
        self.db.execute(sql, args)

    def campaign(self, cid: str) -> dict[str, Any] | None:
        row = self.one(
            "SELECT content, open_answer, world, closed, close_answer, pate_turn FROM campaigns WHERE id = ?",
            cid,
        )
        if row is None:
            return None
        keys = ("content", "open_answer", "world", "closed", "close_answer", "pate_turn")
        out = dict(zip(keys, row, strict=True))
        out["world"] = json.loads(out["world"])
        out["id"] = cid
        return out

    def save_world(self, cid: str, world: dict[str, Any]) -> None:
        self.run("UPDATE campaigns SET world = ? WHERE id = ?", json.dumps(world, sort_keys=True), cid)

    def transfer(self, tid: str) -> tuple[str, bytes, dict[str, Any]] | None:
        row = self.one("SELECT campaign, content, record FROM transfers WHERE id = ?", tid)
        if row is None:
            return None
        return row[0], row[1], json.loads(row[2])

    def put_transfer(self, tid: str, campaign: str, content: bytes, record: dict[str, Any]) -> None:
        self.run(
            "INSERT OR REPLACE INTO transfers (id, campaign, content, record) VALUES (?, ?, ?, ?)",
            tid,
            campaign,
            content,
            json.dumps(record, sort_keys=True),
        )

    def transfers_of(self, cid: str) -> list[tuple[str, dict[str, Any]]]:
        rows = self.db.execute("SELECT id, record FROM transfers WHERE campaign = ? ORDER BY id", (cid,))
        return [(row[0], json.loads(row[1])) for row in rows.fetchall()]

    def report(self, kind: str, rid: str) -> tuple[bytes, bytes] | None:
        row = self.one("SELECT content, answer FROM reports WHERE kind = ? AND id = ?", kind, rid)
        return (row[0], row[1]) if row is not None else None

    def put_report(self, kind: str, rid: str, content: bytes, answer: bytes) -> None:
        self.run(
            "INSERT INTO reports (kind, id, content, answer) VALUES (?, ?, ?, ?)", kind, rid, content, answer
        )
