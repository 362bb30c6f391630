"""The solo campaigns plain players made from the web desk (migration 0013; docs/security.md,
"Solo campaigns"), on the schema's one ``metadata``: the store package imports this module."""

from __future__ import annotations

from sqlalchemy import Column, Index, String, Table

from services.platform.store.tables import UtcDateTime, metadata

# For whom each was made (the campaign and player of the session that asked, or that one's own
# owner when he asked from a solo campaign of his) and when: the limits count these rows.
solo_owners = Table(
    "solo_owners",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("owner_campaign", String(64), nullable=False),
    Column("owner_player", String(64), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)
Index("ix_solo_owners_owner", solo_owners.c.owner_campaign, solo_owners.c.owner_player)
