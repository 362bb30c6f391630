"""Accounts that span campaigns: the person, the links mailed to him, his sessions and the seats
he claimed (docs/accounts.md).  No existing row changes: campaigns without accounts keep their
seat logins.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def _created() -> sa.Column:  # type: ignore[type-arg]
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now())


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("display_name", sa.String(100), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("time_zone", sa.String(64), nullable=True),
        sa.Column("verified_at", sa.DateTime(timezone=True), nullable=True),
        _created(),
        sa.UniqueConstraint("email", name="uq_accounts_email"),
    )
    op.create_table(
        "account_tokens",
        sa.Column("token_sha256", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(32), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        _created(),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_account_tokens_account", "account_tokens", ["account"])
    op.create_table(
        "account_sessions",
        sa.Column("token_sha256", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(32), nullable=False),
        _created(),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account"])
    op.create_table(
        "account_seat_sessions",
        sa.Column("token_sha256", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(32), nullable=False),
    )
    op.create_index("ix_account_seat_sessions_account", "account_seat_sessions", ["account"])
    op.create_table(
        "account_seats",
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(32), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_seats_account", "account_seats", ["account"])


def downgrade() -> None:
    for table in ("account_seats", "account_seat_sessions", "account_sessions", "account_tokens"):
        op.drop_index(f"ix_{table}_account", table_name=table)
        op.drop_table(table)
    op.drop_table("accounts")
