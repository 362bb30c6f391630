"""Store moves of the naval ministers (rule 3.5).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "stores_moves",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("author_player", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("moves_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.ForeignKeyConstraint(["campaign"], ["campaigns.id"], name="fk_stores_moves_campaign_campaigns"),
        sa.PrimaryKeyConstraint("id", name="pk_stores_moves"),
    )
    op.create_index("ix_stores_moves_campaign_turn_state", "stores_moves", ["campaign", "turn", "state"])


def downgrade() -> None:
    op.drop_index("ix_stores_moves_campaign_turn_state", table_name="stores_moves")
    op.drop_table("stores_moves")
