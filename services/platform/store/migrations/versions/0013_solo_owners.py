"""Who made each solo campaign a plain player created from the web desk.

``solo_owners`` names, for a solo campaign made by a player (not by the
server administrator), the player it was made for, as the campaign and
player id of the session that asked (the first one: a solo campaign made
from a session in another solo campaign keeps that one's owner), and when:
the orders service counts them against the limits of docs/security.md.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "solo_owners",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("owner_campaign", sa.String(64), nullable=False),
        sa.Column("owner_player", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("campaign", name="pk_solo_owners"),
    )
    op.create_index("ix_solo_owners_owner", "solo_owners", ["owner_campaign", "owner_player"])


def downgrade() -> None:
    op.drop_index("ix_solo_owners_owner", table_name="solo_owners")
    op.drop_table("solo_owners")
