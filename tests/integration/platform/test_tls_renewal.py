"""A renewed certificate is taken without a restart (docs/security.md, "Renewal").

The certificates live in folders laid out as Kubernetes mounts a Secret, and are renewed as
cert-manager and the kubelet renew them: new files behind a swapped ``..data`` symlink.  A new
connection to the server sees the renewed server certificate while a call already open on the
old one goes on; a client whose own certificate was renewed dials again and presents the new
one (the server requires client certificates); the expiry gauge shows the new not-after."""

from __future__ import annotations

import asyncio
import socket
import ssl
from pathlib import Path
from typing import Any

import grpc
import pytest
from cryptography import x509
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY

from pate.cli.tls import make_dev_certs
from services.platform.runtime.grpcutil import bound_port, serve_grpc, set_serving
from services.platform.security.certwatch import not_after, serial
from services.platform.security.redial import AioChannels, RotatingChannel
from services.platform.security.tls import load_tls
from tests.support.aio import run
from tests.support.certs import MountedSecret, issue

pytestmark = pytest.mark.integration

PEER = "/test.Peer/ClientSerial"


def _client_serial(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    """The serial of the certificate the caller presented, as the server saw it."""
    (pem,) = context.auth_context()["x509_pem_cert"]
    return str(serial(pem)).encode()


def _add_peer(_servicer: Any, server: Any) -> None:
    handler = grpc.unary_unary_rpc_method_handler(_client_serial)
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler("test.Peer", {"ClientSerial": handler})]
    )


def _server_serial(port: int, ca: bytes, client: dict[str, str]) -> int:
    """The serial of the certificate the server presents to a new TLS connection."""
    ctx = ssl.create_default_context(cadata=ca.decode())
    ctx.load_cert_chain(client["PATE_TLS_CLIENT_CERT"], client["PATE_TLS_CLIENT_KEY"])
    ctx.set_alpn_protocols(["h2"])
    with (
        socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
        ctx.wrap_socket(raw, server_hostname="localhost") as conn,
    ):
        der = conn.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


@pytest.fixture
def mounts(tmp_path: Path) -> dict[str, Any]:
    make_dev_certs(tmp_path / "ca")
    ca_dir = tmp_path / "ca"
    ca = (ca_dir / "ca.pem").read_bytes()
    server, client = MountedSecret(tmp_path / "server"), MountedSecret(tmp_path / "client")
    server.publish(*issue(ca_dir, "pate-orders", days=30), ca)
    client.publish(*issue(ca_dir, "pate-admiral", client=True, days=30), ca)
    return {"ca_dir": ca_dir, "ca": ca, "server": server, "client": client}


def _envs(m: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    server, client = m["server"], m["client"]
    serving = {
        "PATE_TLS_CERT": server.path("tls.crt"),
        "PATE_TLS_KEY": server.path("tls.key"),
        "PATE_TLS_CLIENT_CA": server.path("ca.crt"),
    }
    dialling = {
        "PATE_TLS_CA": client.path("ca.crt"),
        "PATE_TLS_CLIENT_CERT": client.path("tls.crt"),
        "PATE_TLS_CLIENT_KEY": client.path("tls.key"),
    }
    return serving, dialling


async def _renew_under_an_open_call(
    server: grpc.aio.Server, ca: bytes, dialling: dict[str, str], renew: Any
) -> dict[str, Any]:
    """Serials seen by new connections before and after ``renew``, and what a channel and a
    stream opened before it get afterwards."""
    port = bound_port(server)
    seen: dict[str, Any] = {"before": await asyncio.to_thread(_server_serial, port, ca, dialling)}
    creds = grpc.ssl_channel_credentials(ca, *_client_pair(dialling))
    async with grpc.aio.secure_channel(f"localhost:{port}", creds) as old:
        watch = health_pb2_grpc.HealthStub(old).Watch(health_pb2.HealthCheckRequest())
        seen["open call"] = [(await watch.read()).status]
        renew()
        seen["after"] = await asyncio.to_thread(_server_serial, port, ca, dialling)
        check = await health_pb2_grpc.HealthStub(old).Check(health_pb2.HealthCheckRequest(), timeout=5)
        seen["old channel"] = check.status
        await set_serving(server, False)  # the call opened before the renewal hears of it
        seen["open call"].append((await watch.read()).status)
    return seen


def test_a_new_connection_sees_the_renewed_server_certificate_and_an_open_call_goes_on(
    mounts: dict[str, Any],
) -> None:
    serving, dialling = _envs(mounts)
    ca, server_files = mounts["ca"], mounts["server"]
    renewed = issue(mounts["ca_dir"], "pate-orders", days=60)

    async def scenario() -> dict[str, Any]:
        server = await serve_grpc([], "127.0.0.1:0", "pate.renewal-test", tls=load_tls(serving))
        try:
            return await _renew_under_an_open_call(
                server, ca, dialling, lambda: server_files.publish(*renewed, ca)
            )
        finally:
            await server.stop(None)

    seen = run(scenario())
    first = serial((mounts["server"].root / "..v1" / "tls.crt").read_bytes())
    assert seen["before"] == first
    assert seen["after"] == serial(renewed[0]) != first
    serving_, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
    assert seen["old channel"] == serving_
    assert seen["open call"] == [serving_, not_serving]
    expiry = REGISTRY.get_sample_value(
        "pate_tls_certificate_expiry_timestamp_seconds", {"file": serving["PATE_TLS_CERT"]}
    )
    assert expiry == not_after(renewed[0])


def _client_pair(env: dict[str, str]) -> tuple[bytes, bytes]:
    return Path(env["PATE_TLS_CLIENT_KEY"]).read_bytes(), Path(env["PATE_TLS_CLIENT_CERT"]).read_bytes()


def test_a_client_whose_certificate_was_renewed_dials_again_and_presents_the_new_one(
    mounts: dict[str, Any],
) -> None:
    serving, dialling = _envs(mounts)
    ca, client_files = mounts["ca"], mounts["client"]
    renewed = issue(mounts["ca_dir"], "pate-admiral", client=True, days=60)

    async def scenario() -> dict[str, Any]:
        server = await serve_grpc(
            [(None, _add_peer)], "127.0.0.1:0", "pate.renewal-test", tls=load_tls(serving)
        )
        channel = RotatingChannel(f"localhost:{bound_port(server)}", load_tls(dialling), every=0)
        try:
            ask = channel.unary_unary(PEER)
            seen: dict[str, Any] = {"before": int(await asyncio.to_thread(ask, b"", timeout=5))}
            # a stream (wrapped in a plain generator when a test before has turned tracing on)
            watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(), timeout=30)
            seen["open call"] = [(await asyncio.to_thread(next, watch)).status]
            client_files.publish(*renewed, ca)
            seen["after"] = int(await asyncio.to_thread(ask, b"", timeout=5))
            seen["generation"] = channel.generation
            await set_serving(server, False)  # the stream opened on the first channel is still served
            seen["open call"].append((await asyncio.to_thread(next, watch)).status)
        finally:
            channel.close()  # every channel it dialled: the stream ends with them
            await server.stop(None)
        return seen

    seen = run(scenario())
    first = serial((mounts["client"].root / "..v1" / "tls.crt").read_bytes())
    assert seen["before"] == first
    assert seen["after"] == serial(renewed[0]) != first
    assert seen["generation"] == 1
    serving_, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
    assert seen["open call"] == [serving_, not_serving]
    expiry = REGISTRY.get_sample_value(
        "pate_tls_certificate_expiry_timestamp_seconds", {"file": dialling["PATE_TLS_CLIENT_CERT"]}
    )
    assert expiry == not_after(renewed[0])


def test_the_web_desks_asyncio_channels_follow_a_renewed_client_certificate(mounts: dict[str, Any]) -> None:
    serving, dialling = _envs(mounts)
    ca, client_files = mounts["ca"], mounts["client"]
    renewed = issue(mounts["ca_dir"], "pate-web", client=True, days=60)

    async def scenario() -> dict[str, Any]:
        server = await serve_grpc(
            [(None, _add_peer)], "127.0.0.1:0", "pate.renewal-test", tls=load_tls(serving)
        )
        channels = AioChannels(f"localhost:{bound_port(server)}", load_tls(dialling), every=0)
        try:
            first = channels.current()
            seen: dict[str, Any] = {"before": int(await first.unary_unary(PEER)(b"", timeout=5))}
            watch = health_pb2_grpc.HealthStub(first).Watch(health_pb2.HealthCheckRequest())
            seen["open call"] = [(await watch.read()).status]
            seen["unchanged"] = channels.current() is first
            client_files.publish(*renewed, ca)
            second = channels.current()
            seen["after"] = int(await second.unary_unary(PEER)(b"", timeout=5))
            seen["redialled"] = second is not first
            await set_serving(server, False)  # the old channel closes only after its calls
            seen["open call"].append((await watch.read()).status)
        finally:
            await channels.close()
            await server.stop(None)
        return seen

    seen = run(scenario())
    assert seen["before"] == serial((mounts["client"].root / "..v1" / "tls.crt").read_bytes())
    assert seen["after"] == serial(renewed[0]) != seen["before"]
    assert seen["unchanged"] and seen["redialled"]
    serving_, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
    assert seen["open call"] == [serving_, not_serving]


def test_a_renewed_client_ca_bundle_admits_the_new_cas_clients(
    mounts: dict[str, Any], tmp_path: Path
) -> None:
    """Moving to a new CA: the servers' ca.crt becomes both CAs, and a client whose certificate the
    new CA signed gets in at its next connection, without the server restarting."""
    serving, _dialling = _envs(mounts)
    ca, server_files = mounts["ca"], mounts["server"]
    make_dev_certs(tmp_path / "new-ca")
    new_ca_dir = tmp_path / "new-ca"
    client_cert, client_key = issue(new_ca_dir, "pate-admiral", client=True)
    current = (
        (server_files.root / "..data" / "tls.crt").read_bytes(),
        (server_files.root / "..data" / "tls.key").read_bytes(),
    )

    async def ask(port: int) -> str:
        creds = grpc.ssl_channel_credentials(ca, client_key, client_cert)
        async with grpc.aio.secure_channel(f"localhost:{port}", creds) as ch:
            try:
                await health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5)
            except grpc.aio.AioRpcError as err:
                return str(err.code().name)
            return "OK"

    async def scenario() -> tuple[str, str]:
        server = await serve_grpc([], "127.0.0.1:0", "pate.renewal-test", tls=load_tls(serving))
        try:
            before = await ask(bound_port(server))
            server_files.publish(*current, ca + (new_ca_dir / "ca.pem").read_bytes())
            return before, await ask(bound_port(server))
        finally:
            await server.stop(None)

    assert run(scenario()) == ("UNAVAILABLE", "OK")
