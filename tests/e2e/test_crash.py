"""A resolver killed with SIGKILL in the middle of a turn: the turn completes
exactly once when a worker runs again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from services.platform.store import tables
from services.platform.store.db import make_engine
from tests.e2e.flow import Client
from tests.e2e.test_turn_flow import battle_orders

pytestmark = pytest.mark.e2e


def _count(url: str, table: str, **where: object) -> int:
    t = tables.metadata.tables[table]
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            q = select(func.count()).select_from(t)
            for k, v in where.items():
                q = q.where(t.c[k] == v)
            return int(conn.execute(q).scalar_one())
    finally:
        engine.dispose()


def test_killed_resolver_completes_the_turn_once(tmp_path: Path, nats_url: str, database_url: str) -> None:
    cluster = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    client = None
    try:
        cluster.start_all()
        cluster.kill("resolver")
        # This resolver dies (SIGKILL) after computing the turn, before committing it.
        cluster.extra_env = {"PATE_FAULTS": "resolver.before_commit"}
        doomed = cluster.start("resolver")
        client = Client(cluster)
        campaign = "e2e-crash"
        client.create(campaign)
        client.wait_open(campaign, 1)
        british, _french = battle_orders()
        client.submit(campaign, 1, "cornwallis", british)
        client.close_turn(campaign, 1)
        doomed.wait(timeout=60)
        assert doomed.returncode == -9  # killed mid-turn, nothing committed
        assert _count(database_url, "world_states", campaign=campaign) == 1

        # Two healthy workers race for the redelivered message.
        cluster.procs.pop("resolver", None)
        cluster.extra_env = {}
        cluster.start("resolver")
        cluster.start("resolver")
        client.wait_open(campaign, 2, timeout=120)
        time.sleep(1)  # let any duplicate delivery land, if there were one
        assert _count(database_url, "world_states", campaign=campaign) == 2
        assert _count(database_url, "resolutions", campaign=campaign) == 1
        events = _count(database_url, "turn_events", campaign=campaign, turn=1)
        assert events > 0
        reports = _count(database_url, "reports", campaign=campaign, turn=1)
        players = _count(database_url, "players", campaign=campaign)
        # each player's structured report once; text and HTML are rendered when first read
        assert reports == players
        assert _count(database_url, "outbox") == len({r for r in _outbox_ids(database_url)})
    finally:
        if client is not None:
            client.close()
        cluster.stop()


def _outbox_ids(url: str) -> list[str]:
    t = tables.metadata.tables["outbox"]
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [r[0] for r in conn.execute(select(t.c.msg_id))]
    finally:
        engine.dispose()


def test_services_ride_out_a_nats_restart(tmp_path: Path, own_nats: NatsServer, database_url: str) -> None:
    """NATS restarted while the services run: they reconnect and nothing is lost."""
    cluster = Cluster(workdir=tmp_path, nats_url=own_nats.url, database_url=database_url)
    client = None
    try:
        cluster.start_all()
        client = Client(cluster)
        campaign = "e2e-nats"
        client.create(campaign)
        client.wait_open(campaign, 1)
        own_nats.restart()
        client.submit(campaign, 1, "cornwallis", battle_orders()[0])
        client.close_turn(campaign, 1)  # its event waits in the outbox until NATS answers
        client.wait_open(campaign, 2, timeout=120)
        assert _count(database_url, "reports", campaign=campaign, turn=1) > 0
    finally:
        if client is not None:
            client.close()
        cluster.stop()


def test_the_deadline_closes_the_turn(tmp_path: Path, nats_url: str, database_url: str) -> None:
    """An open turn whose deadline has passed is closed by the scheduler, not by a person."""
    from datetime import UTC, datetime, timedelta

    from pate.v1 import admin_pb2

    cluster = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    client = None
    try:
        cluster.start_all()
        client = Client(cluster)
        req = admin_pb2.CreateCampaignRequest(id="e2e-deadline", scenario="training", turn_seconds=3600)
        req.first_deadline.FromDatetime(datetime.now(UTC) + timedelta(seconds=3))
        client.admin.CreateCampaign(req, metadata=client.admin_md, timeout=60)
        opened = client.wait_open("e2e-deadline", 2, timeout=120)
        # the next turn got its own deadline, an hour from its opening
        assert opened.deadline.ToDatetime(tzinfo=UTC) > datetime.now(UTC) + timedelta(minutes=50)
    finally:
        if client is not None:
            client.close()
        cluster.stop()
