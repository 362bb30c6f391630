"""Player sessions and the shared login throttle.

Revision ID: 0004
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("token_sha256", name="pk_sessions"),
    )
    op.create_index("ix_sessions_campaign_player", "sessions", ["campaign", "player"])
    op.create_index("ix_sessions_expires_at", "sessions", ["expires_at"])
    op.create_table(
        "login_throttle",
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("trusted_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("idle_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("account", "source", name="pk_login_throttle"),
    )
    op.create_index("ix_login_throttle_idle_at", "login_throttle", ["idle_at"])


def downgrade() -> None:
    op.drop_index("ix_login_throttle_idle_at", table_name="login_throttle")
    op.drop_table("login_throttle")
    op.drop_index("ix_sessions_expires_at", table_name="sessions")
    op.drop_index("ix_sessions_campaign_player", table_name="sessions")
    op.drop_table("sessions")
