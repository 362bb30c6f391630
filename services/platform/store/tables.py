"""The database schema as SQLAlchemy Core tables (no ORM classes).

Domain objects live in the pure core and are translated to rows by each
service; nothing here inherits from an ORM base.  The schema is portable
between SQLite and PostgreSQL: JSON is stored as text (canonical JSON chosen
by the writer, so its hash is stable), timestamps are timezone-aware UTC.  The
Alembic migrations build exactly these tables; a test compares them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
    func,
    text,
)
from sqlalchemy.types import TypeDecorator

CAMPAIGN_STATUSES = ("STARTING", "OPEN", "CLOSED", "RESOLVING", "RESOLVED", "REPORTED", "FINISHED")
REPORT_FORMATS = ("text", "html", "json")

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on both back ends (SQLite hands back naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column; use datetime.now(UTC)")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):  # a raw CURRENT_TIMESTAMP default read back by SQLite
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# autoincrementing 64-bit keys; SQLite only autoincrements INTEGER PRIMARY KEY
BigId = BigInteger().with_variant(Integer(), "sqlite")


def _created() -> Column[datetime]:
    return Column("created_at", UtcDateTime(), nullable=False, default=utcnow, server_default=func.now())


def _campaign(primary_key: bool = True) -> Column[str]:
    return Column("campaign", String(64), ForeignKey("campaigns.id"), primary_key=primary_key, nullable=False)


campaigns = Table(
    "campaigns",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("scenario", String(200), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("turns", Integer, nullable=False),
    Column("turn", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("deadline", UtcDateTime(), nullable=True),
    # seconds each later turn stays open, counted from its opening; 0 = no deadline
    Column("turn_seconds", Integer, nullable=False, server_default=text("0")),
    # the combat rule set it plays, "pate" | "eia-advanced" (= its world's combat_rules)
    Column("combat_rules", String(32), nullable=False, server_default=text("'pate'")),
    # the naval rule set it plays, "pate" | "eia-operations" (= its world's naval_rules)
    Column("naval_rules", String(32), nullable=False, server_default=text("'pate'")),
    Column("rules_version", String(64), nullable=True),  # created under (pate.rulesversion); NULL before 0010
    Column("gitm", Boolean, nullable=False, server_default=false()),  # with GITM, fixed at creation
    _created(),
    # optimistic locking: UPDATE ... WHERE version = :seen, then version + 1
    Column("version", Integer, nullable=False, server_default=text("0")),
    CheckConstraint(f"status IN ({', '.join(repr(s) for s in CAMPAIGN_STATUSES)})", name="status"),
)
Index(None, campaigns.c.status, campaigns.c.deadline)

# Full world state after each turn (turn 0 = the scenario's start): replay and audit.
world_states = Table(
    "world_states",
    metadata,
    _campaign(),
    Column("turn", Integer, primary_key=True),
    Column("state_json", Text, nullable=False),
    Column("sha256", String(64), nullable=False),
    _created(),
)

turn_events = Table(
    "turn_events",
    metadata,
    _campaign(),
    Column("turn", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("phase", String(32), nullable=False),
    Column("kind", String(64), nullable=False),
    Column("event_json", Text, nullable=False),
)

# The effective orders a turn was resolved with and the hash of its result: replay input.
resolutions = Table(
    "resolutions",
    metadata,
    _campaign(),
    Column("turn", Integer, primary_key=True),
    Column("orders_json", Text, nullable=False),
    Column("result_sha256", String(64), nullable=False),
    Column("resolved_at", UtcDateTime(), nullable=False, default=utcnow, server_default=func.now()),
    Column("rules_version", String(64), nullable=True),  # resolved under pate.rulesversion; NULL before 0010
)

players = Table(
    "players",
    metadata,
    _campaign(),
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("state", String(64), nullable=True),
    Column("roles_json", Text, nullable=False, server_default=text("'[]'")),
    Column("password_hash", String(255), nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    _campaign(primary_key=False),
    Column("turn", Integer, nullable=False),
    Column("ship_id", String(64), nullable=False),
    Column("author_player", String(64), nullable=False),
    Column("author_role", String(32), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("order_json", Text, nullable=False),
    Column("client_request_id", String(128), nullable=True),
    _created(),
)
Index(None, orders.c.campaign, orders.c.turn, orders.c.ship_id)
Index(None, orders.c.campaign, orders.c.turn, orders.c.seq)  # the next sequence number (0007)

# Rule 3.5: each naval minister's list of store moves; the latest list of a state counts.
stores_moves = Table(
    "stores_moves",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    _campaign(primary_key=False),
    Column("turn", Integer, nullable=False),
    Column("state", String(16), nullable=False),
    Column("author_player", String(64), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("moves_json", Text, nullable=False),
    _created(),
)
Index(None, stores_moves.c.campaign, stores_moves.c.turn, stores_moves.c.state)

# Responses to order submissions keyed by the client's request id: a retried call gets the same answer.
order_requests = Table(
    "order_requests",
    metadata,
    _campaign(),
    # keyed per player: one player's request id never replays another's answer
    Column("player", String(64), primary_key=True, server_default=text("''")),
    Column("client_request_id", String(128), primary_key=True),
    Column("response", LargeBinary, nullable=False),
    _created(),
)

# No foreign key: refused requests for unknown campaigns are audited too.
audit = Table(
    "audit",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("campaign", String(64), nullable=True),
    Column("turn", Integer, nullable=True),
    Column("player", String(64), nullable=True),
    Column("action", String(64), nullable=False),
    Column("accepted", Boolean(create_constraint=False), nullable=False),
    Column("detail_json", Text, nullable=False, server_default=text("'{}'")),
    _created(),
)
Index(None, audit.c.campaign, audit.c.turn)

knowledge = Table(
    "knowledge",
    metadata,
    _campaign(),
    Column("turn", Integer, primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("knowledge_json", Text, nullable=False),
)

reports = Table(
    "reports",
    metadata,
    _campaign(),
    Column("turn", Integer, primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("format", String(8), primary_key=True),
    Column("body", Text, nullable=False),
    CheckConstraint(f"format IN ({', '.join(repr(s) for s in REPORT_FORMATS)})", name="format"),
)

# Transactional outbox: rows written with the work, published to JetStream by OutboxRelay.
outbox = Table(
    "outbox",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("subject", String(255), nullable=False),
    Column("msg_id", String(255), nullable=False, unique=True),
    Column("payload", LargeBinary, nullable=False),
    Column("headers_json", Text, nullable=False, server_default=text("'{}'")),
    _created(),
    Column("published_at", UtcDateTime(), nullable=True),
    # a row NATS can never take (bad subject, too large): set aside with its error, never retried
    Column("quarantined_at", UtcDateTime(), nullable=True),
    Column("error", Text, nullable=True),
)
Index(
    "ix_outbox_unpublished",
    outbox.c.id,
    postgresql_where=outbox.c.published_at.is_(None),
    sqlite_where=outbox.c.published_at.is_(None),
)

# Idempotent consumers: one row per (durable consumer, Nats-Msg-Id), written with the work.
processed_messages = Table(
    "processed_messages",
    metadata,
    Column("consumer", String(128), primary_key=True),
    Column("msg_id", String(255), primary_key=True),
    Column("processed_at", UtcDateTime(), nullable=False, default=utcnow, server_default=func.now()),
)

# --- sessions and the login throttle (migration 0004; docs/security.md) ---

# A player's session: only the SHA-256 of the token is stored (the token has 256 random bits, so a
# fast hash is enough), bound to one campaign and player; read_only (0020): an API token's, reports only
sessions = Table(
    "sessions",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("campaign", String(64), nullable=False),
    Column("player", String(64), nullable=False),
    _created(),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("revoked_at", UtcDateTime(), nullable=True),
    Column("read_only", Boolean(create_constraint=False), nullable=False, server_default=false()),
)
Index(None, sessions.c.campaign, sessions.c.player)
Index(None, sessions.c.expires_at)

# Token buckets of password checks, shared by every replica: one row per (account, source) and one
# per account (source "*").  Keys are SHA-256 digests, so their size does not depend on the input;
# a row whose bucket is full again and whose source is not trusted says nothing and is pruned (idle_at).
login_throttle = Table(
    "login_throttle",
    metadata,
    Column("account", String(64), primary_key=True),
    Column("source", String(64), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Column("trusted_until", UtcDateTime(), nullable=True),
    Column("idle_at", UtcDateTime(), nullable=False),
)
Index(None, login_throttle.c.idle_at)

# --- notifications (migration 0005; docs/web.md) ---

# What each player wants to be told, and where: an email address (SMTP,
# PATE_SMTP_URL) and/or a webhook URL (a JSON POST; Discord and Slack accept it).
notify_prefs = Table(
    "notify_prefs",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("email", String(320), nullable=True),
    Column("webhook", String(500), nullable=True),
    Column("kinds", String(200), nullable=False),  # comma-separated: turn_opened,deadline,reports,campaign
    Column("updated_at", UtcDateTime(), nullable=False),
)

# One row per message to send: its key makes a redelivered event send nothing
# twice; the sender delivers pending rows apart from the turn's pipeline, so a
# failing mail server or webhook never holds up a turn.
notifications = Table(
    "notifications",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("key", String(120), primary_key=True),  # e.g. "turn_opened:3", "deadline:3"
    Column("channel", String(16), primary_key=True),  # email | webhook
    Column("target", String(500), nullable=False),
    Column("subject", String(200), nullable=False),
    Column("body", Text, nullable=False),
    Column("status", String(16), nullable=False),  # pending | sent | failed
    Column("attempts", Integer, nullable=False),
    Column("next_at", UtcDateTime(), nullable=False),
    _created(),
    Column("sent_at", UtcDateTime(), nullable=True),
)
Index(None, notifications.c.status, notifications.c.next_at)

# --- officers assigned by the naval minister (rule 2.3; migration 0005) ---

# Taken up when the turn is resolved: the world of the next turn has them.
assignments = Table(
    "assignments",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("ship_id", String(64), primary_key=True),
    Column("commander", String(64), nullable=True),
    Column("deputy", String(64), nullable=True),
    Column("minister", String(64), nullable=False),
    _created(),
)

# A campaign the game master paused: its open turn's deadline is
# taken away while paused, and the time that was left comes back on resume.
campaign_pauses = Table(
    "campaign_pauses",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("turn", Integer, nullable=False),
    Column("remaining_seconds", Integer, nullable=True),  # None: the turn had no deadline
    Column("paused_at", UtcDateTime(), nullable=False),
)

# --- bot admirals (migration 0008; docs/bots.md) ---

# A campaign's civil disorder rule: after this many deadlines missed in a row
# a player is played by the bot (0 = never).
bot_rules = Table(
    "bot_rules",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("civil_disorder_after", Integer, nullable=False),
    # a solo campaign: the turn closes as soon as every human has confirmed and the bot has played
    Column("solo", Boolean, nullable=False, server_default=false()),
)

# Each player's deadlines missed in a row, and whether the bot holds him now
# (reason "game_master", "civil_disorder" or "absent", from turn since_turn).
bot_players = Table(
    "bot_players",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("missed", Integer, nullable=False, server_default=text("0")),
    Column("reason", String(16), nullable=True),
    Column("since_turn", Integer, nullable=True),
)

# The order submissions the bot sent for a player (by the desk's request id):
# shown as the bot's, and not counted as the player's own when his deadlines
# are counted.
bot_orders = Table(
    "bot_orders",
    metadata,
    Column("campaign", String(64), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("client_request_id", String(128), primary_key=True),
    _created(),
)
