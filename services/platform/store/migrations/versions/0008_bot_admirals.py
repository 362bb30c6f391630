"""Bot admirals: the civil disorder rule and the solo flag, the players the
bot holds, and the order submissions the bot sent (docs/bots.md).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_rules",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("civil_disorder_after", sa.Integer, nullable=False),
        # false(), not "0": PostgreSQL refuses an integer default for a boolean
        sa.Column("solo", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.PrimaryKeyConstraint("campaign", name="pk_bot_rules"),
    )
    op.create_table(
        "bot_players",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("missed", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("since_turn", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("campaign", "player", name="pk_bot_players"),
    )
    op.create_table(
        "bot_orders",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("client_request_id", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.PrimaryKeyConstraint("campaign", "turn", "player", "client_request_id", name="pk_bot_orders"),
    )


def downgrade() -> None:
    op.drop_table("bot_orders")
    op.drop_table("bot_players")
    op.drop_table("bot_rules")
