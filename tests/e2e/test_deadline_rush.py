"""A deadline rush through the real services: 100 logged-in
players submit at random moments of the last seconds before one deadline;
every submission is accepted and every accepted one is among the closed
turn's orders (none lost).  The 1,000-player figures: benchmarks/bench_rush.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.bench_rush import rush, setup
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client, serving

pytestmark = pytest.mark.e2e


@pytest.fixture
def client(tmp_path: Path, nats_url: str, database_url: str) -> Iterator[Client]:
    cluster = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    with serving(cluster) as c:
        yield c


@pytest.mark.slow
def test_a_hundred_players_in_the_last_seconds_none_lost(client: Client) -> None:
    seats = setup(client, 100)
    result = rush(client, seats, window=8.0)
    assert result.refused == []
    assert len(result.accepted) == 100
    assert result.accepted <= result.stored
