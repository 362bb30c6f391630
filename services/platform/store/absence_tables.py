"""Absences and standing instructions (migration 0019; docs/bots.md "Absence"), on the
schema's one ``metadata``: the store package imports this module."""

from __future__ import annotations

from sqlalchemy import Column, Integer, String, Table, Text

from services.platform.store.tables import UtcDateTime, metadata

# The game master's allowance of absent turns for each player of a campaign (none: the default).
absence_rules = Table(
    "absence_rules",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("allowance", Integer, nullable=False),
)

# Each absence a player declared: the turns from_turn to to_turn, both played by the bot.
absences = Table(
    "absences",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("from_turn", Integer, primary_key=True),
    Column("to_turn", Integer, nullable=False),
    Column("declared_at", UtcDateTime(), nullable=False),
)

# A player's standing instructions to the bot (docs/formats/standing.md), as he wrote them.
standing_instructions = Table(
    "standing_instructions",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("text", Text, nullable=False),
    Column("set_at", UtcDateTime(), nullable=False),
)
