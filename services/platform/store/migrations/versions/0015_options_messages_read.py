"""The game master's campaign options, and what each player has read of his messages.

``campaign_options`` holds the choices players see the effect of (``show_ready``: every player
sees who has confirmed the open turn, off when there is no row); ``messages_read`` the highest
message id each player could read when he last opened his messages, so that the desk counts
the messages that reached him since (docs/web.md, "Messages").  Messages sent before this
revision count as read: nobody is greeted by a campaign's whole history as news.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaign_options",
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("show_ready", sa.Boolean(create_constraint=False), nullable=False),
    )
    op.create_table(
        "messages_read",
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("last_read", sa.Integer, nullable=False),
    )
    op.execute(
        "INSERT INTO messages_read (campaign, player, last_read)"
        " SELECT p.campaign, p.id, MAX(m.id) FROM players p JOIN messages m ON m.campaign = p.campaign"
        " GROUP BY p.campaign, p.id"
    )


def downgrade() -> None:
    op.drop_table("messages_read")
    op.drop_table("campaign_options")
