"""Alembic environment: runs on the connection handed over by ``db.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from services.platform.store.db import make_engine
from services.platform.store.tables import metadata


def _run(conn: Connection) -> None:
    context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    conn = context.config.attributes.get("connection")
    if conn is not None:
        _run(conn)
        return
    # command-line use: `alembic -c services/platform/store/alembic.ini ...` (URL from that file)
    url = context.config.get_main_option("sqlalchemy.url") or ""
    with make_engine(url).begin() as new_conn:
        _run(new_conn)


if context.is_offline_mode():
    raise SystemExit("offline (SQL script) migrations are not supported; run db.migrate(url)")
run_online()
