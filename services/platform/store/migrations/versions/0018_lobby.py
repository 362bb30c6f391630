"""The lobby and the reliability record (docs/lobby.md): published campaigns, the seats they
offer, the asks for seats, and per account the turns due and the campaigns left.  No existing
row changes.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "lobby_listings",
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("time_zone", sa.String(64), nullable=False),
        sa.Column("seat_policy", sa.String(16), nullable=False),
        sa.Column("min_reliability", sa.Integer(), nullable=False),
        sa.Column("start", sa.String(16), nullable=False),
        _when("published_at"),
        _when("started_at", nullable=True),
    )
    op.create_table(
        "lobby_seats",
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        _when("opened_at"),
        sa.Column("account", sa.String(32), nullable=True),
        _when("taken_at", nullable=True),
        sa.Column("reports_from", sa.Integer(), nullable=True),
        sa.Column("plays_from", sa.Integer(), nullable=True),
        sa.UniqueConstraint("campaign", "account", name="uq_lobby_seats_campaign_account"),
    )
    op.create_table(
        "lobby_asks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("campaign", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("account", sa.String(32), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        _when("asked_at"),
        _when("decided_at", nullable=True),
        sa.UniqueConstraint("campaign", "account", name="uq_lobby_asks_campaign_account"),
    )
    op.create_index("ix_lobby_asks_campaign", "lobby_asks", ["campaign"])
    op.create_table(
        "reliability_turns",
        sa.Column("account", sa.String(32), primary_key=True),
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("turn", sa.Integer(), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("sent", sa.Boolean(create_constraint=False), nullable=False),
    )
    op.create_table(
        "reliability_left",
        sa.Column("account", sa.String(32), primary_key=True),
        sa.Column("campaign", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        _when("left_at"),
    )


def downgrade() -> None:
    op.drop_table("reliability_left")
    op.drop_table("reliability_turns")
    op.drop_index("ix_lobby_asks_campaign", table_name="lobby_asks")
    for table in ("lobby_asks", "lobby_seats", "lobby_listings"):
        op.drop_table(table)
