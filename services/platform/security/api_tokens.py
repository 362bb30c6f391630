"""An account's API tokens (docs/api.md): what a player's own program presents to
``Accounts.OpenSeat`` to get a seat session, as the web desk does with the account's session.

A token reads ``pate_at_<id>_<secret>``: the id (12 hex digits) names it in lists and in the
throttle, the secret is ``secrets.token_urlsafe(32)``, 256 random bits.  Only the SHA-256 of the
whole token is stored: nobody guesses a 256-bit secret from its hash, so a slow password hash
would cost every use and protect nothing more (as for sessions, sessions.py); a copy of the
database gives no usable token.  The token is shown once, when it is made.

A token reaches only seats of its account (every one, or a list chosen when it is made, each
of them checked then and again at each use), never a game master's seat, and never any other
``Accounts`` call: it cannot make tokens, change the password or delete the account.  A
read-only token's seat sessions read reports and nothing else (sessions.read_only).  Tokens
end at their expiry (at most 365 days), when revoked, and all at once when the password changes
or is reset, or the account is deleted.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from services.platform.errors import Code, DeskError
from services.platform.security.auth import check_id
from services.platform.security.sessions import MAX_TOKEN_LENGTH, TOKEN_BYTES, token_digest
from services.platform.store import account_tables as at
from services.platform.store import tables

PREFIX = "pate_at_"
ID_HEX = 12
MAX_NAME = 64
MAX_DAYS = 365
DEFAULT_DAYS = 90
MAX_SEATS = 50  # seats named in one token
MAX_LIVE = 20  # live tokens of one account
_TOKEN = re.compile(rf"{PREFIX}([0-9a-f]{{{ID_HEX}}})_([A-Za-z0-9_-]{{20,60}})")
_ID = re.compile(rf"[0-9a-f]{{{ID_HEX}}}")
_A = at.api_tokens
UNKNOWN = "API token unknown, expired or revoked"


@dataclass(frozen=True, slots=True)
class ApiToken:
    id: str
    name: str
    read_only: bool
    all_seats: bool
    seats: tuple[tuple[str, str], ...]  # (campaign, player), empty when all_seats
    created_at: datetime
    expires_at: datetime
    last_used_at: datetime | None
    account: str = ""

    @property
    def prefix(self) -> str:
        return f"{PREFIX}{self.id}"

    def reaches(self, campaign: str, player: str) -> bool:
        return self.all_seats or (campaign, player) in self.seats


def looks_like(token: str) -> bool:
    """Whether a bearer token is meant as an API token (the account's and seats' never start so)."""
    return token.startswith(PREFIX)


def parse(token: str) -> str | None:
    """The id of a well-formed token, else None (nothing is read for a malformed one)."""
    if len(token) > MAX_TOKEN_LENGTH:
        return None
    m = _TOKEN.fullmatch(token)
    return m.group(1) if m else None


def check_name(name: str) -> str:
    name = unicodedata.normalize("NFC", name.strip())
    if not name or len(name) > MAX_NAME:
        raise DeskError(Code.INVALID_ARGUMENT, f"name: 1 to {MAX_NAME} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in name):
        raise DeskError(Code.INVALID_ARGUMENT, "name: control or invisible characters refused")
    return name


def check_days(days: int) -> int:
    if days == 0:
        return DEFAULT_DAYS
    if not 1 <= days <= MAX_DAYS:
        raise DeskError(Code.INVALID_ARGUMENT, f"expires_in_days: 1 to {MAX_DAYS} (0: {DEFAULT_DAYS})")
    return days


def check_seats(seats: list[tuple[str, str]], all_seats: bool) -> tuple[tuple[str, str], ...]:
    if all_seats and seats:
        raise DeskError(Code.INVALID_ARGUMENT, "seats: leave empty with all_seats")
    if not all_seats and not seats:
        raise DeskError(Code.INVALID_ARGUMENT, "seats: name at least one seat, or set all_seats")
    if len(seats) > MAX_SEATS:
        raise DeskError(Code.INVALID_ARGUMENT, f"seats: at most {MAX_SEATS}")
    for campaign, player in seats:
        check_id("seats.campaign_id", campaign)
        check_id("seats.player_id", player)
    return tuple(sorted(set(seats)))


def check_id_text(token_id: str) -> str:
    """A token's id as given to RevokeApiToken (its prefix is accepted too)."""
    token_id = token_id.removeprefix(PREFIX)
    if not _ID.fullmatch(token_id):
        raise DeskError(Code.INVALID_ARGUMENT, f"token_id: {ID_HEX} hex digits (or {PREFIX} and them)")
    return token_id


def _row(r: Any) -> ApiToken:
    seats = tuple((c, p) for c, p in json.loads(r.seats))
    return ApiToken(
        r.id,
        r.name,
        bool(r.read_only),
        bool(r.all_seats),
        seats,
        r.created_at,
        r.expires_at,
        r.last_used_at,
        r.account,
    )


def _live(now: datetime) -> Any:
    return and_(_A.c.revoked_at.is_(None), _A.c.expires_at > now)


def create(
    conn: Connection,
    account: str,
    name: str,
    *,
    read_only: bool,
    all_seats: bool,
    seats: tuple[tuple[str, str], ...],
    days: int,
    now: datetime,
) -> tuple[str, ApiToken]:
    """A new token (shown here and never again) and what it is; checked fields only."""
    live = conn.execute(select(func.count()).select_from(_A).where(and_(_A.c.account == account, _live(now))))
    if int(live.scalar_one()) >= MAX_LIVE:
        raise DeskError(Code.FAILED_PRECONDITION, f"at most {MAX_LIVE} live API tokens: revoke one first")
    held = {(c, p) for c, p in _seats_of(conn, account)}
    for seat in seats:
        if seat not in held:
            raise DeskError(Code.NOT_FOUND, f"seats: {seat[0]}/{seat[1]} is no seat of yours")
    conn.execute(delete(_A).where(and_(_A.c.account == account, _A.c.expires_at <= now - timedelta(days=30))))
    token_id = secrets.token_hex(ID_HEX // 2)
    token = f"{PREFIX}{token_id}_{secrets.token_urlsafe(TOKEN_BYTES)}"
    expires = now + timedelta(days=days)
    conn.execute(
        insert(_A).values(
            id=token_id,
            account=account,
            name=name,
            token_sha256=token_digest(token),
            read_only=read_only,
            all_seats=all_seats,
            seats=json.dumps([list(s) for s in seats]),
            created_at=now,
            expires_at=expires,
        )
    )
    return token, ApiToken(token_id, name, read_only, all_seats, seats, now, expires, None, account)


def _seats_of(conn: Connection, account: str) -> list[tuple[str, str]]:
    s = at.account_seats
    rows = conn.execute(select(s.c.campaign, s.c.player).where(s.c.account == account)).all()
    return [(r.campaign, r.player) for r in rows]


def listed(conn: Connection, account: str, *, now: datetime) -> list[ApiToken]:
    rows = conn.execute(
        select(_A).where(and_(_A.c.account == account, _live(now))).order_by(_A.c.created_at, _A.c.id)
    ).all()
    return [_row(r) for r in rows]


def lookup(conn: Connection, token: str, *, now: datetime) -> ApiToken | None:
    """The live token ``token`` is; None when malformed, unknown, wrong, expired or revoked."""
    token_id = parse(token)
    if token_id is None:
        return None
    row = conn.execute(select(_A).where(_A.c.id == token_id)).first()
    if row is None or not hmac.compare_digest(row.token_sha256, token_digest(token)):
        return None
    if row.revoked_at is not None or row.expires_at <= now:
        return None
    return _row(row)


def used(conn: Connection, token_id: str, now: datetime) -> None:
    conn.execute(update(_A).where(_A.c.id == token_id).values(last_used_at=now))


def revoke(conn: Connection, account: str, *, now: datetime, token_id: str = "") -> int:
    """Revoke one token of the account (or every one, ``token_id`` empty) and end the seat
    sessions it opened; how many tokens."""
    mine = and_(_A.c.account == account, _A.c.revoked_at.is_(None))
    if token_id:
        mine = and_(mine, _A.c.id == token_id)
    ids = [r.id for r in conn.execute(select(_A.c.id).where(mine)).all()]
    if not ids:
        return 0
    conn.execute(update(_A).where(_A.c.id.in_(ids)).values(revoked_at=now))
    link, s = at.account_seat_sessions, tables.sessions
    opened = select(link.c.token_sha256).where(and_(link.c.account == account, link.c.api_token.in_(ids)))
    conn.execute(
        update(s).where(and_(s.c.token_sha256.in_(opened), s.c.revoked_at.is_(None))).values(revoked_at=now)
    )
    return len(ids)


def forget(conn: Connection, account: str) -> None:
    conn.execute(delete(_A).where(_A.c.account == account))
