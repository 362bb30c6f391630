"""Initial schema: campaigns, turn history, players, orders, reports, outbox, processed messages.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _created() -> sa.Column[object]:
    return sa.Column("created_at", TS, nullable=False, server_default=sa.func.now())


def _campaign(primary_key: bool = True) -> sa.Column[object]:
    return sa.Column("campaign", sa.String(64), nullable=False, primary_key=primary_key)


def _fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["campaign"], ["campaigns.id"], name=f"fk_{table}_campaign_campaigns")


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("scenario", sa.String(200), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("deadline", TS, nullable=True),
        sa.Column("turn_seconds", sa.Integer, nullable=False, server_default=sa.text("0")),
        _created(),
        sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.CheckConstraint(
            "status IN ('STARTING', 'OPEN', 'CLOSED', 'RESOLVING', 'RESOLVED', 'REPORTED', 'FINISHED')",
            name=op.f("ck_campaigns_status"),
        ),
        sa.PrimaryKeyConstraint("id", name="pk_campaigns"),
    )
    op.create_index("ix_campaigns_status_deadline", "campaigns", ["status", "deadline"])

    op.create_table(
        "world_states",
        _campaign(),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("state_json", sa.Text, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        _created(),
        _fk("world_states"),
        sa.PrimaryKeyConstraint("campaign", "turn", name="pk_world_states"),
    )
    op.create_table(
        "turn_events",
        _campaign(),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("phase", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("event_json", sa.Text, nullable=False),
        _fk("turn_events"),
        sa.PrimaryKeyConstraint("campaign", "turn", "seq", name="pk_turn_events"),
    )
    op.create_table(
        "resolutions",
        _campaign(),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("orders_json", sa.Text, nullable=False),
        sa.Column("result_sha256", sa.String(64), nullable=False),
        sa.Column("resolved_at", TS, nullable=False, server_default=sa.func.now()),
        _fk("resolutions"),
        sa.PrimaryKeyConstraint("campaign", "turn", name="pk_resolutions"),
    )
    op.create_table(
        "players",
        _campaign(),
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("state", sa.String(64), nullable=True),
        sa.Column("roles_json", sa.Text, nullable=False, server_default=sa.text("'[]'")),
        sa.Column("password_hash", sa.String(255), nullable=False),
        _fk("players"),
        sa.PrimaryKeyConstraint("campaign", "id", name="pk_players"),
    )
    op.create_table(
        "orders",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        _campaign(primary_key=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("ship_id", sa.String(64), nullable=False),
        sa.Column("author_player", sa.String(64), nullable=False),
        sa.Column("author_role", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("order_json", sa.Text, nullable=False),
        sa.Column("client_request_id", sa.String(128), nullable=True),
        _created(),
        _fk("orders"),
        sa.PrimaryKeyConstraint("id", name="pk_orders"),
    )
    op.create_index("ix_orders_campaign_turn_ship_id", "orders", ["campaign", "turn", "ship_id"])
    op.create_table(
        "order_requests",
        _campaign(),
        sa.Column("client_request_id", sa.String(128), primary_key=True),
        sa.Column("response", sa.LargeBinary, nullable=False),
        _created(),
        _fk("order_requests"),
        sa.PrimaryKeyConstraint("campaign", "client_request_id", name="pk_order_requests"),
    )
    op.create_table(
        "audit",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("campaign", sa.String(64), nullable=True),
        sa.Column("turn", sa.Integer, nullable=True),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("accepted", sa.Boolean(create_constraint=False), nullable=False),
        sa.Column("detail_json", sa.Text, nullable=False, server_default=sa.text("'{}'")),
        _created(),
        sa.PrimaryKeyConstraint("id", name="pk_audit"),
    )
    op.create_index("ix_audit_campaign_turn", "audit", ["campaign", "turn"])
    op.create_table(
        "knowledge",
        _campaign(),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("knowledge_json", sa.Text, nullable=False),
        _fk("knowledge"),
        sa.PrimaryKeyConstraint("campaign", "turn", "player", name="pk_knowledge"),
    )
    op.create_table(
        "reports",
        _campaign(),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("format", sa.String(8), primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.CheckConstraint("format IN ('text', 'html', 'json')", name=op.f("ck_reports_format")),
        _fk("reports"),
        sa.PrimaryKeyConstraint("campaign", "turn", "player", "format", name="pk_reports"),
    )
    op.create_table(
        "outbox",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("msg_id", sa.String(255), nullable=False),
        sa.Column("payload", sa.LargeBinary, nullable=False),
        sa.Column("headers_json", sa.Text, nullable=False, server_default=sa.text("'{}'")),
        _created(),
        sa.Column("published_at", TS, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_outbox"),
        sa.UniqueConstraint("msg_id", name="uq_outbox_msg_id"),
    )
    op.create_index(
        "ix_outbox_unpublished",
        "outbox",
        ["id"],
        postgresql_where=sa.text("published_at IS NULL"),
        sqlite_where=sa.text("published_at IS NULL"),
    )
    op.create_table(
        "processed_messages",
        sa.Column("consumer", sa.String(128), primary_key=True),
        sa.Column("msg_id", sa.String(255), primary_key=True),
        sa.Column("processed_at", TS, nullable=False, server_default=sa.func.now()),
        sa.PrimaryKeyConstraint("consumer", "msg_id", name="pk_processed_messages"),
    )


def downgrade() -> None:
    for table in (
        "processed_messages",
        "outbox",
        "reports",
        "knowledge",
        "audit",
        "order_requests",
        "orders",
        "players",
        "resolutions",
        "turn_events",
        "world_states",
        "campaigns",
    ):
        op.drop_table(table)
