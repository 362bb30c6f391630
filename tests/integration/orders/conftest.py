"""One running cluster per module for the order desk's integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client
from tests.support.servers import fresh_schema


@pytest.fixture(scope="module")
def desk_cluster(
    tmp_path_factory: pytest.TempPathFactory, nats_server: str, postgres_session_url: str | None
) -> Iterator[tuple[Client, str]]:
    """A client of four running services on a fresh database, and that database's URL."""
    workdir: Path = tmp_path_factory.mktemp("desk")
    url = fresh_schema(postgres_session_url) if postgres_session_url else f"sqlite:///{workdir}/pate.db"
    cluster = Cluster(workdir=workdir, nats_url=nats_server, database_url=url)
    cluster.start_all()
    client = Client(cluster)
    try:
        yield client, url
    finally:
        client.close()
        cluster.stop()
