"""gRPC over TLS: with the CA a client gets in; without
it, in plaintext, or (mutual TLS) without a client certificate it does not;
a plaintext port beyond loopback is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from pate.cli.tls import make_dev_certs, tls_env
from services.platform.bus.natsserver import free_port
from services.platform.config import ConfigError
from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.security.tls import TlsSettings, aio_channel, load_tls
from tests.support.aio import run

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_dev_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def other_ca(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_dev_certs(tmp_path_factory.mktemp("other"))


async def _health(addr: str, client: TlsSettings | None, insecure: bool = False) -> str:
    ch = grpc.aio.insecure_channel(addr) if insecure else aio_channel(addr, client)
    async with ch:
        try:
            resp = await health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=3)
        except grpc.aio.AioRpcError as err:
            return err.code().name
        return health_pb2.HealthCheckResponse.ServingStatus.Name(resp.status)


def _serve_and_ask(
    server_tls: TlsSettings, clients: dict[str, tuple[TlsSettings | None, bool]]
) -> dict[str, str]:
    async def scenario() -> dict[str, str]:
        server = await serve_grpc([], "127.0.0.1:0", "pate.tls-test", tls=server_tls)
        addr = f"localhost:{bound_port(server)}"
        try:
            return {name: await _health(addr, tls, insecure) for name, (tls, insecure) in clients.items()}
        finally:
            await server.stop(None)

    return run(scenario())


def test_server_tls_with_the_ca_works_without_it_is_refused(
    certs: dict[str, Path], other_ca: dict[str, Path]
) -> None:
    env = tls_env(certs, mutual=False)
    answers = _serve_and_ask(
        load_tls(env),
        {
            "with the CA": (load_tls({"PATE_TLS_CA": env["PATE_TLS_CA"]}), False),
            "plaintext": (None, True),
            "another CA": (load_tls({"PATE_TLS_CA": str(other_ca["ca.pem"])}), False),
        },
    )
    assert answers == {"with the CA": "SERVING", "plaintext": "UNAVAILABLE", "another CA": "UNAVAILABLE"}


def test_mutual_tls_requires_a_client_certificate_of_the_ca(
    certs: dict[str, Path], other_ca: dict[str, Path]
) -> None:
    env = tls_env(certs, mutual=True)
    only_ca = {"PATE_TLS_CA": env["PATE_TLS_CA"]}
    foreign = dict(
        only_ca,
        PATE_TLS_CLIENT_CERT=str(other_ca["client.pem"]),
        PATE_TLS_CLIENT_KEY=str(other_ca["client-key.pem"]),
    )
    answers = _serve_and_ask(
        load_tls(env),
        {
            "with a client certificate": (load_tls(env), False),
            "without one": (load_tls(only_ca), False),
            "with a foreign one": (load_tls(foreign), False),
        },
    )
    assert answers == {
        "with a client certificate": "SERVING",
        "without one": "UNAVAILABLE",
        "with a foreign one": "UNAVAILABLE",
    }


def test_a_plaintext_bind_beyond_loopback_is_refused() -> None:
    async def scenario() -> None:
        await serve_grpc([], f"0.0.0.0:{free_port()}", "pate.tls-test")

    with pytest.raises(ConfigError, match="non-loopback"):
        run(scenario())

    async def allowed() -> str:
        server = await serve_grpc([], "0.0.0.0:0", "pate.tls-test", tls=TlsSettings(allow_plaintext=True))
        try:
            return await _health(f"127.0.0.1:{bound_port(server)}", None, insecure=True)
        finally:
            await server.stop(None)

    assert run(allowed()) == "SERVING"


def test_a_service_refuses_to_start_in_plaintext_on_a_public_address(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "PATE_ORDERS_ADDR": f"0.0.0.0:{free_port()}",
        "PATE_DATABASE_URL": f"sqlite:///{tmp_path}/never.db",
        "PATE_NATS_URL": "nats://127.0.0.1:1",
    }
    run_ = subprocess.run(
        [sys.executable, "-m", "services.orders.main"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run_.returncode != 0
    assert "refusing to serve plaintext gRPC on a non-loopback address" in run_.stderr + run_.stdout
    assert not (tmp_path / "never.db").exists()  # refused before any work
