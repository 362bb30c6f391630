"""Certificates taken again when their files change: a renewal needs no restart.

cert-manager renews a certificate by rewriting its Secret, and the kubelet swaps the mounted
files (a symlink ``..data`` moves to a new folder), so the paths stay and their inodes change.
A ``TlsWatch`` remembers the inode, size and modification time of every PEM file its
settings came from and reads them all again, through the settings' own loader, when one
moved.  Looking is one ``stat`` a file, cheap enough for every TLS handshake; reading happens
only after a change.  A half-done swap (the files moved again while being read) is tried on
the next look; a pair that does not belong together (a key that is not the certificate's),
or a file that cannot be read, keeps the certificate in use and is logged once per change.

Servers: ``server_credentials`` gives gRPC credentials whose certificate, key and client CA
are fetched again at each new handshake when their files changed; connections already open
keep the certificate they began with.  Every process exports the not-after time of the
certificates it presents (``pate_tls_certificate_expiry_timestamp_seconds{file}``), set at
start and at each reload, for the alert ``PateCertificateExpiresSoon``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import grpc

from services.platform.config import ConfigError
from services.platform.security.tls import TlsSettings
from services.platform.telemetry import metrics
from services.platform.telemetry.logging import get_logger

if TYPE_CHECKING:  # cryptography is loaded when a certificate is read, not at import
    from cryptography import x509

log = get_logger(__name__)

Identity = tuple[tuple[int, int, int] | None, ...]


def identity(paths: tuple[str, ...]) -> Identity:
    """What changes when a file is rewritten or swapped: inode, size, modification time."""
    out: list[tuple[int, int, int] | None] = []
    for path in paths:
        try:
            st = os.stat(path)  # follows the kubelet's symlinks to the file of the moment
        except OSError:
            out.append(None)
        else:
            out.append((st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


class TlsWatch:
    """The TLS settings of the moment, read again when their files change.

    ``every``: seconds between two looks at the files (0: each time ``changed`` is asked).
    """

    def __init__(
        self, tls: TlsSettings, *, every: float = 0.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        try:
            check_pairs(tls)
        except ValueError as err:  # at start: the process does not serve a broken pair
            raise ConfigError(str(err)) from None
        self._tls = tls
        self._seen = identity(tls.paths)
        self._refused: Identity | None = None
        self._lock = threading.Lock()
        self.every = every
        self.clock = clock
        self._looked = clock()
        record_expiry(tls)

    @property
    def current(self) -> TlsSettings:
        return self._tls

    def changed(self, *, now: bool = False) -> TlsSettings | None:
        """The new settings when the files changed since they were read, else None.

        Never waits: while another thread reads the files this answers None (the handshake
        goes on with the certificate in use).  ``now``: look even if ``every`` has not passed."""
        if self._tls.reload is None or not self._tls.paths:
            return None
        if not now and self.clock() - self._looked < self.every:
            return None
        if not self._lock.acquire(blocking=False):
            return None
        try:
            self._looked = self.clock()
            return self._read_if_moved()
        finally:
            self._lock.release()

    def _read_if_moved(self) -> TlsSettings | None:
        before = identity(self._tls.paths)
        if before in (self._seen, self._refused):
            return None
        reload = self._tls.reload
        assert reload is not None
        try:
            fresh = reload()
            check_pairs(fresh)
        except (ConfigError, ValueError) as err:
            if identity(self._tls.paths) == before:  # not a swap under way: wait for the next change
                self._refused = before
                log.warning("tls.reload_refused", error=str(err)[:200], files=list(self._tls.paths))
            return None
        if identity(fresh.paths) != before:  # swapped again while being read: read on the next look
            return None
        self._tls, self._seen, self._refused = fresh, before, None
        record_expiry(fresh)
        log.info("tls.reloaded", files=list(fresh.paths))
        return fresh


def _certificate(pem: bytes) -> x509.Certificate:
    from cryptography import x509

    return x509.load_pem_x509_certificate(pem)  # the first of a chain: the leaf


def not_after(pem: bytes) -> float:
    """The Unix time a PEM certificate (the leaf of a chain) stops being valid."""
    return _certificate(pem).not_valid_after_utc.timestamp()


def serial(pem: bytes) -> int:
    return _certificate(pem).serial_number


def _matches(cert_pem: bytes, key_pem: bytes) -> bool:
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(key_pem, password=None)
    form = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return _certificate(cert_pem).public_key().public_bytes(*form) == key.public_key().public_bytes(*form)


def check_pairs(tls: TlsSettings) -> None:
    """ValueError when a certificate and the key given with it do not belong together
    (read in the middle of a renewal, or a mistake): TLS would fail at every handshake."""
    pairs = (("PATE_TLS_CERT", tls.cert, tls.key), ("PATE_TLS_CLIENT_CERT", tls.client_cert, tls.client_key))
    for setting, cert, key in pairs:
        if cert is None or key is None:
            continue
        try:
            same = _matches(cert, key)
        except (ValueError, TypeError) as err:
            raise ValueError(
                f"{setting}: cannot read the certificate or its key ({type(err).__name__})"
            ) from None
        if not same:
            raise ValueError(f"{setting}: the key is not the certificate's")


def record_expiry(tls: TlsSettings) -> None:
    """Export the not-after time of the certificates the process presents."""
    for setting, pem in (("PATE_TLS_CERT", tls.cert), ("PATE_TLS_CLIENT_CERT", tls.client_cert)):
        path = tls.file_of(setting)
        if pem is None or not path:
            continue
        try:
            metrics.TLS_CERT_EXPIRY.labels(file=path).set(not_after(pem))
        except ValueError:  # not a certificate check_pairs could read: TLS itself will say so
            continue


def _server_config(tls: TlsSettings) -> object:
    assert tls.cert is not None and tls.key is not None
    return grpc.ssl_server_certificate_configuration([(tls.key, tls.cert)], root_certificates=tls.client_ca)


def server_credentials(tls: TlsSettings) -> grpc.ServerCredentials:
    """Credentials whose certificate, key and client CA follow their files (see the module)."""
    watch = TlsWatch(tls)

    def fetch() -> object | None:
        try:
            fresh = watch.changed()
            return None if fresh is None else _server_config(fresh)
        except Exception as err:  # called from gRPC's handshake: never raise into it
            log.warning("tls.reload_failed", error=type(err).__name__)
            return None

    return grpc.dynamic_ssl_server_credentials(
        _server_config(tls), fetch, require_client_authentication=tls.client_ca is not None
    )
