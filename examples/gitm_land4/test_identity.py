"""Mutual TLS: PATE is known by its certificate's URI SAN, never by its CN (L23, "Security")."""

from __future__ import annotations

import datetime
import ipaddress
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from examples.gitm_land4 import contract, server
from examples.gitm_land4.store import Store
from gitm.v1 import land_pb2 as pb
from gitm.v1 import land_pb2_grpc as pb_grpc

TOKEN = "identity-token-0123456789"
PATE_URI = "spiffe://pate/resolver"
Pair = tuple[bytes, bytes]  # key, certificate (PEM)


def _issue(
    subject: str, issuer: tuple[ec.EllipticCurvePrivateKey, x509.Name] | None,
    sans: list[x509.GeneralName],
) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:  # fmt: skip
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    signer, issuer_name = issuer if issuer else (key, name)
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=issuer is None, path_length=None), critical=True)
    )
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    return key, builder.sign(signer, hashes.SHA256())


def _pem(key: ec.EllipticCurvePrivateKey, cert: x509.Certificate) -> Pair:
    return (
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        cert.public_bytes(serialization.Encoding.PEM),
    )


@pytest.fixture
def tls(tmp_path: Path) -> Iterator[tuple[int, bytes, Pair, Pair]]:
    ca_key, ca = _issue("Test CA", None, [])
    issuer = (ca_key, ca.subject)
    local: list[x509.GeneralName] = [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    land = _pem(*_issue("land", issuer, local))
    pate = _pem(*_issue("pate-resolver", issuer, [x509.UniformResourceIdentifier(PATE_URI)]))
    other = _pem(*_issue("pate-resolver", issuer, [x509.UniformResourceIdentifier("spiffe://x")]))
    ca_pem = ca.public_bytes(serialization.Encoding.PEM)
    credentials = grpc.ssl_server_credentials([land], root_certificates=ca_pem, require_client_auth=True)
    store = Store(tmp_path / "land.db")
    grpc_server, port = server.build(
        "127.0.0.1:0", store, contract.load(), [TOKEN], credentials, client_uri=PATE_URI
    )
    grpc_server.start()
    yield port, ca_pem, pate, other
    grpc_server.stop(None)
    store.close()


def _ask(port: int, ca_pem: bytes, client: Pair) -> pb.Capabilities:
    credentials = grpc.ssl_channel_credentials(ca_pem, client[0], client[1])
    with grpc.secure_channel(f"127.0.0.1:{port}", credentials) as channel:
        stub = pb_grpc.LandBridgeStub(channel)
        answer: pb.Capabilities = stub.GetCapabilities(
            pb.GetCapabilitiesRequest(), metadata=[("x-pate-gitm-token", TOKEN)], timeout=5
        )
        return answer


def test_pates_certificate_is_known_by_its_uri_san(tls) -> None:  # type: ignore[no-untyped-def]
    port, ca_pem, pate, _ = tls
    assert _ask(port, ca_pem, pate).edition == 4


def test_another_certificate_of_the_ca_with_pates_cn_is_refused(tls) -> None:  # type: ignore[no-untyped-def]
    port, ca_pem, _, other = tls
    with pytest.raises(grpc.RpcError) as caught:
        _ask(port, ca_pem, other)
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "URI SAN" in (caught.value.details() or "")
