"""``pate tls dev-certs``: a development CA with a server and a client certificate.

    pate tls dev-certs --out var/tls [--host orders --host reports] [--days 30]

Writes ``ca.pem`` (and ``ca-key.pem``), ``server.pem``/``server-key.pem``
(valid for localhost, 127.0.0.1, ::1 and every ``--host``) and
``client.pem``/``client-key.pem`` (for mutual TLS), keys owner-only, and
prints the PATE_TLS_* variables that use them.  For development and tests:
production certificates come from your CA (cert-manager in deploy/k8s).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from pate.cli import numbers
from pate.cli.main import UserError

if TYPE_CHECKING:
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import ec

DEV_CLIENT_URI = "spiffe://pate/client"  # the development client certificate's identity
FILES = ("ca.pem", "ca-key.pem", "server.pem", "server-key.pem", "client.pem", "client-key.pem")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tls", help="TLS helpers (a development CA and certificates)")
    ts = p.add_subparsers(dest="tls_command", required=True)
    d = ts.add_parser("dev-certs", help="make a development CA, a server and a client certificate")
    d.add_argument("--out", type=Path, required=True, help="folder for the PEM files")
    d.add_argument("--host", action="append", default=[], help="another name or address of the servers")
    d.add_argument(
        "--days", type=numbers.whole(1, 3650, "days"), default=30, help="validity in days (default 30)"
    )
    d.set_defaults(handler=_dev_certs)


def make_dev_certs(out: Path, hosts: list[str] | tuple[str, ...] = (), days: int = 30) -> dict[str, Path]:
    """Write the six PEM files into ``out``; their paths by file name."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID

    now = datetime.now(UTC) - timedelta(minutes=5)  # tolerate a little clock skew
    valid = (now, now + timedelta(days=days))
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _ca_certificate(ca_key, valid)
    server = _leaf(ca, ca_key, valid, "pate server", ExtendedKeyUsageOID.SERVER_AUTH, _server_names(hosts))
    # PATE's client is named by a URI SAN, which a land service checks (docs/gitm.md, "Security")
    client_id: list[x509.GeneralName] = [x509.UniformResourceIdentifier(DEV_CLIENT_URI)]
    client = _leaf(ca, ca_key, valid, "pate client", ExtendedKeyUsageOID.CLIENT_AUTH, client_id)
    blobs = {
        "ca.pem": ca.public_bytes(serialization.Encoding.PEM),
        "ca-key.pem": _key_pem(ca_key),
        "server.pem": server[0],
        "server-key.pem": server[1],
        "client.pem": client[0],
        "client-key.pem": client[1],
    }
    return _write_pem_files(out, blobs)


def _name(cn: str) -> x509.Name:
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "PATE development"),
            x509.NameAttribute(NameOID.COMMON_NAME, cn),
        ]
    )


def _ca_certificate(ca_key: ec.EllipticCurvePrivateKey, valid: tuple[datetime, datetime]) -> x509.Certificate:
    """A CA that may sign leaf certificates only (path length 0)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    return (
        x509.CertificateBuilder()
        .subject_name(_name("PATE development CA"))
        .issuer_name(_name("PATE development CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid[0])
        .not_valid_after(valid[1])
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )


def _leaf(
    ca: x509.Certificate,
    ca_key: ec.EllipticCurvePrivateKey,
    valid: tuple[datetime, datetime],
    cn: str,
    usage: x509.ObjectIdentifier,
    sans: list[x509.GeneralName],
) -> tuple[bytes, bytes]:
    """A certificate the CA signed for one usage, and its key, both as PEM."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(cn))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid[0])
        .not_valid_after(valid[1])
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
    )
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    cert = builder.sign(ca_key, hashes.SHA256())
    return cert.public_bytes(serialization.Encoding.PEM), _key_pem(key)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _server_names(hosts: list[str] | tuple[str, ...]) -> list[x509.GeneralName]:
    """The loopback names and every extra host, an address as an IP entry."""
    from cryptography import x509

    sans: list[x509.GeneralName] = []
    for host in ("localhost", "127.0.0.1", "::1", *hosts):
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            sans.append(x509.DNSName(host))
    return sans


def _write_pem_files(out: Path, blobs: dict[str, bytes]) -> dict[str, Path]:
    """Keys owner-only from the moment they exist; certificates world-readable."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for file, data in blobs.items():
        path = out / file
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if "key" in file else 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        paths[file] = path
    return paths


def tls_env(paths: dict[str, Path], *, mutual: bool = True) -> dict[str, str]:
    """The PATE_TLS_* variables of the files (both sides, mutual TLS when ``mutual``)."""
    env = {
        "PATE_TLS_CERT": str(paths["server.pem"]),
        "PATE_TLS_KEY": str(paths["server-key.pem"]),
        "PATE_TLS_CA": str(paths["ca.pem"]),
    }
    if mutual:
        env.update(
            PATE_TLS_CLIENT_CA=str(paths["ca.pem"]),
            PATE_TLS_CLIENT_CERT=str(paths["client.pem"]),
            PATE_TLS_CLIENT_KEY=str(paths["client-key.pem"]),
        )
    return env


def _dev_certs(args: argparse.Namespace) -> int:
    if args.days < 1:
        raise UserError("--days must be at least 1")
    try:
        paths = make_dev_certs(args.out, args.host, args.days)
    except OSError as err:
        raise UserError(f"--out {args.out}: {err.strerror}") from None
    print(f"wrote {', '.join(FILES)} to {args.out}")
    print("servers and clients (mutual TLS):")
    for key, value in tls_env(paths).items():
        print(f"  export {key}={value}")
    return 0
