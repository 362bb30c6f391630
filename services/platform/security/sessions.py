"""Player sessions: tokens issued by Login, looked up on every call.

A token is ``secrets.token_urlsafe(32)``: 256 random bits.  Only its SHA-256
is stored: a token has far too much entropy to be guessed from its hash, so a
slow password hash would add cost and nothing else; a stolen database copy
gives no usable token.  A session is bound to one campaign and one player,
expires ``ttl`` after login and can be revoked (Logout, RevokeSessions, a
password reset).  Expired and revoked rows are pruned at each login.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, and_, delete, insert, or_, select, update

from services.platform.store import tables

TOKEN_BYTES = 32  # 256 bits
MAX_TOKEN_LENGTH = 100  # characters; token_urlsafe(32) has 43
# how long a revoked row is kept before pruning (it refuses its token either way)
KEEP_REVOKED = timedelta(days=1)

_S = tables.sessions


@dataclass(frozen=True, slots=True)
class Session:
    campaign: str
    player: str
    expires_at: datetime
    read_only: bool = False  # opened by a read-only API token: reports only (docs/api.md)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def issue(
    conn: Connection,
    campaign: str,
    player: str,
    *,
    now: datetime,
    ttl: float,
    read_only: bool = False,
    until: datetime | None = None,
) -> tuple[str, Session]:
    """A new session for the player; the token is returned here and never again.  ``until``:
    it ends then at the latest (an API token's own expiry)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    expires = now + timedelta(seconds=ttl)
    if until is not None:
        expires = min(expires, until)
    prune(conn, now)
    conn.execute(
        insert(_S).values(
            token_sha256=token_digest(token),
            campaign=campaign,
            player=player,
            created_at=now,
            expires_at=expires,
            read_only=read_only,
        )
    )
    return token, Session(campaign, player, expires, read_only)


def lookup(conn: Connection, token: str, *, now: datetime) -> Session | None:
    """The live session of ``token``; None when unknown, expired or revoked."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    row = conn.execute(select(_S).where(_S.c.token_sha256 == token_digest(token))).first()
    if row is None or row.revoked_at is not None or row.expires_at <= now:
        return None
    return Session(row.campaign, row.player, row.expires_at, bool(row.read_only))


def revoke(conn: Connection, token: str, *, now: datetime) -> int:
    """Revoke one session; the number of sessions revoked (0 or 1)."""
    res = conn.execute(
        update(_S)
        .where(and_(_S.c.token_sha256 == token_digest(token), _S.c.revoked_at.is_(None)))
        .values(revoked_at=now)
    )
    return int(res.rowcount)


def revoke_player(conn: Connection, campaign: str, player: str, *, now: datetime) -> int:
    """Revoke every live session of a player (logout everywhere, password reset)."""
    res = conn.execute(
        update(_S)
        .where(
            and_(
                _S.c.campaign == campaign,
                _S.c.player == player,
                _S.c.revoked_at.is_(None),
                _S.c.expires_at > now,
            )
        )
        .values(revoked_at=now)
    )
    return int(res.rowcount)


def prune(conn: Connection, now: datetime) -> int:
    """Delete sessions that expired, or were revoked more than a day ago."""
    res = conn.execute(delete(_S).where(or_(_S.c.expires_at <= now, _S.c.revoked_at <= now - KEEP_REVOKED)))
    return int(res.rowcount)
