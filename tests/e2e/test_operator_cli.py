"""The game master's and the operator's commands against a running cluster: pause, resume,
deadline, password and revoke through the same RPCs as the web pages; a waiting campaign
found by ``pate turn stuck`` and its last event queued again by the one retry,
``pate campaign retry`` (the RetryTurn RPC of the running orders service)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from services.platform.runtime.cluster import Cluster, running_cluster
from services.platform.store import repository as repo
from services.platform.store.db import make_engine
from tests.e2e.flow import Client

pytestmark = pytest.mark.e2e


def pate(cluster: Cluster, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**cluster.env, "PATE_ORDERS_ADDR": cluster.orders_addr}
    return subprocess.run(
        [sys.executable, "-m", "pate.cli.main", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_game_master_commands_and_a_lost_event_retried(tmp_path: Path, nats_url: str) -> None:
    with running_cluster(tmp_path, nats_url, f"sqlite:///{tmp_path / 'pate.db'}") as cluster:
        client = Client(cluster)
        try:
            client.create("gm-cli")
            client.wait_open("gm-cli", 1, timeout=60)
            deadline = pate(cluster, "campaign", "deadline", "gm-cli", "--turn", "1", "2099-01-01T12:00:00Z")
            assert "turn 1 closes at 2099-01-01 12:00:00 UTC" in deadline.stdout, deadline.stderr
            paused = pate(cluster, "campaign", "pause", "gm-cli")
            assert "gm-cli: paused" in paused.stdout and "of the deadline left" in paused.stdout, (
                paused.stderr
            )
            for words in (("campaign", "show", "gm-cli"), ("campaign", "list")):
                shown = pate(cluster, *words)
                assert '"paused": true' in shown.stdout, shown.stdout + shown.stderr
            resumed = pate(cluster, "campaign", "resume", "gm-cli")
            assert "gm-cli: running" in resumed.stdout, resumed.stderr
            assert '"paused"' not in pate(cluster, "campaign", "show", "gm-cli").stdout
            password = pate(
                cluster, "campaign", "password", "gm-cli", "cornwallis", "--stdin", stdin="n3w-s3cret!\n"
            )
            assert "password of cornwallis set" in password.stdout, password.stderr
            revoked = pate(cluster, "campaign", "revoke", "gm-cli", "cornwallis")
            assert "session(s) of cornwallis ended" in revoked.stdout, revoked.stderr
            bad = pate(cluster, "campaign", "deadline", "gm-cli", "--turn", "1", "tomorrow")
            assert bad.returncode == 2 and "not an ISO 8601 time" in bad.stderr
        finally:
            client.close()


def test_stuck_lists_a_waiting_campaign_and_retry_queues_its_event(tmp_path: Path, nats_url: str) -> None:
    """A campaign left CLOSED with no worker acting on it is listed, and its last event is
    written to the outbox again under a new message id, which the relay publishes."""
    url = f"sqlite:///{tmp_path / 'pate.db'}"
    with running_cluster(tmp_path, nats_url, url) as cluster:
        client = Client(cluster)
        try:
            client.create("lost-one")
            client.wait_open("lost-one", 1, timeout=60)
            engine = make_engine(url)
            with engine.begin() as conn:  # the turn's closing, as if its event had been lost on the bus
                repo.set_status(conn, "lost-one", turn=1, expect=("OPEN",), status="CLOSED")
            stuck = pate(cluster, "turn", "stuck", "--older-than", "0")
            assert "lost-one turn 1 CLOSED: waiting since" in stuck.stdout, stuck.stdout + stuck.stderr
            early = pate(cluster, "campaign", "retry", "lost-one", "--turn", "2")
            assert early.returncode != 0 and "FAILED_PRECONDITION: turn: turn 2" in early.stderr
            retried = pate(cluster, "campaign", "retry", "lost-one", "--turn", "1")
            assert retried.returncode == 0 and '"status": "TURN_STATUS_CLOSED"' in retried.stdout, (
                retried.stderr
            )
            with engine.connect() as conn:
                copies = retried_rows(conn, "lost-one")
            assert len(copies) == 1 and copies[0].endswith(":retry-1"), copies
            poison = pate(cluster, "turn", "poison")
            assert "0 poison message(s)" in poison.stdout, poison.stderr
            engine.dispose()
        finally:
            client.close()


def retried_rows(conn, campaign: str) -> list[str]:  # type: ignore[no-untyped-def]
    from sqlalchemy import select

    from services.platform.store.tables import outbox

    rows = conn.execute(select(outbox.c.msg_id).where(outbox.c.msg_id.like(f"{campaign}:%:retry-%")))
    return [r.msg_id for r in rows]
