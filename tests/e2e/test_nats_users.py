"""A turn through every stage with each service under its own NATS user, on a nats-server run
with the authorization block the Kubernetes configuration is made from
(services/platform/bus/permissions.py): the permissions are enough for the work, end to end."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from pate.v1 import common_pb2
from services.platform.bus.natsserver import NatsServer, free_port
from services.platform.bus.permissions import ADMIN_USER, SERVICE_DURABLES, USERS, authorization_block
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client, serving

pytestmark = pytest.mark.e2e


@pytest.fixture
def client(tmp_path: Path, database_url: str) -> Iterator[Client]:
    passwords = {user: secrets.token_hex(8) for user in USERS}
    port = free_port()
    conf = "\n".join(
        [
            f"listen: 127.0.0.1:{port}",
            f'jetstream {{ store_dir: "{tmp_path / "js"}" }}',
            authorization_block(lambda user: f'"{passwords[user]}"'),
        ]
    )

    def url(user: str) -> str:
        return f"nats://{user}:{passwords[user]}@127.0.0.1:{port}"

    with NatsServer(port=port, data_dir=tmp_path / "nats", config=conf):
        cluster = Cluster(
            workdir=tmp_path,
            nats_url=url(ADMIN_USER),  # the command-line tools, as the operator runs them
            database_url=database_url,
            notifier=True,
            nats_urls={service: url(service) for service in SERVICE_DURABLES},
        )
        with serving(cluster) as c:
            yield c


def test_a_turn_through_every_stage_each_service_under_its_own_user(client: Client) -> None:
    campaign = "e2e-nats-users"
    client.create(campaign)
    client.wait_open(campaign, 1)
    order = common_pb2.ShipOrder(ship_id="BR1FL", combat=common_pb2.Combat(stance="engage"))
    assert client.submit(campaign, 1, "cornwallis", [order]).accepted == 1
    client.close_turn(campaign, 1)
    client.wait_open(campaign, 2)
    assert "BR1FL" in json.dumps(json.loads(client.report(campaign, 1, "cornwallis").body))
    logs = "".join(p.read_text() for p in (client.cluster.workdir / "logs").glob("*.log"))
    assert "permissions violation" not in logs.lower()
