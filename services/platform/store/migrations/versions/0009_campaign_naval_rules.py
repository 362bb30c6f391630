"""Every campaign stores its naval rule set.

``campaigns.naval_rules`` says whether a campaign plays PATE's own orders and
movement ("pate") or the EiA new naval rules' fleet markers and operations
("eia-operations", docs/rules/eia-operations.md), so the admin replies and the
desks can show it without loading a world.  No world stored before this
revision plays the operations rules, so every earlier campaign is "pate".

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

DEFAULT = "pate"
WIDTH = 32


def upgrade() -> None:
    # a plain string default lets SQLite add the column in place (as 0006 does)
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("naval_rules", sa.String(WIDTH), nullable=False, server_default=DEFAULT))


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("naval_rules")
