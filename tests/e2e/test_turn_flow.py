"""One whole turn through four real service processes, real NATS JetStream and
a real database: orders over gRPC, the turn closed, resolved, reported, and
the reports read back over gRPC."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from pate.engine.context import turn_context
from pate.engine.pipeline import reports_for
from pate.v1 import common_pb2
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

pytestmark = pytest.mark.e2e


@pytest.fixture
def cluster(tmp_path: Path, nats_url: str, database_url: str) -> Iterator[Cluster]:
    c = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    try:
        c.start_all()
        yield c
    finally:
        c.stop()


@pytest.fixture
def client(cluster: Cluster) -> Iterator[Client]:
    c = Client(cluster)
    yield c
    c.close()


def battle_orders() -> tuple[list[common_pb2.ShipOrder], list[common_pb2.ShipOrder]]:
    british = [
        common_pb2.ShipOrder(
            ship_id="BR1FL",
            combat=common_pb2.Combat(stance="engage", range="close", line="break", aim="hull"),
        )
    ]
    french = [
        common_pb2.ShipOrder(
            ship_id="FR1FL",
            movement=common_pb2.Movement(port="Brest", harbor=True),
            combat=common_pb2.Combat(stance="accept", range="range"),
        )
    ]
    return british, french


def test_a_turn_flows_through_the_four_services(client: Client, cluster: Cluster, tmp_path: Path) -> None:
    campaign = "e2e-flow"
    created = client.create(campaign)
    assert created.turn == 1
    client.wait_open(campaign, 1)

    # The first position report exists before any turn is played (rule 3.11).
    first = json.loads(client.report(campaign, 0, "cornwallis").body)
    assert "BR1FL" in json.dumps(first)

    british, french = battle_orders()
    assert client.submit(campaign, 1, "cornwallis", british).accepted == 1
    assert client.submit(campaign, 1, "ganteaume", french).accepted == 1
    client.close_turn(campaign, 1)
    client.wait_open(campaign, 2)

    text = client.report(campaign, 1, "cornwallis", "text").body
    html = client.report(campaign, 1, "cornwallis", "html").body
    assert "BR1FL" in text and "<svg" in html
    raw = client.report(campaign, 1, "cornwallis").body
    # Text and HTML are rendered on first request from the stored knowledge
    # alone, kept, and the same bytes on every later read.
    assert reports_for(turn_context(), raw) == {"json": raw, "text": text, "html": html}
    assert client.report(campaign, 1, "cornwallis", "text").body == text
    assert client.report(campaign, 1, "cornwallis", "html").body == html
    mine = json.loads(raw)
    own = json.dumps(mine)
    assert "BR1FL" in own
    # Cornwallis commands nothing in the Bay of Biscay: Calder's ships there are not his to see.
    assert "BR2FL" not in own

    # Access control: a commander may not read another player's report...
    with pytest.raises(grpc.RpcError) as refused:
        client.report(campaign, 1, "cornwallis", of="ganteaume")
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    # ...but the naval minister of his state may.
    assert client.report(campaign, 1, "barham", of="cornwallis").body

    # Orders after the turn closed are refused and change nothing.
    with pytest.raises(grpc.RpcError) as late:
        client.submit(campaign, 1, "cornwallis", british)
    assert late.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    # The stored turn replays byte for byte.
    replay = subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "turn", "replay", campaign, "1"],
        env=cluster.env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "identical" in replay.stdout


def test_bad_requests_get_precise_statuses(client: Client) -> None:
    with pytest.raises(grpc.RpcError) as unknown:
        client.campaign("no-such-campaign")
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
    assert "no-such-campaign" in (unknown.value.details() or "")

    campaign = "e2e-bad"
    client.create(campaign)
    client.wait_open(campaign, 1)
    with pytest.raises(grpc.RpcError) as wrong_password:
        client.login_reply(campaign, "cornwallis", password="nope")
    assert wrong_password.value.code() == grpc.StatusCode.UNAUTHENTICATED

    with pytest.raises(grpc.RpcError) as not_yours:
        client.submit(campaign, 1, "cornwallis", battle_orders()[1])
    assert not_yours.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "FR1FL" in (not_yours.value.details() or "")

    bad_enum = [common_pb2.ShipOrder(ship_id="BR1FL", combat=common_pb2.Combat(stance="charge"))]
    with pytest.raises(grpc.RpcError) as malformed:
        client.submit(campaign, 1, "cornwallis", bad_enum)
    assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "combat.stance" in (malformed.value.details() or "")

    with pytest.raises(grpc.RpcError) as wrong_turn:
        client.submit(campaign, 3, "cornwallis", battle_orders()[0])
    assert wrong_turn.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    # A retried request with the same client request id is harmless.
    first = client.submit(campaign, 1, "cornwallis", battle_orders()[0], request_id="r-1")
    again = client.submit(campaign, 1, "cornwallis", battle_orders()[0], request_id="r-1")
    assert (first.replayed, again.replayed) == (False, True)
