"""A campaign under the EiA operations rules through the real stack (NATS,
the services, a bot in every seat declaring the operations the desk offers):
each turn resolves, every player's report arrives and tells his fleets'
declarations, and the stored turn replays byte for byte.  The fifteen-turn
run is the benchmark ``python -m benchmarks ops_campaign``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client
from tests.e2e.ops_flow import play

pytestmark = pytest.mark.e2e
TURNS = 2


@pytest.fixture
def cluster(tmp_path: Path, nats_url: str, database_url: str) -> Iterator[Cluster]:
    c = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    try:
        c.start_all()
        c.wait_serving()
        yield c
    finally:
        c.stop()


def test_grand1805_under_operations_plays_turns_with_bots_in_every_seat(cluster: Cluster) -> None:
    client = Client(cluster)
    try:
        turns = play(client, "e2e-ops", TURNS)
    finally:
        client.close()
    assert [t.turn for t in turns] == list(range(1, TURNS + 1))
    for t in turns:
        assert t.orders > 20 and t.players > 5, t  # the bots declared for many fleets of many states
        assert t.reports >= 28, t  # every player's report of the turn arrived
        assert t.revealed >= t.orders, t  # each declaration told at least to its own side
        assert t.events.get("treasury", 0) > 0, t  # the ministers read their accounts
    replay = subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "turn", "replay", "e2e-ops", str(TURNS)],
        env=cluster.env,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "identical" in replay.stdout
