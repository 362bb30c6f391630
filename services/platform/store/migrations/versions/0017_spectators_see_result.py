"""The game master's choice that spectators read a finished campaign's result.

``campaign_options.spectators_see_result``: anyone not a player of the campaign may read its
final account and result once it is finished (docs/web.md, "The result of a campaign"). Off
for every campaign that has options already: a result is shown to spectators only when the
game master says so.

Revision ID: 0017
Revises: 0015
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaign_options") as batch:
        batch.add_column(
            sa.Column(
                "spectators_see_result",
                sa.Boolean(create_constraint=False),
                nullable=False,
                server_default=sa.false(),
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("campaign_options") as batch:
        batch.drop_column("spectators_see_result")
