"""How PATE dials GITM (docs/gitm.md "Security between the services"): the caller token from
a file read again when it changes, so a rotated token needs no restart, and a CA of the land
service's own beside PATE's."""

from __future__ import annotations

import os
import socket
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest

from gitm.v1 import land_pb2
from pate.cli.tls import make_dev_certs
from services.gitm_reference.main import start
from services.gitm_reference.servicer import Access
from services.platform.config import ConfigError
from services.platform.security.secretfile import SecretFile
from services.platform.security.tls import TlsSettings
from services.resolver.gitm import CALLER_EDITION, CALLER_TOKEN, GitmClient, caller_token, gitm_tls


class Recording:
    """A land service stub that keeps the metadata of each call."""

    def __init__(self) -> None:
        self.tokens: list[str | None] = []
        self.editions: list[str | None] = []

    def GetCapabilities(self, request: Any, timeout: float, metadata: Any) -> land_pb2.Capabilities:  # noqa: N802
        self.tokens.append(dict(metadata).get(CALLER_TOKEN))
        self.editions.append(dict(metadata).get(CALLER_EDITION))
        return land_pb2.Capabilities(edition=3)


def _rotate(path: Path, text: str) -> None:
    """As the kubelet does: the new file takes the old one's place (a new inode)."""
    fresh = path.with_suffix(".new")
    fresh.write_text(text)
    os.replace(fresh, path)


def test_the_token_file_is_read_again_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rotated token reaches GITM on the next call of the same client, with no restart."""
    token = tmp_path / "token"
    token.write_text("old-token-1234\n")
    monkeypatch.delenv("PATE_GITM_TOKEN", raising=False)
    monkeypatch.setenv("PATE_GITM_TOKEN_FILE", str(token))
    land = Recording()
    client = GitmClient("in-process", stub=land)
    client.get_capabilities()
    _rotate(token, "new-token-5678")
    client.get_capabilities()
    assert land.tokens == ["old-token-1234", "new-token-5678"]


def test_a_token_file_gone_keeps_the_last_token(tmp_path: Path) -> None:
    """A volume briefly unreadable (a swap in progress) is not a reason to call without a token."""
    token = tmp_path / "token"
    token.write_text("kept-token")
    secret = SecretFile(token, "PATE_GITM_TOKEN_FILE")
    token.unlink()
    assert secret.value() == "kept-token"
    _rotate(token, "")  # an empty file is no token either
    assert secret.value() == "kept-token"
    _rotate(token, "back-again")
    assert secret.value() == "back-again"


@pytest.mark.parametrize(
    ("text", "why"),
    [("", "the file is empty"), ("one\ntwo", "one line"), ("x" * 1025, "at most 1024 characters")],
)
def test_a_token_file_unusable_at_start_is_a_clear_error(tmp_path: Path, text: str, why: str) -> None:
    token = tmp_path / "token"
    token.write_text(text)
    with pytest.raises(ConfigError, match=f"PATE_GITM_TOKEN_FILE=.*{why}") as err:
        caller_token({"PATE_GITM_TOKEN_FILE": str(token)})
    assert "one\ntwo" not in str(err.value)


def test_a_missing_token_file_and_both_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"PATE_GITM_TOKEN_FILE=.*cannot read it"):
        caller_token({"PATE_GITM_TOKEN_FILE": str(tmp_path / "absent")})
    (tmp_path / "token").write_text("t")
    with pytest.raises(ConfigError, match="give one, not both"):
        caller_token({"PATE_GITM_TOKEN_FILE": str(tmp_path / "token"), "PATE_GITM_TOKEN": "u"})
    assert caller_token({"PATE_GITM_TOKEN": " fixed "})() == "fixed"
    assert caller_token({})() == ""


def test_the_gitm_settings_replace_only_the_ca_and_the_name(tmp_path: Path) -> None:
    pate, land = make_dev_certs(tmp_path / "pate"), make_dev_certs(tmp_path / "land")
    own = {
        "PATE_TLS_CA": str(pate["ca.pem"]),
        "PATE_TLS_CLIENT_CERT": str(pate["client.pem"]),
        "PATE_TLS_CLIENT_KEY": str(pate["client-key.pem"]),
        "PATE_TLS_SERVER_NAME": "pate-internal",
    }
    assert gitm_tls(own).ca == pate["ca.pem"].read_bytes()
    assert gitm_tls(own).server_name == "pate-internal"
    theirs = gitm_tls(
        {**own, "PATE_GITM_TLS_CA": str(land["ca.pem"]), "PATE_GITM_TLS_SERVER_NAME": "land.example"}
    )
    assert theirs.ca == land["ca.pem"].read_bytes() and theirs.server_name == "land.example"
    assert theirs.client_cert == pate["client.pem"].read_bytes()
    with pytest.raises(ConfigError, match=r"PATE_GITM_TLS_CA=.*cannot read it"):
        gitm_tls({"PATE_GITM_TLS_CA": str(tmp_path / "absent.pem")})


def test_a_renewed_gitm_ca_is_read_again_with_the_gitm_settings(tmp_path: Path) -> None:
    """The resolver's channel to GITM is dialled again when PATE_GITM_TLS_CA changes, as when its
    own certificate does (docs/security.md, "Renewal")."""
    from services.platform.security.certwatch import TlsWatch

    pate, land, renewed = (make_dev_certs(tmp_path / n) for n in ("pate", "land", "renewed"))
    gitm_ca = tmp_path / "gitm-ca.pem"
    gitm_ca.write_bytes(land["ca.pem"].read_bytes())
    env = {"PATE_TLS_CA": str(pate["ca.pem"]), "PATE_GITM_TLS_CA": str(gitm_ca)}
    watch = TlsWatch(gitm_tls(env))
    swap = tmp_path / "gitm-ca.new"
    swap.write_bytes(renewed["ca.pem"].read_bytes())
    os.replace(swap, gitm_ca)
    fresh = watch.changed()
    assert fresh is not None and fresh.ca == renewed["ca.pem"].read_bytes()
    assert fresh.paths == (str(pate["ca.pem"]), str(gitm_ca))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_mutual_tls_with_a_land_service_of_another_ca(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The land service's certificate is issued by GITM's own CA, and it requires a client
    certificate of PATE's CA: trusting PATE's CA alone the handshake fails; with
    PATE_GITM_TLS_CA the same client certificate is accepted."""
    pate, land = make_dev_certs(tmp_path / "pate"), make_dev_certs(tmp_path / "land")
    served = TlsSettings(
        cert=land["server.pem"].read_bytes(),
        key=land["server-key.pem"].read_bytes(),
        client_ca=pate["ca.pem"].read_bytes(),
    )
    addr = f"127.0.0.1:{_free_port()}"
    with tempfile.TemporaryDirectory() as db:
        running = start(addr, f"sqlite:///{db}/land.db", access=Access("land-token"), tls=served)
        try:
            monkeypatch.delenv("PATE_GITM_TOKEN_FILE", raising=False)
            monkeypatch.setenv("PATE_GITM_TOKEN", "land-token")
            monkeypatch.setenv("PATE_TLS_CA", str(pate["ca.pem"]))
            monkeypatch.setenv("PATE_TLS_CLIENT_CERT", str(pate["client.pem"]))
            monkeypatch.setenv("PATE_TLS_CLIENT_KEY", str(pate["client-key.pem"]))
            with pytest.raises(grpc.RpcError) as refused:
                GitmClient(addr, timeout=3).get_capabilities()
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            monkeypatch.setenv("PATE_GITM_TLS_CA", str(land["ca.pem"]))
            assert GitmClient(addr, timeout=5).get_capabilities().edition >= 1
        finally:
            running.server.stop(0)


@pytest.mark.parametrize("token", ["", "s3cret"])
def test_every_call_says_which_edition_pate_speaks(token: str) -> None:
    """docs/gitm.md, A14: "every call of PATE's carries the metadata x-pate-gitm-edition, the
    edition PATE speaks (4)", with or without a caller token."""
    land = Recording()
    GitmClient("in-process", stub=land, token=token).get_capabilities()
    assert land.editions == ["4"]
    assert land.tokens == [token or None]


def test_the_land_service_knows_pate_by_its_uri_san_not_its_cn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A land service that checks PATE's URI SAN takes PATE's client certificate and refuses
    another certificate of the same CA with the same CN, UNAUTHENTICATED, before any work."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.x509.oid import ExtendedKeyUsageOID

    from pate.cli import tls as devcerts

    pate = make_dev_certs(tmp_path / "pate")
    served = TlsSettings(
        cert=pate["server.pem"].read_bytes(),
        key=pate["server-key.pem"].read_bytes(),
        client_ca=pate["ca.pem"].read_bytes(),
    )
    ca = x509.load_pem_x509_certificate(pate["ca.pem"].read_bytes())
    ca_key = serialization.load_pem_private_key(pate["ca-key.pem"].read_bytes(), password=None)
    valid = (datetime.now(UTC) - timedelta(minutes=5), datetime.now(UTC) + timedelta(days=1))
    other = [x509.UniformResourceIdentifier("spiffe://pate/web")]  # same CA, same CN, another service
    cert, key = devcerts._leaf(ca, ca_key, valid, "pate client", ExtendedKeyUsageOID.CLIENT_AUTH, other)  # type: ignore[arg-type]
    (tmp_path / "other.pem").write_bytes(cert)
    (tmp_path / "other-key.pem").write_bytes(key)
    addr = f"127.0.0.1:{_free_port()}"
    access = Access("land-token", client_uri=devcerts.DEV_CLIENT_URI)
    with tempfile.TemporaryDirectory() as db:
        running = start(addr, f"sqlite:///{db}/land.db", access=access, tls=served)
        try:
            monkeypatch.delenv("PATE_GITM_TOKEN_FILE", raising=False)
            monkeypatch.setenv("PATE_GITM_TOKEN", "land-token")
            monkeypatch.setenv("PATE_TLS_CA", str(pate["ca.pem"]))
            monkeypatch.setenv("PATE_TLS_CLIENT_CERT", str(pate["client.pem"]))
            monkeypatch.setenv("PATE_TLS_CLIENT_KEY", str(pate["client-key.pem"]))
            assert GitmClient(addr, timeout=5).get_capabilities().edition >= 1
            monkeypatch.setenv("PATE_TLS_CLIENT_CERT", str(tmp_path / "other.pem"))
            monkeypatch.setenv("PATE_TLS_CLIENT_KEY", str(tmp_path / "other-key.pem"))
            with pytest.raises(grpc.RpcError) as refused:
                GitmClient(addr, timeout=5).get_capabilities()
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert "URI SAN" in (refused.value.details() or "")
        finally:
            running.server.stop(0)


def test_every_call_carries_a_correlation_id_both_sides_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/gitm.md "Observability": PATE's log line of a call and the land service's log line of
    the same call name the same ``x-pate-call-id``, tracing on or off; each call gets its own."""
    from structlog.testing import capture_logs

    addr = f"127.0.0.1:{_free_port()}"
    with tempfile.TemporaryDirectory() as db:
        running = start(addr, f"sqlite:///{db}/land.db", access=Access("land-token"))
        try:
            monkeypatch.delenv("PATE_GITM_TOKEN_FILE", raising=False)
            monkeypatch.setenv("PATE_GITM_TOKEN", "land-token")
            client = GitmClient(addr, timeout=5)
            with capture_logs() as logs:
                client.get_capabilities()
                client.get_capabilities()
        finally:
            running.server.stop(0)
    pate_ids = [e["call_id"] for e in logs if e["event"] == "gitm.call"]
    land_ids = [
        e.get("call_id") for e in logs if e["event"] == "grpc.call" and "GetCapabilities" in e["method"]
    ]
    assert len(pate_ids) == 2 and len(set(pate_ids)) == 2 and all(len(i) == 32 for i in pate_ids)
    assert sorted(land_ids) == sorted(pate_ids)


def test_an_open_has_four_times_a_calls_deadline_at_most_a_minute() -> None:
    """docs/gitm.md A22: the open builds a campaign's whole land; every other call keeps its own."""
    from services.resolver.gitm import open_deadline

    assert open_deadline(5) == 20 and open_deadline(0.5) == 2 and open_deadline(60) == 60
