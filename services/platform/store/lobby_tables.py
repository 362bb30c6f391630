"""The lobby's tables (migration 0018; docs/lobby.md), on the store's one metadata.

A listing is a campaign its game master published; its seats are the seats offered, at the
start or later as replacements; an ask is an account's request for a seat of a listing that
wants approval.  The reliability record keeps one row per (account, campaign, turn) due, so a
turn close processed twice counts once, and one row per campaign an account left.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Index, Integer, String, Table, Text, UniqueConstraint

from services.platform.store.tables import UtcDateTime, metadata

lobby_listings = Table(
    "lobby_listings",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("description", Text(), nullable=False),
    Column("time_zone", String(64), nullable=False),
    Column("seat_policy", String(16), nullable=False),  # first_come | approval
    Column("min_reliability", Integer(), nullable=False),
    Column("start", String(16), nullable=False),  # when_full | by_game_master
    Column("published_at", UtcDateTime(), nullable=False),
    Column("started_at", UtcDateTime(), nullable=True),
)

# A seat offered.  account: who took it (NULL: free).  kind: start | civil_disorder |
# game_master | left.  reports_from: a replacement's newcomer reads the seat's reports from this
# turn on; plays_from: the first turn he plays (the bot plays the seat until then).
lobby_seats = Table(
    "lobby_seats",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("opened_at", UtcDateTime(), nullable=False),
    Column("account", String(32), nullable=True),
    Column("taken_at", UtcDateTime(), nullable=True),
    Column("reports_from", Integer(), nullable=True),
    Column("plays_from", Integer(), nullable=True),
    UniqueConstraint("campaign", "account"),  # one seat per account per campaign (NULLs differ)
)

lobby_asks = Table(
    "lobby_asks",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("campaign", String(64), nullable=False),
    Column("player", String(64), nullable=False),
    Column("account", String(32), nullable=False),
    Column("state", String(16), nullable=False),  # waiting | approved | refused
    Column("asked_at", UtcDateTime(), nullable=False),
    Column("decided_at", UtcDateTime(), nullable=True),
    UniqueConstraint("campaign", "account"),  # one ask per account per campaign
)

# A turn an account's seat was due: sent = orders sent or confirmed by the deadline.
reliability_turns = Table(
    "reliability_turns",
    metadata,
    Column("account", String(32), primary_key=True),
    Column("campaign", String(64), primary_key=True),
    Column("turn", Integer(), primary_key=True),
    Column("player", String(64), nullable=False),
    Column("sent", Boolean(create_constraint=False), nullable=False),
)

# A campaign an account left (gave its seat up, or was replaced) before it finished.
reliability_left = Table(
    "reliability_left",
    metadata,
    Column("account", String(32), primary_key=True),
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), nullable=False),
    Column("turn", Integer(), nullable=False),
    Column("left_at", UtcDateTime(), nullable=False),
)
Index(None, lobby_asks.c.campaign)
