"""Whether each campaign is played with the GITM land side.

``campaigns.gitm`` is set when the campaign is created, from whether the
creating process has ``PATE_GITM_ADDR`` (docs/gitm.md, "Campaigns with and
without GITM"), and never changes after: only such a campaign is opened in
GITM, asks it for its ports' units and has its turns sent to it.

Campaigns that exist before this revision are naval only (``false``) whoever
runs the migration: a migration's result must not depend on the environment of
the process that happens to run it (a Kubernetes Job, an operator's shell, a
service's start).  A deployment that played them with GITM says so once with
``pate db gitm --all`` (or names them) after upgrading (docs/operations.md).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (SQLite takes one with a constant default): a batch would copy and drop
    # campaigns, which SQLite refuses while other tables' rows refer to it
    op.add_column("campaigns", sa.Column("gitm", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("gitm")
