"""nats-server takes a renewed certificate on SIGHUP and keeps its connections: what the
reloader sidecar of the NATS StatefulSet relies on (docs/operations.md, "Certificates and
their renewal")."""

from __future__ import annotations

import asyncio
import socket
import ssl
from pathlib import Path

import nats
import pytest
from cryptography import x509

from pate.cli.tls import make_dev_certs
from services.platform.bus.natsserver import NatsServer, free_port
from services.platform.security.certwatch import serial
from tests.support.aio import run
from tests.support.certs import MountedSecret, issue

pytestmark = pytest.mark.integration


def _served_serial(port: int, ca: bytes) -> int:
    """A new connection: NATS greets in plaintext (INFO), then the client starts TLS."""
    ctx = ssl.create_default_context(cadata=ca.decode())
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        greeting = raw.makefile("rb").readline()
        assert greeting.startswith(b"INFO ")
        with ctx.wrap_socket(raw, server_hostname="localhost") as conn:
            der = conn.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


def test_a_sighup_serves_the_renewed_certificate_and_keeps_the_connections(tmp_path: Path) -> None:
    make_dev_certs(tmp_path / "ca")
    ca = (tmp_path / "ca" / "ca.pem").read_bytes()
    secret = MountedSecret(tmp_path / "tls")
    first, renewed = issue(tmp_path / "ca", "pate-nats"), issue(tmp_path / "ca", "pate-nats")
    secret.publish(*first, ca)
    port = free_port()
    conf = (
        f"listen: 127.0.0.1:{port}\n"
        "tls {\n"
        f"  cert_file: {secret.path('tls.crt')}\n"
        f"  key_file: {secret.path('tls.key')}\n"
        f"  ca_file: {secret.path('ca.crt')}\n"
        "  timeout: 2\n"
        "}\n"
    )

    async def scenario(server: NatsServer) -> dict[str, object]:
        seen: dict[str, object] = {"before": await asyncio.to_thread(_served_serial, port, ca)}
        client_ctx = ssl.create_default_context(cadata=ca.decode())
        nc = await nats.connect(f"tls://localhost:{port}", tls=client_ctx, max_reconnect_attempts=0)
        try:
            sub = await nc.subscribe("renewal.test")
            secret.publish(*renewed, ca)
            await asyncio.to_thread(server.reload)
            seen["after"] = await asyncio.to_thread(_served_serial, port, ca)
            await nc.publish("renewal.test", b"still here")
            seen["message"] = (await sub.next_msg(timeout=5)).data
            seen["reconnects"] = nc.stats["reconnects"]
        finally:
            await nc.close()
        return seen

    with NatsServer(port=port, config=conf) as server:
        seen = run(scenario(server))
    assert seen["before"] == serial(first[0])
    assert seen["after"] == serial(renewed[0]) != serial(first[0])
    assert seen["message"] == b"still here" and seen["reconnects"] == 0
