"""The real stack for the web desk's tests: nats-server, the four services and
the web process (services.common.cluster), with one training campaign open."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pate.datafiles import load_scenario
from services.common.cluster import Cluster
from tests.e2e.flow import Client


@dataclass
class Stack:
    cluster: Cluster
    client: Client
    campaign: str
    passwords: dict[str, str]

    @property
    def url(self) -> str:
        return self.cluster.web_url


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, nats_server: str) -> Iterator[Stack]:
    workdir: Path = tmp_path_factory.mktemp("web")
    cluster = Cluster(
        workdir=workdir,
        nats_url=nats_server,
        database_url=f"sqlite:///{workdir}/pate.db",
        web=True,
        extra_env={"PATE_WEB_SECRET": "test-secret-" + uuid.uuid4().hex},
    )
    cluster.start_all()
    client = Client(cluster)
    campaign = f"web-{uuid.uuid4().hex[:8]}"
    try:
        passwords = {p: f"{p}-pw-1805" for p in load_scenario("training").world.players}
        client.create(campaign, passwords=passwords)
        client.wait_open(campaign, 1)
        yield Stack(cluster, client, campaign, passwords)
    finally:
        client.close()
        cluster.stop()
