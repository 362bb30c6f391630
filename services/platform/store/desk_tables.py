"""The tables of confirmed orders, the early close and messages between
players (migration 0011; docs/web.md), the game master's campaign options and
what each player has read of his messages (0015), in the store's one metadata."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Index, Integer, String, Table, Text, false

from services.platform.store.tables import UtcDateTime, _created, metadata

# A player's "my orders are final" for one turn; any later submission of his
# takes it away again.
order_confirmations = Table(
    "order_confirmations",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("confirmed_at", UtcDateTime(), nullable=False),
)

# The game master's choice: close the turn once every player with ships has
# confirmed; the next deadline then runs from the early close, or keeps the
# schedule the turn had (scheduled_deadline of the turn closed early).
early_close = Table(
    "early_close",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("enabled", Boolean(create_constraint=False), nullable=False),
    Column("keep_schedule", Boolean(create_constraint=False), nullable=False),
    Column("closed_turn", Integer, nullable=True),
    Column("scheduled_deadline", UtcDateTime(), nullable=True),
)

# Letters between players of one state and its allies.  to_kind: player |
# state | allies; to_value: the player id, the state, or the comma-separated
# states the letter went to (fixed when sent: a later alliance reads nothing old).
messages = Table(
    "messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("campaign", String(64), nullable=False),
    Column("turn", Integer, nullable=False),
    Column("sender", String(64), nullable=False),
    Column("sender_state", String(64), nullable=False),
    Column("to_kind", String(16), nullable=False),
    Column("to_value", String(400), nullable=False),
    Column("body", Text, nullable=False),
    _created(),
)
Index(None, messages.c.campaign, messages.c.turn, messages.c.sender)

# The game master's choices that players see the effect of (migration 0015): show_ready, every
# player sees who has confirmed the open turn; spectators_see_result (migration 0017), anyone
# reads the finished campaign's result.  No row: every choice off.
campaign_options = Table(
    "campaign_options",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("show_ready", Boolean(create_constraint=False), nullable=False),
    Column("spectators_see_result", Boolean(create_constraint=False), nullable=False, server_default=false()),
    # migration 0020: once finished, the campaign is in the public archive (docs/web.md, "Archive")
    Column("archive_public", Boolean(create_constraint=False), nullable=False, server_default=false()),
)

# What each player has read of the messages (migration 0015): the highest message id among those
# he could read when he last opened his messages; a later one to him is unread.
messages_read = Table(
    "messages_read",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("last_read", Integer, nullable=False),
)
