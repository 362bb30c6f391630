"""API tokens of accounts, read-only seat sessions, email changes and the public archive.

``api_tokens``: a player's tokens for his own programs (docs/api.md), only the SHA-256 of the
secret kept; ``account_seat_sessions.api_token``: the token that opened a seat session, so
that revoking the token ends it; ``sessions.read_only``: a session opened by a read-only token
(the reports service takes it, the order desk refuses it); ``account_tokens.detail``: the new
address an email change's link confirms; ``campaign_options.archive_public``: a finished
campaign is in the public archive (docs/web.md, "The archive"). No existing row changes
meaning: every new flag is off.

Revision ID: 0020_api_tokens
Revises: 0017
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_api_tokens"
down_revision = "0019_absence"
branch_labels = None
depends_on = None


def _flag(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.Boolean(create_constraint=False), nullable=False, server_default=sa.false())


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        _flag("read_only"),
        _flag("all_seats"),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_tokens_account", "api_tokens", ["account"])
    with op.batch_alter_table("account_seat_sessions") as batch:
        batch.add_column(sa.Column("api_token", sa.String(16), nullable=True))
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(_flag("read_only"))
    with op.batch_alter_table("account_tokens") as batch:
        batch.add_column(sa.Column("detail", sa.String(254), nullable=True))
    with op.batch_alter_table("campaign_options") as batch:
        batch.add_column(_flag("archive_public"))


def downgrade() -> None:
    with op.batch_alter_table("campaign_options") as batch:
        batch.drop_column("archive_public")
    with op.batch_alter_table("account_tokens") as batch:
        batch.drop_column("detail")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("read_only")
    with op.batch_alter_table("account_seat_sessions") as batch:
        batch.drop_column("api_token")
    op.drop_index("ix_api_tokens_account", table_name="api_tokens")
    op.drop_table("api_tokens")
