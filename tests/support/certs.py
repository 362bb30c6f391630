"""Certificates renewed the way Kubernetes renews a mounted Secret, for the TLS renewal tests.

A ``MountedSecret`` is a folder laid out as the kubelet lays out a Secret volume: each file
(``tls.crt``, ``tls.key``, ``ca.crt``) is a symlink through ``..data``, which points to a
folder of the moment; ``publish`` writes a new such folder and swaps ``..data`` in one rename,
so a reader sees either the old files or the new ones, never a mix.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from itertools import count
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.x509.oid import ExtendedKeyUsageOID

from pate.cli import tls as devcerts

FILES = ("tls.crt", "tls.key", "ca.crt")


def issue(ca_dir: Path, cn: str, *, client: bool = False, days: int = 30) -> tuple[bytes, bytes]:
    """A new certificate and key signed by the development CA in ``ca_dir`` (make_dev_certs)."""
    ca = x509.load_pem_x509_certificate((ca_dir / "ca.pem").read_bytes())
    ca_key = serialization.load_pem_private_key((ca_dir / "ca-key.pem").read_bytes(), password=None)
    start = datetime.now(UTC) - timedelta(minutes=5)
    usage = ExtendedKeyUsageOID.CLIENT_AUTH if client else ExtendedKeyUsageOID.SERVER_AUTH
    sans = [] if client else devcerts._server_names(())
    return devcerts._leaf(ca, ca_key, (start, start + timedelta(days=days)), cn, usage, sans)  # type: ignore[arg-type]


class MountedSecret:
    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self._versions = count(1)

    def path(self, name: str) -> str:
        return str(self.root / name)

    def publish(self, cert: bytes, key: bytes, ca: bytes) -> None:
        """Write a new version and swap ``..data`` to it (an atomic rename of a symlink)."""
        version = f"..v{next(self._versions)}"
        folder = self.root / version
        folder.mkdir()
        for name, data in zip(FILES, (cert, key, ca), strict=True):
            (folder / name).write_bytes(data)
        swap = self.root / "..data_tmp"
        swap.symlink_to(version)
        os.replace(swap, self.root / "..data")
        for name in FILES:
            link = self.root / name
            if not link.is_symlink():
                link.symlink_to(f"..data/{name}")
