"""TLS for every gRPC server and client (docs/security.md, "TLS").

Servers: ``PATE_TLS_CERT`` and ``PATE_TLS_KEY`` (PEM files) turn TLS on;
with ``PATE_TLS_CLIENT_CA`` as well, a server accepts only clients presenting
a certificate signed by that CA (mutual TLS between the services).  Clients
(the services' own, the command line, the demo): ``PATE_TLS_CA`` is the CA
that signed the servers' certificates and turns TLS on; ``PATE_TLS_CLIENT_CERT``
and ``PATE_TLS_CLIENT_KEY`` are presented where mutual TLS is required.

Without TLS a server listens only on a loopback address: binding another in
plaintext refuses to start unless ``PATE_ALLOW_PLAINTEXT=1`` (for a mesh or a
proxy that terminates TLS in front of the service).

The settings remember the files they were read from and how to read them again:
servers and long-lived clients take renewed files without a restart
(``certwatch`` and ``redial`` in this package; docs/security.md, "Renewal").
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from services.platform.config import ConfigError

_LOOPBACK_NAMES = ("localhost", "ip6-localhost")


@dataclass(frozen=True, slots=True)
class TlsSettings:
    cert: bytes | None = None  # the server's certificate chain (PEM)
    key: bytes | None = None
    client_ca: bytes | None = None  # servers: require client certificates signed by it
    ca: bytes | None = None  # clients: trust servers signed by it
    client_cert: bytes | None = None  # clients: presented for mutual TLS
    client_key: bytes | None = None
    allow_plaintext: bool = False
    # checked against the server certificate's names instead of the dialled host
    server_name: str = ""
    # the files these settings were read from, and how to read them again: a renewed
    # certificate is taken without a restart (services/platform/security/certwatch.py)
    files: tuple[tuple[str, str], ...] = ()  # (setting, path)
    reload: Callable[[], TlsSettings] | None = field(default=None, compare=False, repr=False)

    @property
    def serving(self) -> bool:
        return self.cert is not None

    @property
    def dialling(self) -> bool:
        return self.ca is not None

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(path for _setting, path in self.files)

    def file_of(self, setting: str) -> str:
        return next((path for name, path in self.files if name == setting), "")


def pem_file(env: Mapping[str, str], name: str) -> bytes | None:
    """The PEM file the setting ``name`` names, or None when it is empty."""
    path = env.get(name, "").strip()
    if not path:
        return None
    try:
        data = Path(path).expanduser().read_bytes()
    except OSError as err:
        raise ConfigError(f"{name}={path!r}: cannot read it ({err.strerror})") from None
    if b"-----BEGIN " not in data:
        raise ConfigError(f"{name}={path!r}: not a PEM file")
    return data


FILE_SETTINGS = (
    "PATE_TLS_CERT",
    "PATE_TLS_KEY",
    "PATE_TLS_CLIENT_CA",
    "PATE_TLS_CA",
    "PATE_TLS_CLIENT_CERT",
    "PATE_TLS_CLIENT_KEY",
)


def tls_environment(env: Mapping[str, str]) -> dict[str, str]:
    """The TLS settings of ``env`` alone, kept to read their files again later."""
    return {k: v for k, v in env.items() if k.startswith(("PATE_TLS_", "PATE_GITM_TLS_", "PATE_ALLOW_"))}


def setting_files(
    env: Mapping[str, str], names: tuple[str, ...] = FILE_SETTINGS
) -> tuple[tuple[str, str], ...]:
    """(setting, path) of every file the settings ``names`` of ``env`` name."""
    return tuple((n, env[n].strip()) for n in names if env.get(n, "").strip())


def load_tls(environ: Mapping[str, str] | None = None) -> TlsSettings:
    env = tls_environment(os.environ if environ is None else environ)
    out = TlsSettings(
        cert=pem_file(env, "PATE_TLS_CERT"),
        key=pem_file(env, "PATE_TLS_KEY"),
        client_ca=pem_file(env, "PATE_TLS_CLIENT_CA"),
        ca=pem_file(env, "PATE_TLS_CA"),
        client_cert=pem_file(env, "PATE_TLS_CLIENT_CERT"),
        client_key=pem_file(env, "PATE_TLS_CLIENT_KEY"),
        allow_plaintext=_flag(env, "PATE_ALLOW_PLAINTEXT"),
        server_name=env.get("PATE_TLS_SERVER_NAME", "").strip(),
        files=setting_files(env),
        reload=lambda: load_tls(env),
    )
    if (out.cert is None) != (out.key is None):
        raise ConfigError("PATE_TLS_CERT and PATE_TLS_KEY: give both or neither")
    if (out.client_cert is None) != (out.client_key is None):
        raise ConfigError("PATE_TLS_CLIENT_CERT and PATE_TLS_CLIENT_KEY: give both or neither")
    if out.client_ca is not None and out.cert is None:
        raise ConfigError("PATE_TLS_CLIENT_CA needs PATE_TLS_CERT and PATE_TLS_KEY (mutual TLS is TLS)")
    return out


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no"):
        return False
    if raw in ("1", "true", "yes"):
        return True
    raise ConfigError(f"{name}={env.get(name)!r}: expected 1 or 0")


def is_loopback(addr: str) -> bool:
    """Whether ``HOST:PORT`` listens only on this machine."""
    host = addr.rpartition(":")[0].strip("[]").lower()
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name that may resolve anywhere, or "" (every address)


def check_bind(addr: str, tls: TlsSettings) -> None:
    """Refuse a plaintext listener reachable from other machines."""
    if tls.serving or tls.allow_plaintext or is_loopback(addr):
        return
    raise ConfigError(
        f"{addr}: refusing to serve plaintext gRPC on a non-loopback address; set PATE_TLS_CERT and "
        "PATE_TLS_KEY, or PATE_ALLOW_PLAINTEXT=1 when a proxy or mesh provides TLS"
    )


def channel_credentials(tls: TlsSettings) -> grpc.ChannelCredentials:
    return grpc.ssl_channel_credentials(
        root_certificates=tls.ca, private_key=tls.client_key, certificate_chain=tls.client_cert
    )


# Every client PATE builds spreads its calls over all the addresses its target resolves to (the
# headless Service of a Kubernetes Deployment resolves to every ready pod): gRPC's default,
# pick_first, would send every call of a long-lived channel to the first pod for the channel's
# life.  Set in the channel's own service config, so it holds for every target and every caller
# (the services, the web desk, the bot admiral, the command line, the GITM bridge).
SERVICE_CONFIG = json.dumps({"loadBalancingConfig": [{"round_robin": {}}]})


def channel_options(tls: TlsSettings) -> list[tuple[str, str]]:
    """The options of every client channel: the balancing policy, and the name to check in the
    server's certificate when it is not the host dialled."""
    options = [("grpc.service_config", SERVICE_CONFIG)]
    if tls.server_name:
        options.append(("grpc.ssl_target_name_override", tls.server_name))
    return options


def channel(addr: str, tls: TlsSettings | None = None) -> grpc.Channel:
    """A blocking client channel: TLS when PATE_TLS_CA is set, else plaintext; round robin over
    the target's addresses."""
    tls = load_tls() if tls is None else tls
    if tls.dialling:
        return grpc.secure_channel(addr, channel_credentials(tls), options=channel_options(tls))
    return grpc.insecure_channel(addr, options=channel_options(tls))


def aio_channel(addr: str, tls: TlsSettings | None = None) -> grpc.aio.Channel:
    tls = load_tls() if tls is None else tls
    if tls.dialling:
        return grpc.aio.secure_channel(addr, channel_credentials(tls), options=channel_options(tls))
    return grpc.aio.insecure_channel(addr, options=channel_options(tls))
