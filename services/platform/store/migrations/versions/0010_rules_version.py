"""The version of the rules and data: the one a campaign was created under, and the one each
turn was resolved under (``pate.rulesversion``).  Rows written before this revision (0010) have none
(NULL): a replay of such a turn says the version is not known.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("rules_version", sa.String(64), nullable=True))
    with op.batch_alter_table("resolutions") as batch:
        batch.add_column(sa.Column("rules_version", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("resolutions") as batch:
        batch.drop_column("rules_version")
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("rules_version")
