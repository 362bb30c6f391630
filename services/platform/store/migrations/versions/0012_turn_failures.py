"""Failed turns are kept where the game master sees them.

``turn_failures`` holds, for a campaign whose turn could not be resolved
(the engine raised, or a stage's message became poison), the stage, a
bounded reason and the message given up on, so that the game master can
retry it.  ``turn_defaults`` names the players whose orders of a turn were
replaced by the defaults of rule 4.11 to get it resolved.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_failures",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(300), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("payload", sa.LargeBinary(), nullable=False),
        sa.Column("headers_json", sa.Text(), nullable=False),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("campaign", name="pk_turn_failures"),
    )
    op.create_table(
        "turn_defaults",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.PrimaryKeyConstraint("campaign", "turn", "player", name="pk_turn_defaults"),
    )


def downgrade() -> None:
    op.drop_table("turn_defaults")
    op.drop_table("turn_failures")
