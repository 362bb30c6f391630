"""The land's state, kept whole in SQLite and written in one transaction after every change."""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

EMPTY: dict[str, Any] = {"campaigns": {}, "transfers": {}, "reports": {}, "holds": {}}


class Store:
    """One lock serializes every call: copies arriving together do the work once (L15)."""

    def __init__(self, path: str) -> None:
        self.lock = threading.RLock()
        self._db = sqlite3.connect(path, timeout=2.0, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS land (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)")
        row = self._db.execute("SELECT doc FROM land WHERE id = 1").fetchone()
        self.state: dict[str, Any] = json.loads(row[0]) if row else json.loads(json.dumps(EMPTY))
        self._saved = json.dumps(self.state, sort_keys=True)

    def save(self) -> None:
        doc = json.dumps(self.state, sort_keys=True)
        if doc == self._saved:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute("INSERT OR REPLACE INTO land (id, doc) VALUES (1, ?)", (doc,))
            self._db.execute("COMMIT")
        except sqlite3.Error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._saved = doc

    def rollback(self) -> None:
        """Drop what a failed call changed in memory: the store still holds the last state."""
        self.state = json.loads(self._saved)
