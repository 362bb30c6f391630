"""TLS settings (services/platform/security/tls.py): what turns TLS on, and the plaintext guard."""

from __future__ import annotations

from pathlib import Path

import pytest

from pate.cli.tls import make_dev_certs, tls_env
from services.platform.config import ConfigError
from services.platform.security.tls import TlsSettings, check_bind, is_loopback, load_tls


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_dev_certs(tmp_path_factory.mktemp("certs"))


@pytest.mark.parametrize(
    ("addr", "loopback"),
    [
        ("127.0.0.1:50051", True),
        ("127.8.0.1:1", True),
        ("localhost:50051", True),
        ("[::1]:50051", True),
        ("0.0.0.0:50051", False),
        ("[::]:50051", False),
        ("10.0.0.5:50051", False),
        ("orders:50051", False),
        (":50051", False),
    ],
)
def test_loopback_addresses(addr: str, loopback: bool) -> None:
    assert is_loopback(addr) is loopback


def test_a_plaintext_bind_beyond_loopback_is_refused_unless_allowed(certs: dict[str, Path]) -> None:
    with pytest.raises(ConfigError, match="PATE_ALLOW_PLAINTEXT=1"):
        check_bind("0.0.0.0:50051", TlsSettings())
    check_bind("0.0.0.0:50051", TlsSettings(allow_plaintext=True))
    check_bind("0.0.0.0:50051", load_tls(tls_env(certs)))
    check_bind("127.0.0.1:50051", TlsSettings())


def test_nothing_set_means_plaintext_and_the_files_are_read(certs: dict[str, Path]) -> None:
    assert load_tls({}) == TlsSettings()
    tls = load_tls(tls_env(certs))
    assert tls.serving and tls.dialling and tls.client_ca and tls.client_cert
    assert tls.cert == certs["server.pem"].read_bytes()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"PATE_TLS_CERT": "/no/such/file.pem", "PATE_TLS_KEY": "/no/such/key.pem"}, "PATE_TLS_CERT"),
        ({"PATE_TLS_CERT": "{server.pem}"}, "give both or neither"),
        ({"PATE_TLS_CLIENT_CERT": "{client.pem}"}, "give both or neither"),
        ({"PATE_TLS_CLIENT_CA": "{ca.pem}"}, "needs PATE_TLS_CERT"),
        ({"PATE_TLS_CA": "{README}"}, "not a PEM file"),
        ({"PATE_ALLOW_PLAINTEXT": "maybe"}, "expected 1 or 0"),
    ],
)
def test_bad_tls_settings_name_the_variable(
    certs: dict[str, Path], env: dict[str, str], message: str
) -> None:
    files = {k: str(v) for k, v in certs.items()} | {"README": str(Path(__file__))}
    resolved = {k: files[v[1:-1]] if v.startswith("{") else v for k, v in env.items()}
    with pytest.raises(ConfigError, match=message):
        load_tls(resolved)
