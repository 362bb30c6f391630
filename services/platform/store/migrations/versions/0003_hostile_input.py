"""Hostile input: quarantined outbox rows, request ids keyed by player.

An outbox row that can never be published (a subject NATS refuses, a payload
over the server's limit) is marked quarantined with its error instead of
blocking every later row.  Client request ids are remembered per
(campaign, player): one player's id never replays another player's answer.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("quarantined_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("error", sa.Text, nullable=True))
    with op.batch_alter_table("order_requests", recreate="always") as batch:
        batch.add_column(sa.Column("player", sa.String(64), nullable=False, server_default=sa.text("''")))
        batch.drop_constraint("pk_order_requests", type_="primary")
        batch.create_primary_key("pk_order_requests", ["campaign", "player", "client_request_id"])
    # Requests stored before this revision: their player is the author of their orders.
    op.execute(
        "UPDATE order_requests SET player = COALESCE((SELECT MIN(o.author_player) FROM orders o "
        "WHERE o.campaign = order_requests.campaign "
        "AND o.client_request_id = order_requests.client_request_id), '')"
    )


def downgrade() -> None:
    with op.batch_alter_table("order_requests", recreate="always") as batch:
        batch.drop_constraint("pk_order_requests", type_="primary")
        batch.drop_column("player")
        batch.create_primary_key("pk_order_requests", ["campaign", "client_request_id"])
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("error")
        batch.drop_column("quarantined_at")
