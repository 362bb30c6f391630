"""The tables of accounts that span campaigns (migration 0016; docs/accounts.md), in the store's
one metadata.

An account is a person: a display name, an email address (kept lower-cased, one account per
address), an argon2id hash and an optional IANA time zone.  Secrets are never stored as they
are: mail tokens and session tokens only as SHA-256 digests (they have 256 random bits).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Index, String, Table, Text, false

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
    # what the link carries besides the account: the new address of an email change (0020)
    Column("detail", String(254), nullable=True),
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
    # the API token that opened it (migration 0020): revoking the token ends the session
    Column("api_token", String(16), nullable=True),
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

# An account's API tokens (migration 0020; docs/api.md): a name, the SHA-256 of the secret
# (256 random bits), the seats it reaches (all_seats, else ``seats``: a JSON list of
# [campaign, player]), read-only (reports only) or orders too, an expiry.
api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", String(16), primary_key=True),  # public: shown in lists, part of the token
    Column("account", String(32), nullable=False),
    Column("name", String(64), nullable=False),
    Column("token_sha256", String(64), nullable=False),
    Column("read_only", Boolean(create_constraint=False), nullable=False, server_default=false()),
    Column("all_seats", Boolean(create_constraint=False), nullable=False, server_default=false()),
    Column("seats", Text, nullable=False),
    _created(),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("revoked_at", UtcDateTime(), nullable=True),
    Column("last_used_at", UtcDateTime(), nullable=True),
)
Index(None, api_tokens.c.account)
