"""The SQLite store: every answer and the land it describes survive a restart (L16)."""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager

_SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
  id TEXT PRIMARY KEY, closed INTEGER NOT NULL DEFAULT 0, pate_turn INTEGER NOT NULL DEFAULT 0,
  holders TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS answers (
  kind TEXT NOT NULL, id TEXT NOT NULL, campaign TEXT NOT NULL, content BLOB NOT NULL,
  answer BLOB NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS units (
  campaign TEXT NOT NULL, id TEXT NOT NULL, unit BLOB NOT NULL, city TEXT NOT NULL,
  transport TEXT NOT NULL, fate TEXT NOT NULL DEFAULT '', captor TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (campaign, id));
CREATE TABLE IF NOT EXISTS stocks (
  campaign TEXT NOT NULL, kind TEXT NOT NULL, place TEXT NOT NULL, supplies INTEGER NOT NULL,
  PRIMARY KEY (campaign, kind, place));
CREATE TABLE IF NOT EXISTS transfers (
  id TEXT PRIMARY KEY, campaign TEXT NOT NULL, content BLOB NOT NULL, request BLOB NOT NULL,
  state INTEGER NOT NULL, status BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS transfers_by_campaign ON transfers (campaign, state);
CREATE TABLE IF NOT EXISTS holds (
  hold_id TEXT PRIMARY KEY, campaign TEXT NOT NULL, turn INTEGER NOT NULL,
  request_id TEXT NOT NULL, port TEXT NOT NULL, expires_at INTEGER NOT NULL,
  released TEXT NOT NULL DEFAULT '', UNIQUE (campaign, turn, request_id));
"""

CITY, TRANSPORT = "city", "transport"


class Store:
    """One connection behind one lock: calls are served one after another (L15)."""

    def __init__(self, path: str):
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=2)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

    @contextmanager
    def transaction(self):
        """One call's work: all of it or nothing, read and written in one state."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def one(self, sql: str, *args):
        return self._db.execute(sql, args).fetchone()

    def all(self, sql: str, *args):
        return self._db.execute(sql, args).fetchall()

    def run(self, sql: str, *args) -> int:
        return self._db.execute(sql, args).rowcount

    # ---- campaigns ----
    def campaign(self, campaign_id: str):
        """(closed, pate_turn, holders) or None when never opened."""
        row = self.one("SELECT closed, pate_turn, holders FROM campaigns WHERE id=?", campaign_id)
        if row is None:
            return None
        return bool(row[0]), row[1], json.loads(row[2])

    # ---- answers kept by id ----
    def answer(self, kind: str, ident: str):
        """(campaign, content, answer bytes) of an id of this kind, or None."""
        return self.one("SELECT campaign, content, answer FROM answers WHERE kind=? AND id=?", kind, ident)

    def keep_answer(self, kind: str, ident: str, campaign: str, content: bytes, answer: bytes):
        self.run(
            "INSERT INTO answers (kind, id, campaign, content, answer) VALUES (?,?,?,?,?)",
            kind,
            ident,
            campaign,
            content,
            answer,
        )

    # ---- stocks ----
    def stock(self, campaign: str, kind: str, place: str) -> int:
        row = self.one(
            "SELECT supplies FROM stocks WHERE campaign=? AND kind=? AND place=?", campaign, kind, place
        )
        return row[0] if row else 0

    def add_stock(self, campaign: str, kind: str, place: str, delta: int) -> None:
        now = self.stock(campaign, kind, place)
        self.run(
            "INSERT OR REPLACE INTO stocks (campaign, kind, place, supplies) VALUES (?,?,?,?)",
            campaign,
            kind,
            place,
            max(0, now + delta),
        )

    # ---- units ----
    def unit(self, campaign: str, unit_id: str):
        """(unit bytes, city, transport, fate, captor) or None."""
        return self.one(
            "SELECT unit, city, transport, fate, captor FROM units WHERE campaign=? AND id=?",
            campaign,
            unit_id,
        )

    def place_unit(self, campaign: str, unit_id: str, city: str, transport: str, tactical=None):
        row = self.unit(campaign, unit_id)
        blob = row[0]
        if tactical is not None:
            from gitm.v1 import land_pb2

            unit = land_pb2.Unit.FromString(blob)
            unit.tactical_square = tactical
            blob = unit.SerializeToString(deterministic=True)
        self.run(
            "UPDATE units SET unit=?, city=?, transport=? WHERE campaign=? AND id=?",
            blob,
            city,
            transport,
            campaign,
            unit_id,
        )

    # ---- transfers still open (their reservations, L8) ----
    def open_transfers(self, campaign: str):
        """The requests (bytes) of the BEGUN transfers of a campaign, by id."""
        rows = self.all(
            "SELECT id, request FROM transfers WHERE campaign=? AND state=1 ORDER BY id", campaign
        )
        return rows
