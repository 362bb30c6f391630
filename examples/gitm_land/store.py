"""The land service's SQLite store: the land, the transfers and every answer given.

Everything an answer depends on is written in the same transaction as the
answer itself, committed before the answer leaves (L16: answers survive a
restart). One connection, used under the service's lock (L15).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gitm.v1 import land_pb2 as pb

CITY = "city"
ABOARD = "aboard"
LOST = "lost"
CAPTURED = "captured"
TRANSPORT = "transport"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS campaign (
    id TEXT PRIMARY KEY, digest TEXT NOT NULL, answer BLOB NOT NULL, close_answer BLOB);
CREATE TABLE IF NOT EXISTS unit (
    campaign TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL,
    place TEXT NOT NULL, location TEXT NOT NULL, tactical INTEGER NOT NULL,
    body BLOB NOT NULL, PRIMARY KEY (campaign, id));
CREATE TABLE IF NOT EXISTS stock (
    campaign TEXT NOT NULL, kind TEXT NOT NULL, location TEXT NOT NULL,
    supplies INTEGER NOT NULL, PRIMARY KEY (campaign, kind, location));
CREATE TABLE IF NOT EXISTS transfer (
    id TEXT PRIMARY KEY, campaign TEXT NOT NULL, digest TEXT NOT NULL,
    direction INTEGER NOT NULL, port TEXT NOT NULL, transport TEXT NOT NULL,
    units TEXT NOT NULL, supplies INTEGER NOT NULL, state INTEGER NOT NULL,
    answer BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS transfer_open ON transfer (campaign, state);
CREATE TABLE IF NOT EXISTS report (
    kind TEXT NOT NULL, id TEXT NOT NULL, campaign TEXT NOT NULL,
    digest TEXT NOT NULL, answer BLOB NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS holder (
    campaign TEXT NOT NULL, city TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (campaign, city));
CREATE TABLE IF NOT EXISTS sighting (
    report TEXT NOT NULL, seq INTEGER NOT NULL, port TEXT NOT NULL,
    for_state TEXT NOT NULL, ships TEXT NOT NULL, PRIMARY KEY (report, seq));
"""


@dataclass(frozen=True)
class Placed:
    """A unit of a campaign and where it stands."""

    id: str
    state: str
    place: str
    location: str
    tactical: bool
    body: bytes

    def message(self, *, reserved: bool = False) -> pb.Unit:
        unit = pb.Unit.FromString(self.body)
        unit.tactical_square = self.tactical
        unit.reserved = reserved
        return unit


@dataclass(frozen=True)
class Transfer:
    id: str
    campaign: str
    digest: str
    direction: int
    port: str
    transport: str
    units: tuple[str, ...]
    supplies: int
    state: int
    answer: bytes


class Store:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ---- campaigns
    def campaign(self, cid: str) -> tuple[str, bytes, bytes | None] | None:
        row = self._db.execute(
            "SELECT digest, answer, close_answer FROM campaign WHERE id = ?", (cid,)
        ).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def open_campaign(self, cid: str, digest: str, answer: bytes) -> None:
        for table in ("unit", "stock", "holder"):
            self._db.execute(f"DELETE FROM {table} WHERE campaign = ?", (cid,))
        self._db.execute(
            "INSERT OR REPLACE INTO campaign (id, digest, answer) VALUES (?, ?, ?)",
            (cid, digest, answer),
        )

    def close_campaign(self, cid: str, answer: bytes) -> None:
        self._db.execute("UPDATE campaign SET close_answer = ? WHERE id = ?", (answer, cid))

    # ---- holders (edition 3)
    def set_holder(self, cid: str, city: str, state: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO holder VALUES (?, ?, ?)", (cid, city, state))

    def holders(self, cid: str) -> list[tuple[str, str]]:
        rows = self._db.execute(
            "SELECT city, state FROM holder WHERE campaign = ? ORDER BY city", (cid,)
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    # ---- units
    def unit(self, cid: str, uid: str) -> Placed | None:
        row = self._db.execute(
            "SELECT id, state, place, location, tactical, body FROM unit WHERE campaign = ? AND id = ?",
            (cid, uid),
        ).fetchone()
        return None if row is None else Placed(*row[:4], bool(row[4]), row[5])

    def units_at(self, cid: str, place: str, location: str) -> list[Placed]:
        rows = self._db.execute(
            "SELECT id, state, place, location, tactical, body FROM unit"
            " WHERE campaign = ? AND place = ? AND location = ? ORDER BY id",
            (cid, place, location),
        ).fetchall()
        return [Placed(*r[:4], bool(r[4]), r[5]) for r in rows]

    def all_units(self, cid: str) -> list[Placed]:
        rows = self._db.execute(
            "SELECT id, state, place, location, tactical, body FROM unit WHERE campaign = ? ORDER BY id",
            (cid,),
        ).fetchall()
        return [Placed(*r[:4], bool(r[4]), r[5]) for r in rows]

    def put_unit(self, cid: str, unit: pb.Unit, place: str, location: str) -> None:
        body = pb.Unit()
        body.CopyFrom(unit)
        body.tactical_square = False
        body.reserved = False
        self._db.execute(
            "INSERT OR REPLACE INTO unit VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                cid,
                unit.id,
                unit.state,
                place,
                location,
                int(unit.tactical_square),
                body.SerializeToString(deterministic=True),
            ),
        )

    def move_unit(self, cid: str, uid: str, place: str, location: str, tactical: bool) -> None:
        self._db.execute(
            "UPDATE unit SET place = ?, location = ?, tactical = ? WHERE campaign = ? AND id = ?",
            (place, location, int(tactical), cid, uid),
        )

    # ---- supplies
    def stock(self, cid: str, kind: str, location: str) -> int:
        row = self._db.execute(
            "SELECT supplies FROM stock WHERE campaign = ? AND kind = ? AND location = ?",
            (cid, kind, location),
        ).fetchone()
        return 0 if row is None else int(row[0])

    def set_stock(self, cid: str, kind: str, location: str, supplies: int) -> None:
        self._db.execute("INSERT OR REPLACE INTO stock VALUES (?, ?, ?, ?)", (cid, kind, location, supplies))

    def add_stock(self, cid: str, kind: str, location: str, delta: int) -> None:
        self.set_stock(cid, kind, location, self.stock(cid, kind, location) + delta)

    def all_stocks(self, cid: str) -> list[tuple[str, str, int]]:
        rows = self._db.execute(
            "SELECT kind, location, supplies FROM stock WHERE campaign = ? ORDER BY kind, location",
            (cid,),
        ).fetchall()
        return [(r[0], r[1], int(r[2])) for r in rows]

    # ---- transfers
    def transfer(self, tid: str) -> Transfer | None:
        row = self._db.execute("SELECT * FROM transfer WHERE id = ?", (tid,)).fetchone()
        return None if row is None else _transfer(row)

    def open_transfers(self, cid: str) -> list[Transfer]:
        rows = self._db.execute(
            "SELECT * FROM transfer WHERE campaign = ? AND state = ? ORDER BY id",
            (cid, pb.TRANSFER_STATE_BEGUN),
        ).fetchall()
        return [_transfer(r) for r in rows]

    def save_transfer(self, t: Transfer) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO transfer VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                t.id,
                t.campaign,
                t.digest,
                t.direction,
                t.port,
                t.transport,
                json.dumps(list(t.units)),
                t.supplies,
                t.state,
                t.answer,
            ),
        )

    # ---- reports (losses, cargo moves, sightings)
    def report(self, kind: str, rid: str) -> tuple[str, bytes] | None:
        row = self._db.execute(
            "SELECT digest, answer FROM report WHERE kind = ? AND id = ?", (kind, rid)
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def save_report(self, kind: str, rid: str, cid: str, digest: str, answer: bytes) -> None:
        self._db.execute("INSERT INTO report VALUES (?, ?, ?, ?, ?)", (kind, rid, cid, digest, answer))

    def save_sighting(self, rid: str, seq: int, sighting: pb.ShoreSighting) -> None:
        ships = [[s.id, s.state, s.type] for s in sighting.ships]
        self._db.execute(
            "INSERT INTO sighting VALUES (?, ?, ?, ?, ?)",
            (rid, seq, sighting.port, sighting.for_state, json.dumps(ships)),
        )


def _transfer(row: tuple[object, ...]) -> Transfer:
    units = tuple(json.loads(str(row[6])))
    return Transfer(
        str(row[0]),
        str(row[1]),
        str(row[2]),
        int(row[3]),
        str(row[4]),  # type: ignore[call-overload]
        str(row[5]),
        units,
        int(row[7]),
        int(row[8]),
        bytes(row[9]),  # type: ignore[call-overload]
    )
