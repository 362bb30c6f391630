"""Every rule case of the order desk runs twice: against the core validator
("core") and through the order service's own code on a real database
("desk"; PostgreSQL when PATE_TEST_DATABASE_URL is set)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from services.platform.store.db import make_engine, migrate
from tests.support import orders_world
from tests.support.desk_mode import DeskBackend
from tests.support.servers import fresh_schema


@pytest.fixture(scope="session")
def desk_engine(
    tmp_path_factory: pytest.TempPathFactory, postgres_session_url: str | None
) -> Iterator[Engine]:
    folder: Path = tmp_path_factory.mktemp("desk-cases")
    url = fresh_schema(postgres_session_url) if postgres_session_url else f"sqlite:///{folder}/pate.db"
    migrate(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()


@pytest.fixture(autouse=True, params=["core", "desk"])
def through(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "desk":
        backend = DeskBackend(request.getfixturevalue("desk_engine"))
        orders_world.DESK = backend.check
    try:
        yield request.param
    finally:
        orders_world.DESK = None
