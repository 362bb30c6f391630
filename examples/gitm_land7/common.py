"""What every call of the land needs: the campaign, its places and its units."""

import sqlite3
from dataclasses import dataclass

from google.protobuf.message import Message

from examples.gitm_land7.errors import Fault, closed, not_opened, reused
from gitm.v1 import land_pb2 as pb


def content(request: Message, *ignored: str) -> bytes:
    """A request's content for repeats: its fields but those the contract leaves out."""
    copy = type(request)()
    copy.CopyFrom(request)
    for name in ignored:
        copy.ClearField(name)
    return copy.SerializeToString(deterministic=True)


@dataclass
class Campaign:
    id: str
    closed: bool


def campaign(db: sqlite3.Connection, campaign_id: str) -> Campaign:
    row = db.execute("SELECT closed FROM campaigns WHERE id = ?", (campaign_id,)).fetchone()
    if row is None:
        raise not_opened(campaign_id)
    return Campaign(campaign_id, bool(row[0]))


def open_campaign(db: sqlite3.Connection, campaign_id: str) -> Campaign:
    """The campaign, which must take new work (L22)."""
    found = campaign(db, campaign_id)
    if found.closed:
        raise closed(campaign_id)
    return found


def note_turn(db: sqlite3.Connection, campaign_id: str, turn: int) -> None:
    db.execute("UPDATE campaigns SET pate_turn = MAX(pate_turn, ?) WHERE id = ?", (turn, campaign_id))


def stored_report(db: sqlite3.Connection, kind: str, ident: str, body: bytes) -> bytes | None:
    """The stored answer of a repeat, or None; ALREADY_EXISTS for other content (L12)."""
    row = db.execute(
        "SELECT content, answer FROM reports WHERE kind = ? AND id = ?", (kind, ident)
    ).fetchone()
    if row is None:
        return None
    if bytes(row[0]) != body:
        raise reused(kind, ident)
    return bytes(row[1])


def keep_report(
    db: sqlite3.Connection, kind: str, ident: str, campaign_id: str, body: bytes, answer: bytes
) -> None:
    db.execute(
        "INSERT INTO reports (kind, id, campaign, content, answer) VALUES (?, ?, ?, ?, ?)",
        (kind, ident, campaign_id, body, answer),
    )


def stock(db: sqlite3.Connection, campaign_id: str, city: str, transport: str) -> int:
    row = db.execute(
        "SELECT supplies FROM stocks WHERE campaign = ? AND city = ? AND transport = ?",
        (campaign_id, city, transport),
    ).fetchone()
    return int(row[0]) if row else 0


def add_stock(db: sqlite3.Connection, campaign_id: str, city: str, transport: str, delta: int) -> None:
    now = stock(db, campaign_id, city, transport)
    db.execute(
        "INSERT OR REPLACE INTO stocks (campaign, city, transport, supplies) VALUES (?, ?, ?, ?)",
        (campaign_id, city, transport, max(0, now + delta)),
    )


def reserved_stock(db: sqlite3.Connection, campaign_id: str, city: str, transport: str) -> int:
    """Supplies open transfers hold of a place: loads of a city, landings of a transport."""
    if city:
        sql = "direction = ? AND port = ?"
        args: tuple[object, ...] = (pb.DIRECTION_LOAD, city)
    else:
        sql = "direction = ? AND transport = ?"
        args = (pb.DIRECTION_UNLOAD, transport)
    row = db.execute(
        f"SELECT COALESCE(SUM(supplies), 0) FROM transfers WHERE campaign = ? AND state = ? AND {sql}",
        (campaign_id, pb.TRANSFER_STATE_BEGUN, *args),
    ).fetchone()
    return int(row[0])


UNIT_COLUMNS = (
    "id, state, infantry, cavalry, artillery, batteries, headquarters, supplies, "
    "city, transport, tactical, fate, captor, reserved_by"
)


@dataclass
class LandUnit:
    id: str
    state: str
    infantry: int
    cavalry: int
    artillery: int
    batteries: int
    headquarters: str
    supplies: int
    city: str
    transport: str
    tactical: int
    fate: str
    captor: str
    reserved_by: str

    def message(self) -> pb.Unit:
        return pb.Unit(
            id=self.id,
            state=self.state,
            tactical_square=bool(self.tactical),
            infantry=self.infantry,
            cavalry=self.cavalry,
            artillery=self.artillery,
            batteries=self.batteries,
            headquarters=self.headquarters,
            supplies=self.supplies,
            reserved=bool(self.reserved_by),
        )


def unit(db: sqlite3.Connection, campaign_id: str, unit_id: str) -> LandUnit | None:
    row = db.execute(
        f"SELECT {UNIT_COLUMNS} FROM units WHERE campaign = ? AND id = ?", (campaign_id, unit_id)
    ).fetchone()
    return LandUnit(*row) if row else None


def units(db: sqlite3.Connection, campaign_id: str, where: str = "1", *args: object) -> list[LandUnit]:
    rows = db.execute(
        f"SELECT {UNIT_COLUMNS} FROM units WHERE campaign = ? AND {where} ORDER BY id",
        (campaign_id, *args),
    ).fetchall()
    return [LandUnit(*row) for row in rows]


def place_unit(
    db: sqlite3.Connection, campaign_id: str, unit_id: str, city: str, transport: str, tactical: bool
) -> None:
    db.execute(
        "UPDATE units SET city = ?, transport = ?, tactical = ?, reserved_by = '' "
        "WHERE campaign = ? AND id = ?",
        (city, transport, int(tactical), campaign_id, unit_id),
    )


def refusal(item: str, code: str, reason: str) -> pb.Refusal:
    return pb.Refusal(item=item, code=code, reason=reason)


def not_found(reason: str, what: str, **metadata: str) -> Fault:
    return Fault(reason, what, metadata=metadata)
