"""The operator's runbooks as commands (docs/operations.md, "Runbooks"): the stream lost with
its NATS servers and rebuilt from the database by ``pate stream rebuild``, after which a
campaign that waited between two stages goes on; a set-aside outbox row listed and handed
back; old claims pruned, never younger than the stream's max age."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import insert, select, update

from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster, running_cluster
from services.platform.store.db import make_engine, migrate
from services.platform.store.tables import outbox, processed_messages, utcnow
from tests.e2e.flow import Client

pytestmark = pytest.mark.e2e


def pate(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pate.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _close_with_no_resolver(cluster: Cluster, campaign: str) -> None:
    """The turn closes while no resolver runs: the campaign waits in CLOSED, its event in the stream."""
    client = Client(cluster)
    try:
        client.create(campaign)
        client.wait_open(campaign, 1, timeout=60)
        for proc in cluster.procs.pop("resolver"):
            proc.kill()
            proc.wait()
        client.close_turn(campaign, 1)
    finally:
        client.close()


def test_a_stream_lost_with_its_servers_is_rebuilt_and_the_waiting_turn_goes_on(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pate.db'}"
    with (
        NatsServer(data_dir=tmp_path / "nats-lost") as lost,
        running_cluster(tmp_path / "before", lost.url, url) as cluster,
    ):
        _close_with_no_resolver(cluster, "restored")
    # the NATS servers and their disks are gone; new, empty ones take their place
    with NatsServer(data_dir=tmp_path / "nats-new") as fresh:
        env = {**Cluster(tmp_path / "cli", fresh.url, url).env}
        refused = pate(env, "stream", "rebuild")
        assert refused.returncode == 2 and "--yes" in refused.stderr
        stuck = pate(env, "turn", "stuck", "--older-than", "0")
        assert "restored turn 1 CLOSED" in stuck.stdout, stuck.stdout + stuck.stderr
        rebuilt = pate(env, "stream", "rebuild", "--yes")
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert "restored turn 1 CLOSED: its event queued again as restored:" in rebuilt.stdout
        with running_cluster(tmp_path / "after", fresh.url, url) as cluster:
            client = Client(cluster)
            try:
                opened = client.wait_open("restored", 2, timeout=90)
            finally:
                client.close()
        assert opened.turn == 2


def test_a_set_aside_row_is_listed_and_handed_back_and_old_claims_pruned(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pate.db'}"
    migrate(url)
    engine = make_engine(url)
    with engine.begin() as conn:
        row_id = conn.execute(
            insert(outbox)
            .values(
                subject="pate.bad subject",
                msg_id="c1:1:closed",
                payload=b"x",
                quarantined_at=utcnow(),
                error="invalid subject",
            )
            .returning(outbox.c.id)
        ).scalar_one()
        old, young = utcnow() - timedelta(days=120), utcnow() - timedelta(days=10)
        conn.execute(
            insert(processed_messages),
            [
                {"consumer": "resolver", "msg_id": "c1:1:closed", "processed_at": old},
                {"consumer": "resolver", "msg_id": "c1:2:closed", "processed_at": young},
            ],
        )
    env = {**Cluster(tmp_path, "nats://127.0.0.1:1", url).env}
    listed = pate(env, "outbox", "quarantined")
    assert (
        f"{row_id} " in listed.stdout and "invalid subject" in listed.stdout and "1 row(s)" in listed.stdout
    )
    assert pate(env, "outbox", "release", "999").returncode == 2
    released = pate(env, "outbox", "release", str(row_id))
    assert released.returncode == 0 and "handed back to the relay" in released.stdout, released.stderr
    with engine.connect() as conn:
        back = conn.execute(select(outbox.c.quarantined_at).where(outbox.c.id == row_id)).scalar_one()
    assert back is None
    assert "0 row(s)" in pate(env, "outbox", "quarantined").stdout
    too_soon = pate(env, "stream", "prune-claims", "--older-than-days", "30")
    assert too_soon.returncode == 2 and "at least 90" in too_soon.stderr
    pruned = pate(env, "stream", "prune-claims", "--older-than-days", "90")
    assert "1 claim(s) older than 90 days deleted" in pruned.stdout, pruned.stderr
    with engine.connect() as conn:
        left = conn.execute(select(processed_messages.c.msg_id)).scalars().all()
    assert left == ["c1:2:closed"]
    with engine.begin() as conn:  # a row published meanwhile is no longer set aside
        conn.execute(update(outbox).values(published_at=utcnow()))
    engine.dispose()
