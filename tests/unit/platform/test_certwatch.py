"""TlsWatch: the settings are read again when a certificate file is swapped, not otherwise; a
key that is not the certificate's keeps the certificate in use; the expiry gauge follows."""

from __future__ import annotations

from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from pate.cli.tls import make_dev_certs
from services.platform.config import ConfigError
from services.platform.security.certwatch import TlsWatch, not_after, serial
from services.platform.security.tls import load_tls
from tests.support.certs import MountedSecret, issue


@pytest.fixture
def ca(tmp_path: Path) -> Path:
    make_dev_certs(tmp_path / "ca")
    return tmp_path / "ca"


def _mounted(tmp_path: Path, ca: Path, days: int = 30) -> tuple[MountedSecret, dict[str, str]]:
    secret = MountedSecret(tmp_path / "tls")
    secret.publish(*issue(ca, "pate-orders", days=days), (ca / "ca.pem").read_bytes())
    env = {"PATE_TLS_CERT": secret.path("tls.crt"), "PATE_TLS_KEY": secret.path("tls.key")}
    return secret, env


def _expiry(path: str) -> float | None:
    return REGISTRY.get_sample_value("pate_tls_certificate_expiry_timestamp_seconds", {"file": path})


def test_a_swapped_certificate_is_read_again_and_an_untouched_one_is_not(tmp_path: Path, ca: Path) -> None:
    secret, env = _mounted(tmp_path, ca)
    watch = TlsWatch(load_tls(env))
    first = watch.current
    assert watch.changed() is None  # nothing moved
    renewed = issue(ca, "pate-orders", days=60)
    secret.publish(*renewed, (ca / "ca.pem").read_bytes())
    fresh = watch.changed()
    assert fresh is not None and fresh.cert == renewed[0] and fresh.key == renewed[1]
    assert serial(fresh.cert) != serial(first.cert or b"")
    assert watch.current is fresh and watch.changed() is None
    assert _expiry(env["PATE_TLS_CERT"]) == not_after(renewed[0])


def test_a_key_that_is_not_the_certificates_keeps_the_one_in_use(tmp_path: Path, ca: Path) -> None:
    secret, env = _mounted(tmp_path, ca)
    watch = TlsWatch(load_tls(env))
    before = watch.current
    cert, _key = issue(ca, "pate-orders")
    _other_cert, other_key = issue(ca, "pate-orders")
    secret.publish(cert, other_key, (ca / "ca.pem").read_bytes())
    assert watch.changed() is None and watch.current is before
    assert watch.changed() is None  # refused once: not read again until the files move again
    good = issue(ca, "pate-orders")
    secret.publish(*good, (ca / "ca.pem").read_bytes())
    fresh = watch.changed()
    assert fresh is not None and fresh.cert == good[0]


def test_at_start_a_mismatched_pair_is_a_configuration_error(tmp_path: Path, ca: Path) -> None:
    secret, env = _mounted(tmp_path, ca)
    secret.publish(issue(ca, "a")[0], issue(ca, "b")[1], (ca / "ca.pem").read_bytes())
    with pytest.raises(ConfigError, match="the key is not the certificate's"):
        TlsWatch(load_tls(env))


def test_a_vanished_file_keeps_the_certificate_in_use(tmp_path: Path, ca: Path) -> None:
    secret, env = _mounted(tmp_path, ca)
    watch = TlsWatch(load_tls(env))
    (secret.root / "..data").unlink()  # a volume briefly gone
    assert watch.changed() is None and watch.current.cert is not None


def test_every_spaces_the_looks_and_now_looks_at_once(tmp_path: Path, ca: Path) -> None:
    secret, env = _mounted(tmp_path, ca)
    clock = [100.0]
    watch = TlsWatch(load_tls(env), every=10.0, clock=lambda: clock[0])
    secret.publish(*issue(ca, "pate-orders"), (ca / "ca.pem").read_bytes())
    clock[0] = 105.0
    assert watch.changed() is None  # not yet looked
    assert watch.changed(now=True) is not None  # after a call failed UNAVAILABLE
    secret.publish(*issue(ca, "pate-orders"), (ca / "ca.pem").read_bytes())
    clock[0] = 115.1
    assert watch.changed() is not None


def test_settings_made_in_memory_never_reload(tmp_path: Path, ca: Path) -> None:
    from services.platform.security.tls import TlsSettings

    _secret, env = _mounted(tmp_path, ca)
    tls = load_tls(env)
    watch = TlsWatch(TlsSettings(cert=tls.cert, key=tls.key))
    assert watch.changed() is None
