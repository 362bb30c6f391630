"""The bus as a real 3-node NATS JetStream cluster: the PATE stream at 3 replicas,
one node killed (SIGKILL) in the middle of turns and restarted later: every turn completes
once, no accepted order is lost, no event is published twice."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from benchmarks import turncheck
from pate.v1 import common_pb2
from services.platform import bus
from services.platform.bus.natscluster import NatsCluster
from services.platform.runtime.cluster import Cluster
from services.platform.store.db import make_engine
from tests.e2e.flow import Client

pytestmark = pytest.mark.e2e

ORDERS = {
    "cornwallis": [common_pb2.ShipOrder(ship_id="BR1FL", combat=common_pb2.Combat(stance="evade"))],
    "ganteaume": [common_pb2.ShipOrder(ship_id="FR1FL", combat=common_pb2.Combat(stance="evade"))],
}


async def stream_state(url: str, campaign: str) -> tuple[int, str, list[str]]:
    nc, js = await bus.connect(url, "test-cluster")
    try:
        info = await js.stream_info(bus.STREAM)
        ids = await turncheck.stream_msg_ids(js, campaign)
        return info.config.num_replicas, info.cluster.leader, ids
    finally:
        await nc.close()


def test_turns_survive_a_node_killed_and_restarted(tmp_path: Path, database_url: str) -> None:
    campaign = "e2e-nats-cluster"
    with NatsCluster(tmp_path / "nats", size=3) as nats:
        cluster = Cluster(
            workdir=tmp_path,
            nats_url=nats.url,
            database_url=database_url,
            extra_env={"PATE_STREAM_REPLICAS": "3", "PATE_ACK_WAIT_SECONDS": "5"},
        )
        try:
            cluster.start_all()
            client = Client(cluster)
            client.create(campaign)
            client.wait_open(campaign, 1)
            replicas, leader, _ = asyncio.run(stream_state(nats.url, campaign))
            assert replicas == 3
            victim = nats.index_of(leader)  # the stream leader: the hardest node to lose
            for turn in (1, 2, 3):
                for player, orders in ORDERS.items():
                    assert client.submit(campaign, turn, player, orders).accepted == 1
                client.close_turn(campaign, turn)
                if turn == 1:
                    time.sleep(0.1)  # the resolver has the turn: the leader dies under it
                    nats.kill(victim)
                elif turn == 2:
                    nats.start_node(victim)  # back in the middle of a turn: it catches up
                client.wait_open(campaign, turn + 1, timeout=120)
                if turn == 2:
                    nats.wait_healthy()
            client.close()
        finally:
            cluster.stop()
        replicas, _leader, ids = asyncio.run(stream_state(nats.url, campaign))

    assert turncheck.bus_problems(ids, campaign, (1, 2, 3)) == []
    engine = make_engine(database_url)
    try:
        for turn in (1, 2, 3):
            assert turncheck.turn_problems(engine, campaign, turn, ("BR1FL", "FR1FL")) == []
    finally:
        engine.dispose()
