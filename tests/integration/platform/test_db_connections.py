"""Each process's PostgreSQL connections carry its name (pg_stat_activity shows which service
holds them) and its own pool sizes."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from services.platform.config import load_settings
from services.platform.runtime.database import service_engine
from services.platform.store.pooling import DEFAULTS, pool_for

pytestmark = pytest.mark.integration


def test_the_connections_of_a_process_are_named_after_it(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only: SQLite has no server to show its clients")
    engine = service_engine(database_url, "resolver", load_settings({}))
    try:
        with engine.connect() as conn:
            pid = conn.scalar(sa.text("SELECT pg_backend_pid()"))
            with engine.connect() as other:  # seen from another connection, as an operator would
                name = other.scalar(
                    sa.text("SELECT application_name FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
                )
        assert name == "pate-resolver"
        assert (engine.pool.size(), engine.pool._max_overflow) == (2, 2)  # type: ignore[attr-defined]
    finally:
        engine.dispose()


def test_the_pool_sizes_follow_the_settings(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only")
    settings = load_settings({"PATE_DB_POOL_SIZE": "7", "PATE_DB_MAX_OVERFLOW": "1"})
    engine = service_engine(database_url, "orders", settings)
    try:
        assert (engine.pool.size(), engine.pool._max_overflow) == (7, 1)  # type: ignore[attr-defined]
    finally:
        engine.dispose()
    assert pool_for("orders") == DEFAULTS["orders"]
    assert pool_for("pate-tool", overflow=0).overflow == 0


@pytest.mark.parametrize(("setting", "prepared"), [("1", True), ("0", False)])
def test_psycopg_prepares_nothing_when_told_so(database_url: str, setting: str, prepared: bool) -> None:
    """Behind PgBouncer in transaction mode (PATE_DB_PREPARED_STATEMENTS=0) a statement run
    often is still sent whole: no prepared statement is left on the server connection."""
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only")
    engine = service_engine(database_url, "orders", load_settings({"PATE_DB_PREPARED_STATEMENTS": setting}))
    try:
        with engine.connect() as conn:
            for n in range(8):  # psycopg prepares at the 6th run by default
                conn.execute(sa.text("SELECT :n + 1"), {"n": n})
            left = conn.scalar(sa.text("SELECT count(*) FROM pg_prepared_statements"))
        assert (left > 0) is prepared
    finally:
        engine.dispose()
