"""Every campaign stores its combat rule set.

``campaigns.combat_rules`` says which rules a campaign plays ("pate" or
"eia-advanced"), so the admin replies and the desks can show it without
loading a world.  Campaigns created before this revision take it from the
stored world of their first turn, or "pate" (the default rule set) when
they have none or it does not say.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

DEFAULT = "pate"
WIDTH = 32


def upgrade() -> None:
    # A plain string default lets SQLite add the column in place: recreating
    # campaigns would break the foreign keys of every table that names it.
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("combat_rules", sa.String(WIDTH), nullable=False, server_default=DEFAULT))
    _backfill(op.get_bind())


def _backfill(conn: sa.Connection) -> None:
    worlds = sa.table("world_states", sa.column("campaign"), sa.column("turn"), sa.column("state_json"))
    campaigns = sa.table("campaigns", sa.column("id"), sa.column("combat_rules"))
    first = (
        sa.select(worlds.c.campaign, sa.func.min(worlds.c.turn).label("turn"))
        .group_by(worlds.c.campaign)
        .subquery()
    )
    # One world at a time: a long campaign's worlds need not all fit in memory.
    for campaign, turn in conn.execute(sa.select(first.c.campaign, first.c.turn)).all():
        text = conn.execute(
            sa.select(worlds.c.state_json).where(worlds.c.campaign == campaign, worlds.c.turn == turn)
        ).scalar_one()
        rules = _rules_of(text)
        if rules != DEFAULT:
            conn.execute(sa.update(campaigns).where(campaigns.c.id == campaign).values(combat_rules=rules))


def _rules_of(state_json: str) -> str:
    try:
        rules = json.loads(state_json).get("combat_rules")
    except (ValueError, AttributeError):
        return DEFAULT
    return rules[:WIDTH] if isinstance(rules, str) and rules else DEFAULT


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("combat_rules")
