"""The tables of accounts that span campaigns (migration 0016; docs/accounts.md), in the store's
one metadata.

An account is a person: a display name, an email address (kept lower-cased, one account per
address), an argon2id hash and an optional IANA time zone.  Secrets are never stored as they
are: mail tokens and session tokens only as SHA-256 digests (they have 256 random bits).
"""

from __future__ import annotations

from sqlalchemy import Column, Index, String, Table

from services.platform.store.tables import UtcDateTime, _created, metadata

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("display_name", String(100), nullable=False),
    Column("email", String(254), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("time_zone", String(64), nullable=True),
    Column("verified_at", UtcDateTime(), nullable=True),
    _created(),
)

# The links of the mails: purpose verify | reset; single use (used_at), expiring.
account_tokens = Table(
    "account_tokens",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("account", String(32), nullable=False),
    Column("purpose", String(16), nullable=False),
    _created(),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("used_at", UtcDateTime(), nullable=True),
)
Index(None, account_tokens.c.account)

# A session of the account itself (Accounts calls); seat sessions stay in ``sessions``.
account_sessions = Table(
    "account_sessions",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("account", String(32), nullable=False),
    _created(),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("revoked_at", UtcDateTime(), nullable=True),
)
Index(None, account_sessions.c.account)

# Which seat sessions (rows of ``sessions``) an account opened: revoked with the account's.
account_seat_sessions = Table(
    "account_seat_sessions",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("account", String(32), nullable=False),
)
Index(None, account_seat_sessions.c.account)

# The seats an account claimed.  account NULL: a former player, whose account was deleted after
# the campaign finished (the seat and every game record stay as they were).
account_seats = Table(
    "account_seats",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("account", String(32), nullable=True),
    Column("claimed_at", UtcDateTime(), nullable=False),
)
Index(None, account_seats.c.account)
