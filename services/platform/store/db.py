"""Engines and migrations for SQLite (the default) and PostgreSQL.

SQLite is shared by several service processes, so every transaction opened
with ``engine.begin()`` / ``engine.connect()`` starts ``BEGIN IMMEDIATE``:
it takes the single write lock up front and waits for it (busy timeout 30 s)
instead of failing with SQLITE_BUSY when a reader later tries to write.  Pure
reads may use ``reader(engine)`` which starts a deferred transaction and does
not hold up writers.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_TIMEOUT_S = 30
SQLITE_BEGIN_OPTION = "pate_sqlite_begin"
# Any constant shared by all PATE processes: serialises concurrent start-up migrations on PostgreSQL.
_PG_MIGRATION_LOCK = 0x5A7E_0001


def normalize_url(url: str) -> str:
    """Select the psycopg 3 driver for plain ``postgresql://`` URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(engine: Engine | Connection) -> bool:
    return engine.dialect.name == "sqlite"


# A pooled connection idle this long is pinged before use (one round trip), so one that a database
# restart or a proxy's idle timeout broke is replaced before the work, not found out by it.  A
# connection handed back moments ago is not: pinging at every checkout cost a round trip per
# transaction (about 2% of a worker stage's CPU in a profile of training turns), and a connection
# that broke since is still found out by its work, whose failure the stage retries (an outage).
PING_IDLE_S = 1.0
_LAST_CHECKIN = "pate_last_checkin"


def _note_checkin(_dbapi_conn: Any, record: Any) -> None:
    record.info[_LAST_CHECKIN] = time.monotonic()


def _ping_if_idle(engine: Engine, dbapi_conn: Any, record: Any, _proxy: Any) -> None:
    last = record.info.get(_LAST_CHECKIN)
    if last is not None and time.monotonic() - last < PING_IDLE_S:
        return
    try:
        engine.dialect.do_ping(dbapi_conn)
    except Exception as exc:  # the pool throws this connection away and takes another
        raise DisconnectionError(f"pooled connection failed its ping: {type(exc).__name__}") from exc


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None  # the driver must not issue its own BEGIN; _sqlite_begin does
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # WAL + NORMAL: a crashed process never corrupts or half-commits; a power cut may lose the last commits.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_S * 1000}")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    mode = conn.get_execution_options().get(SQLITE_BEGIN_OPTION, "IMMEDIATE")
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(
    url: str,
    *,
    application_name: str | None = None,
    pool_size: int | None = None,
    max_overflow: int | None = None,
    prepared_statements: bool = True,
    **kwargs: Any,
) -> Engine:
    """An engine for ``url``; SQLite files get their folder created.  On PostgreSQL the
    connections carry ``application_name`` and the pool has the sizes given
    (services/platform/store/pooling.py); SQLite ignores them.  ``prepared_statements=False``
    stops psycopg preparing a statement run often (behind PgBouncer in transaction mode)."""
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        connect_args = dict(kwargs.pop("connect_args", {}))
        if application_name:
            connect_args.setdefault("application_name", application_name)
        if not prepared_statements:
            connect_args["prepare_threshold"] = None
        if connect_args:
            kwargs["connect_args"] = connect_args
        if pool_size is not None:
            kwargs["pool_size"] = pool_size
        if max_overflow is not None:
            kwargs["max_overflow"] = max_overflow
        engine = create_engine(url, **kwargs)
        if not kwargs.get("pool_pre_ping"):
            event.listen(engine, "connect", _note_checkin)  # a new connection needs no ping
            event.listen(engine, "checkin", _note_checkin)
            event.listen(engine, "checkout", partial(_ping_if_idle, engine))
        # Many rows in one INSERT ... VALUES (...), (...) rather than one statement per row
        # through the driver's pipeline: about a third of the time for a group of orders.
        engine.dialect.use_insertmanyvalues_wo_returning = True
        return engine
    database = parsed.database or ""
    in_memory = database in ("", ":memory:") or database.startswith("file::memory:")
    connect_args = {"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_S}
    connect_args.update(kwargs.pop("connect_args", {}))
    if in_memory:
        kwargs.setdefault("poolclass", StaticPool)
    else:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args=connect_args, **kwargs)
    event.listen(engine, "connect", _sqlite_pragmas)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


@contextmanager
def reader(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction; on SQLite it does not take the write lock."""
    with engine.connect() as conn:
        conn.execution_options(**{SQLITE_BEGIN_OPTION: "DEFERRED"})
        with conn.begin():
            yield conn


def alembic_config() -> Config:
    """Alembic configured in code: works from any working directory, no alembic.ini needed."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("version_path_separator", "os")
    return cfg


_REVISION_LINE = re.compile(r'^(down_revision|revision)\s*(?::[^=]*)?=\s*"?([\w]+)"?', re.MULTILINE)


def head_revision() -> str | None:
    """The newest migration, read from the files' ``revision`` and ``down_revision`` lines
    without Alembic (a third of a service's start-up imports on a loaded machine);
    None when they do not make one line of revisions (Alembic then decides)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        found = dict(_REVISION_LINE.findall(path.read_text(encoding="utf-8")))
        if "revision" not in found:
            return None
        revisions.add(found["revision"])
        if found.get("down_revision", "None") != "None":
            parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def schema_is_current(engine: Engine) -> bool:
    """Whether the database is at the newest migration already: one query, no Alembic."""
    head = head_revision()
    if head is None:
        return False
    try:
        with reader(engine) as conn:
            found = [r[0] for r in conn.execute(text("SELECT version_num FROM alembic_version"))]
    except SQLAlchemyError:  # no alembic_version table yet: a new database
        return False
    return found == [head]


def migrate(target: str | Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision``; safe when several processes start at once.
    A database at the newest migration is left alone without loading Alembic."""
    engine = make_engine(target) if isinstance(target, str) else target
    if revision == "head" and schema_is_current(engine):
        if isinstance(target, str):
            engine.dispose()
        return
    from alembic import command

    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    finally:
        if isinstance(target, str):
            engine.dispose()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with reader(engine) as conn:
        rev: str | None = MigrationContext.configure(conn).get_current_revision()
        return rev
