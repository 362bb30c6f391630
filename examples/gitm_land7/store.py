"""The SQLite store: one connection, one transaction per call, served one call at a time."""

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from examples.gitm_land7.errors import Fault

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
  id TEXT PRIMARY KEY, content BLOB NOT NULL, answer BLOB NOT NULL,
  closed INTEGER NOT NULL DEFAULT 0, close_answer BLOB, pate_turn INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS units (
  campaign TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL,
  infantry INTEGER NOT NULL, cavalry INTEGER NOT NULL, artillery INTEGER NOT NULL,
  batteries INTEGER NOT NULL, headquarters TEXT NOT NULL, supplies INTEGER NOT NULL,
  city TEXT NOT NULL DEFAULT '', transport TEXT NOT NULL DEFAULT '',
  tactical INTEGER NOT NULL DEFAULT 0, fate TEXT NOT NULL DEFAULT '',
  captor TEXT NOT NULL DEFAULT '', reserved_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (campaign, id));
CREATE TABLE IF NOT EXISTS stocks (
  campaign TEXT NOT NULL, city TEXT NOT NULL, transport TEXT NOT NULL,
  supplies INTEGER NOT NULL, PRIMARY KEY (campaign, city, transport));
CREATE TABLE IF NOT EXISTS holders (
  campaign TEXT NOT NULL, port TEXT NOT NULL, state TEXT NOT NULL,
  PRIMARY KEY (campaign, port));
CREATE TABLE IF NOT EXISTS transfers (
  id TEXT PRIMARY KEY, campaign TEXT NOT NULL, content BLOB NOT NULL,
  state INTEGER NOT NULL, direction INTEGER NOT NULL, port TEXT NOT NULL,
  transport TEXT NOT NULL, units TEXT NOT NULL, supplies INTEGER NOT NULL,
  turn INTEGER NOT NULL, refusals BLOB);
CREATE TABLE IF NOT EXISTS reports (
  kind TEXT NOT NULL, id TEXT NOT NULL, campaign TEXT NOT NULL, content BLOB NOT NULL,
  answer BLOB NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS holds (
  hold_id TEXT PRIMARY KEY, campaign TEXT NOT NULL, turn INTEGER NOT NULL,
  request_id TEXT NOT NULL, port TEXT NOT NULL, expires_at INTEGER NOT NULL,
  release_state TEXT NOT NULL DEFAULT '');
"""


class Store:
    """Every call runs inside `transaction()`: the lock serves copies one after the other (L15)."""

    def __init__(self, path: str) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=2000")
        self._db.executescript(SCHEMA)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise Fault("LAND_UNAVAILABLE", "the land store is busy; call again") from exc
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()
