"""The tables of turns that could not be resolved (migration 0012; docs/operations.md, "A failed
turn"), on the schema's one ``metadata``: the store package imports this module, so every user of
``tables.metadata`` sees them."""

from __future__ import annotations

from sqlalchemy import Column, Integer, LargeBinary, String, Table, Text

from services.platform.store.tables import UtcDateTime, _created, metadata

# At most one a campaign: the stage that gave up, its bounded reason, and the message it
# gave up on, which a retry publishes again under a fresh id.  No foreign key: a poison
# message may name a campaign that does not exist, and is then only audited.
turn_failures = Table(
    "turn_failures",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("turn", Integer, nullable=False),
    Column("stage", String(64), nullable=False),
    Column("reason", String(300), nullable=False),
    Column("subject", String(200), nullable=False),
    Column("payload", LargeBinary, nullable=False),
    Column("headers_json", Text, nullable=False),
    Column("failed_at", UtcDateTime(), nullable=False),
)

# The players whose orders of a turn the game master replaced by the defaults of rule 4.11
# to get a failed turn resolved: the resolver leaves their orders and store moves out.
turn_defaults = Table(
    "turn_defaults",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("player", String(64), primary_key=True),
    _created(),
)
