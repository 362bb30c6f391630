"""The four services with mutual TLS: a turn is played over
TLS end to end; a client without the CA, in plaintext or without a client
certificate is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from pate.cli.tls import make_dev_certs, tls_env
from pate.v1 import admin_pb2, common_pb2, sessions_pb2, sessions_pb2_grpc
from services.platform.runtime.cluster import Cluster
from services.platform.security.tls import channel, load_tls
from tests.e2e.flow import Client, serving

pytestmark = pytest.mark.e2e


@pytest.fixture
def certs(tmp_path: Path) -> dict[str, Path]:
    return make_dev_certs(tmp_path / "certs")


@pytest.fixture
def client(tmp_path: Path, nats_url: str, database_url: str, certs: dict[str, Path]) -> Iterator[Client]:
    cluster = Cluster(
        workdir=tmp_path, nats_url=nats_url, database_url=database_url, extra_env=tls_env(certs)
    )
    with serving(cluster) as c:
        yield c


def _login_code(ch: grpc.Channel) -> str:
    req = sessions_pb2.LoginRequest(campaign_id="e2e-tls", player_id="cornwallis", password="whatever-it-is")
    try:
        sessions_pb2_grpc.SessionsStub(ch).Login(req, timeout=5)
    except grpc.RpcError as err:
        return str(err.code().name)
    return "OK"


def test_a_turn_over_mutual_tls_and_refusals_without_the_ca_or_a_certificate(
    client: Client, certs: dict[str, Path]
) -> None:
    campaign = "e2e-tls"
    client.create(campaign)
    client.wait_open(campaign, 1)
    order = common_pb2.ShipOrder(ship_id="BR1FL", combat=common_pb2.Combat(stance="engage"))
    assert client.submit(campaign, 1, "cornwallis", [order]).accepted == 1
    client.close_turn(campaign, 1)
    client.wait_open(campaign, 2)
    assert "BR1FL" in json.dumps(json.loads(client.report(campaign, 1, "cornwallis").body))

    addr = client.cluster.orders_addr
    env = tls_env(certs)
    with grpc.insecure_channel(addr) as plain:
        assert _login_code(plain) == "UNAVAILABLE"
    with channel(addr, load_tls({"PATE_TLS_CA": env["PATE_TLS_CA"]})) as no_cert:
        assert _login_code(no_cert) == "UNAVAILABLE"
    with grpc.secure_channel(addr, grpc.ssl_channel_credentials()) as system_roots:
        assert _login_code(system_roots) == "UNAVAILABLE"  # the dev CA is nobody's root
    with client.cluster.channel(addr) as good:
        assert _login_code(good) == "UNAUTHENTICATED"  # TLS passed; the password is wrong
    status = client.admin.GetCampaign(
        admin_pb2.GetCampaignRequest(campaign_id=campaign), metadata=client.admin_md
    )
    assert status.turn == 2


def _pate(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pate.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_command_line_verifies_the_server_with_pate_tls_ca(client: Client) -> None:
    """`pate health` (the Kubernetes exec probe) and every player command dial through PATE_TLS_CA."""
    addr = client.cluster.orders_addr
    env = client.cluster.env
    ok = _pate(["health", addr], env)
    assert ok.returncode == 0 and "SERVING" in ok.stdout, ok.stdout + ok.stderr
    plain = {k: v for k, v in env.items() if not k.startswith("PATE_TLS_")}
    refused = _pate(["health", addr], plain)
    assert refused.returncode == 1 and "UNAVAILABLE" in refused.stdout
