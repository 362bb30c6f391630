"""A pooled PostgreSQL connection is pinged only after it sat idle: one a restart broke is
replaced before the work, and one handed back a moment ago costs no round trip."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from services.platform.store import db
from services.platform.store.db import make_engine

pytestmark = pytest.mark.integration


def _pings(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    real = engine.dialect.do_ping

    def counted(dbapi_conn: object) -> bool:
        seen.append(dbapi_conn)
        return bool(real(dbapi_conn))

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return seen


def test_a_connection_used_a_moment_ago_is_not_pinged(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL's pool only: SQLite has no server to lose")
    engine = make_engine(database_url)
    try:
        pings = _pings(engine, monkeypatch)
        for _ in range(5):
            with engine.begin() as conn:
                assert conn.scalar(sa.text("SELECT 1")) == 1
        assert pings == []  # new, then handed back within PING_IDLE_S each time
        monkeypatch.setattr(db, "PING_IDLE_S", 0.0)
        with engine.begin() as conn:
            conn.scalar(sa.text("SELECT 1"))
        assert len(pings) == 1
    finally:
        engine.dispose()


def test_an_idle_connection_the_server_dropped_is_replaced_before_the_work(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL's pool only: SQLite has no server to lose")
    engine = make_engine(database_url, pool_size=1, max_overflow=0)
    try:
        with engine.begin() as conn:
            pid = conn.scalar(sa.text("SELECT pg_backend_pid()"))
        killer = make_engine(database_url, poolclass=sa.pool.NullPool)
        with killer.begin() as conn:
            assert conn.scalar(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        killer.dispose()
        monkeypatch.setattr(db, "PING_IDLE_S", 0.0)  # as if it had sat idle past the limit
        with engine.begin() as conn:  # the ping fails, the pool connects anew, the work goes on
            assert conn.scalar(sa.text("SELECT pg_backend_pid()")) != pid
    finally:
        engine.dispose()
