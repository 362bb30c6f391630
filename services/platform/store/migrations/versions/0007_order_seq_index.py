"""An index for the next order sequence number of a turn.

The order desk asks ``max(seq)`` of a campaign's turn under the campaign's
lock for every group of submissions it stores; without this index the
answer scanned every order of the turn, so a deadline rush slowed as the
turn filled.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NAME = "ix_orders_campaign_turn_seq"


def upgrade() -> None:
    op.create_index(NAME, "orders", ["campaign", "turn", "seq"])


def downgrade() -> None:
    op.drop_index(NAME, table_name="orders")
