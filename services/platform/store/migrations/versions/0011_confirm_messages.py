"""Confirmed orders, the early close of a turn, and messages between players.

``order_confirmations`` holds each player's "my orders are final" per turn;
``early_close`` the game master's choice to close a turn once every player
with ships has confirmed; ``messages`` the letters between players of one
state and its allies.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "order_confirmations",
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("confirmed_at", _TS, nullable=False),
    )
    op.create_table(
        "early_close",
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("enabled", sa.Boolean(create_constraint=False), nullable=False),
        sa.Column("keep_schedule", sa.Boolean(create_constraint=False), nullable=False),
        sa.Column("closed_turn", sa.Integer, nullable=True),
        sa.Column("scheduled_deadline", _TS, nullable=True),
    )
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("sender_state", sa.String(64), nullable=False),
        sa.Column("to_kind", sa.String(16), nullable=False),
        sa.Column("to_value", sa.String(400), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", _TS, nullable=False, server_default=sa.func.now()),
    )
    op.create_index("ix_messages_campaign_turn_sender", "messages", ["campaign", "turn", "sender"])


def downgrade() -> None:
    op.drop_index("ix_messages_campaign_turn_sender", table_name="messages")
    op.drop_table("messages")
    op.drop_table("early_close")
    op.drop_table("order_confirmations")
