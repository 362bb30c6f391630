"""Notifications (each player's choices, the messages to send) and the officers
naval ministers assign (rule 2.3), and paused campaigns.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_prefs",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("webhook", sa.String(500), nullable=True),
        sa.Column("kinds", sa.String(200), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("campaign", "player", name="pk_notify_prefs"),
    )
    op.create_table(
        "notifications",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("target", sa.String(500), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("campaign", "player", "key", "channel", name="pk_notifications"),
    )
    op.create_index("ix_notifications_status_next_at", "notifications", ["status", "next_at"])
    op.create_table(
        "assignments",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("ship_id", sa.String(64), nullable=False),
        sa.Column("commander", sa.String(64), nullable=True),
        sa.Column("deputy", sa.String(64), nullable=True),
        sa.Column("minister", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.PrimaryKeyConstraint("campaign", "turn", "ship_id", name="pk_assignments"),
    )
    op.create_table(
        "campaign_pauses",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("remaining_seconds", sa.Integer, nullable=True),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("campaign", name="pk_campaign_pauses"),
    )


def downgrade() -> None:
    op.drop_table("campaign_pauses")
    op.drop_table("assignments")
    op.drop_index("ix_notifications_status_next_at", table_name="notifications")
    op.drop_table("notifications")
    op.drop_table("notify_prefs")
