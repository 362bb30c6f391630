"""Absences and standing instructions (docs/bots.md "Absence", docs/formats/standing.md).

``absence_rules``: the game master's allowance of absent turns per player of a campaign (no
row: the default, 3). ``absences``: each absence a player declared, turns from_turn to to_turn.
``standing_instructions``: a player's conditional orders to the bot, as he wrote them.

Revision ID: 0019_absence
Revises: 0017
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_absence"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "absence_rules",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("allowance", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("campaign", name="pk_absence_rules"),
    )
    op.create_table(
        "absences",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("from_turn", sa.Integer(), nullable=False),
        sa.Column("to_turn", sa.Integer(), nullable=False),
        sa.Column("declared_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("campaign", "player", "from_turn", name="pk_absences"),
    )
    op.create_table(
        "standing_instructions",
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("campaign", "player", name="pk_standing_instructions"),
    )


def downgrade() -> None:
    op.drop_table("standing_instructions")
    op.drop_table("absences")
    op.drop_table("absence_rules")
