"""The land's SQLite store: every answer and every position, kept across restarts (L16)."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gitm.v1 import land_pb2 as pb

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
  id TEXT PRIMARY KEY, content BLOB NOT NULL, open_answer BLOB NOT NULL,
  closed INTEGER NOT NULL DEFAULT 0, close_answer BLOB, pate_turn INTEGER NOT NULL DEFAULT 0,
  opened_at REAL NOT NULL, last_call REAL NOT NULL);
CREATE TABLE IF NOT EXISTS units (
  campaign TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL, size BLOB NOT NULL,
  city TEXT NOT NULL, tactical INTEGER NOT NULL, transport TEXT NOT NULL,
  fate TEXT NOT NULL, captor TEXT NOT NULL, PRIMARY KEY (campaign, id));
CREATE TABLE IF NOT EXISTS stocks (
  campaign TEXT NOT NULL, kind TEXT NOT NULL, place TEXT NOT NULL, supplies INTEGER NOT NULL,
  PRIMARY KEY (campaign, kind, place));
CREATE TABLE IF NOT EXISTS holders (
  campaign TEXT NOT NULL, city TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (campaign, city));
CREATE TABLE IF NOT EXISTS transfers (
  id TEXT PRIMARY KEY, campaign TEXT NOT NULL, content BLOB NOT NULL, state INTEGER NOT NULL,
  direction INTEGER NOT NULL, port TEXT NOT NULL, transport TEXT NOT NULL, units TEXT NOT NULL,
  supplies INTEGER NOT NULL, turn INTEGER NOT NULL, status BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS transfers_by_campaign ON transfers (campaign, state);
CREATE TABLE IF NOT EXISTS reports (
  kind TEXT NOT NULL, id TEXT NOT NULL, campaign TEXT NOT NULL, content BLOB NOT NULL,
  answer BLOB NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS holds (
  id TEXT PRIMARY KEY, campaign TEXT NOT NULL, turn INTEGER NOT NULL, request_id TEXT NOT NULL,
  port TEXT NOT NULL, expires_at INTEGER NOT NULL, ended TEXT NOT NULL, units TEXT NOT NULL,
  UNIQUE (campaign, turn, request_id));
CREATE TABLE IF NOT EXISTS events (
  campaign TEXT NOT NULL, sequence INTEGER NOT NULL, event BLOB NOT NULL,
  PRIMARY KEY (campaign, sequence));
"""

CITY = "city"
TRANSPORT = "transport"


@dataclass
class UnitRow:
    campaign: str
    id: str
    state: str
    size: bytes  # a serialized Unit: its sizes, headquarters and carried supplies
    city: str
    tactical: bool
    transport: str
    fate: str
    captor: str

    def standing(self) -> bool:
        return not self.fate


@dataclass
class TransferRow:
    id: str
    campaign: str
    content: bytes
    state: int
    direction: int
    port: str
    transport: str
    units: list[str]
    supplies: int
    turn: int
    status: pb.TransferStatus


class Store:
    """One connection, one lock: every call is one transaction, served one at a time (L15)."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=2.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _one(self, sql: str, *args: object) -> tuple | None:  # type: ignore[type-arg]
        row: tuple | None = self._db.execute(sql, args).fetchone()  # type: ignore[type-arg]
        return row

    def _all(self, sql: str, *args: object) -> list[tuple]:  # type: ignore[type-arg]
        return list(self._db.execute(sql, args).fetchall())

    def run(self, sql: str, *args: object) -> None:
        self._db.execute(sql, args)

    # ---- campaigns ----
    def campaign(self, cid: str) -> tuple | None:  # type: ignore[type-arg]
        """(content, open_answer, closed, close_answer, pate_turn) or None."""
        return self._one(
            "SELECT content, open_answer, closed, close_answer, pate_turn FROM campaigns WHERE id = ?",
            cid,
        )

    def add_campaign(self, cid: str, content: bytes, answer: bytes, now: float) -> None:
        self.run(
            "INSERT INTO campaigns (id, content, open_answer, opened_at, last_call) VALUES (?, ?, ?, ?, ?)",
            cid,
            content,
            answer,
            now,
            now,
        )

    def close_campaign(self, cid: str, answer: bytes) -> None:
        self.run("UPDATE campaigns SET closed = 1, close_answer = ? WHERE id = ?", answer, cid)

    def delivered(self, cid: str, turn: int) -> None:
        self.run("UPDATE campaigns SET pate_turn = MAX(pate_turn, ?) WHERE id = ?", turn, cid)

    # ---- units ----
    _UNIT = "SELECT campaign, id, state, size, city, tactical, transport, fate, captor FROM units"

    def unit(self, cid: str, uid: str) -> UnitRow | None:
        row = self._one(f"{self._UNIT} WHERE campaign = ? AND id = ?", cid, uid)
        return _unit(row) if row else None

    def units_at(self, cid: str, city: str) -> list[UnitRow]:
        rows = self._all(f"{self._UNIT} WHERE campaign = ? AND city = ? AND fate = '' ORDER BY id", cid, city)
        return [_unit(r) for r in rows]

    def units(self, cid: str) -> list[UnitRow]:
        return [_unit(r) for r in self._all(f"{self._UNIT} WHERE campaign = ? ORDER BY id", cid)]

    def put_unit(self, u: UnitRow) -> None:
        self.run(
            "INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            u.campaign,
            u.id,
            u.state,
            u.size,
            u.city,
            int(u.tactical),
            u.transport,
            u.fate,
            u.captor,
        )

    # ---- stocks ----
    def stock(self, cid: str, kind: str, place: str) -> int:
        row = self._one(
            "SELECT supplies FROM stocks WHERE campaign = ? AND kind = ? AND place = ?",
            cid,
            kind,
            place,
        )
        return int(row[0]) if row else 0

    def set_stock(self, cid: str, kind: str, place: str, supplies: int) -> None:
        self.run("INSERT OR REPLACE INTO stocks VALUES (?, ?, ?, ?)", cid, kind, place, supplies)

    def add_stock(self, cid: str, kind: str, place: str, delta: int) -> None:
        self.set_stock(cid, kind, place, max(0, self.stock(cid, kind, place) + delta))

    def stocks(self, cid: str) -> list[tuple[str, str, int]]:
        return [
            (str(k), str(p), int(s))
            for k, p, s in self._all(
                "SELECT kind, place, supplies FROM stocks WHERE campaign = ? ORDER BY kind, place",
                cid,
            )
        ]

    # ---- holders ----
    def set_holder(self, cid: str, city: str, state: str) -> None:
        self.run("INSERT OR REPLACE INTO holders VALUES (?, ?, ?)", cid, city, state)

    def holders(self, cid: str) -> list[tuple[str, str]]:
        rows = self._all("SELECT city, state FROM holders WHERE campaign = ? ORDER BY city", cid)
        return [(str(c), str(s)) for c, s in rows]

    # ---- transfers ----
    _TRANSFER = (
        "SELECT id, campaign, content, state, direction, port, transport, units, supplies,"
        " turn, status FROM transfers"
    )

    def transfer(self, tid: str) -> TransferRow | None:
        row = self._one(f"{self._TRANSFER} WHERE id = ?", tid)
        return _transfer(row) if row else None

    def transfers(self, cid: str, state: int | None = None) -> list[TransferRow]:
        if state is None:
            rows = self._all(f"{self._TRANSFER} WHERE campaign = ? ORDER BY id", cid)
        else:
            rows = self._all(f"{self._TRANSFER} WHERE campaign = ? AND state = ? ORDER BY id", cid, state)
        return [_transfer(r) for r in rows]

    def put_transfer(self, t: TransferRow) -> None:
        self.run(
            "INSERT OR REPLACE INTO transfers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            t.id,
            t.campaign,
            t.content,
            t.state,
            t.direction,
            t.port,
            t.transport,
            json.dumps(t.units),
            t.supplies,
            t.turn,
            t.status.SerializeToString(),
        )

    def reservations(self, cid: str) -> tuple[dict[str, str], dict[tuple[str, str], int]]:
        """Units reserved by open transfers (unit -> transfer), supplies reserved by place."""
        units: dict[str, str] = {}
        supplies: dict[tuple[str, str], int] = {}
        for t in self.transfers(cid, pb.TRANSFER_STATE_BEGUN):
            for uid in t.units:
                units[uid] = t.id
            place = (CITY, t.port) if t.direction == pb.DIRECTION_LOAD else (TRANSPORT, t.transport)
            supplies[place] = supplies.get(place, 0) + t.supplies
        return units, supplies

    # ---- reports (sightings, losses, moves): content and first answer by id ----
    def report(self, kind: str, rid: str) -> tuple[str, bytes, bytes] | None:
        row = self._one("SELECT campaign, content, answer FROM reports WHERE kind = ? AND id = ?", kind, rid)
        return (str(row[0]), bytes(row[1]), bytes(row[2])) if row else None

    def put_report(self, kind: str, rid: str, cid: str, content: bytes, answer: bytes) -> None:
        self.run("INSERT INTO reports VALUES (?, ?, ?, ?, ?)", kind, rid, cid, content, answer)

    # ---- holds ----
    _HOLD = "SELECT id, campaign, turn, request_id, port, expires_at, ended, units FROM holds"

    def hold(self, hid: str) -> tuple | None:  # type: ignore[type-arg]
        return self._one(f"{self._HOLD} WHERE id = ?", hid)

    def hold_by_request(self, cid: str, turn: int, request_id: str) -> tuple | None:  # type: ignore[type-arg]
        return self._one(
            f"{self._HOLD} WHERE campaign = ? AND turn = ? AND request_id = ?",
            cid,
            turn,
            request_id,
        )

    def add_hold(
        self, hid: str, cid: str, turn: int, request_id: str, port: str, expires: int,
        units: list[str],
    ) -> None:  # fmt: skip
        self.run(
            "INSERT INTO holds VALUES (?, ?, ?, ?, ?, ?, '', ?)",
            hid,
            cid,
            turn,
            request_id,
            port,
            expires,
            json.dumps(units),
        )

    def end_hold(self, hid: str, how: str) -> None:
        self.run("UPDATE holds SET ended = ? WHERE id = ?", how, hid)

    # ---- land events ----
    def events(self, cid: str, after: int, limit: int) -> list[pb.LandEvent]:
        rows = self._all(
            "SELECT event FROM events WHERE campaign = ? AND sequence > ? ORDER BY sequence LIMIT ?",
            cid,
            after,
            limit,
        )
        return [pb.LandEvent.FromString(bytes(r[0])) for r in rows]

    def last_sequence(self, cid: str) -> int:
        row = self._one("SELECT MAX(sequence) FROM events WHERE campaign = ?", cid)
        return int(row[0]) if row and row[0] is not None else 0


def _unit(row: tuple) -> UnitRow:  # type: ignore[type-arg]
    c, i, s, size, city, tac, tr, fate, captor = row
    return UnitRow(c, i, s, bytes(size), city, bool(tac), tr, fate, captor)


def _transfer(row: tuple) -> TransferRow:  # type: ignore[type-arg]
    tid, cid, content, state, direction, port, transport, units, supplies, turn, status = row
    return TransferRow(
        tid,
        cid,
        bytes(content),
        int(state),
        int(direction),
        port,
        transport,
        list(json.loads(units)),
        int(supplies),
        int(turn),
        pb.TransferStatus.FromString(status),
    )
