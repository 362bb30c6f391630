"""Where PATE's gitm.v1 client gets its settings (docs/gitm.md "Security", "Timing"): its caller
token, how it dials GITM (TLS), and its deadline."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from services.platform.config import ConfigError
from services.platform.security import tls
from services.platform.security.secretfile import SecretFile

DEFAULT_TIMEOUT = 5.0
TIMEOUT_RANGE = (0.5, 60.0)


def caller_token(env: Mapping[str, str] | None = None) -> Callable[[], str]:
    """PATE's caller token for GITM: the file ``PATE_GITM_TOKEN_FILE``, read again whenever it
    changes (a rotated Kubernetes Secret takes effect without restarting a resolver), or
    ``PATE_GITM_TOKEN``, read once; empty: no token is sent."""
    env = os.environ if env is None else env
    path = env.get("PATE_GITM_TOKEN_FILE", "").strip()
    fixed = env.get("PATE_GITM_TOKEN", "").strip()
    if path and fixed:
        raise ConfigError("PATE_GITM_TOKEN and PATE_GITM_TOKEN_FILE: give one, not both")
    if path:
        return SecretFile(Path(path), "PATE_GITM_TOKEN_FILE").value
    return lambda: fixed


def gitm_tls(env: Mapping[str, str] | None = None) -> tls.TlsSettings:
    """How PATE dials GITM: its own client certificate (``PATE_TLS_CLIENT_*``), trusting
    ``PATE_GITM_TLS_CA`` (the CA that signed the land service's certificate, when it is not
    PATE's own; default ``PATE_TLS_CA``) and checking the name ``PATE_GITM_TLS_SERVER_NAME``
    (default ``PATE_TLS_SERVER_NAME``, else the dialled host)."""
    env = tls.tls_environment(os.environ if env is None else env)
    own = tls.load_tls(env)
    ca = tls.pem_file(env, "PATE_GITM_TLS_CA")
    name = env.get("PATE_GITM_TLS_SERVER_NAME", "").strip()
    return replace(
        own,
        ca=ca or own.ca,
        server_name=name or own.server_name,
        files=own.files + tls.setting_files(env, ("PATE_GITM_TLS_CA",)),
        reload=lambda: gitm_tls(env),
    )


def configured_timeout(env: Mapping[str, str] | None = None) -> float:
    """``PATE_GITM_TIMEOUT_SECONDS`` (docs/gitm.md "Timing"): 0.5 to 60 s, default 5."""
    raw = (os.environ if env is None else env).get("PATE_GITM_TIMEOUT_SECONDS", "").strip()
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    low, high = TIMEOUT_RANGE
    if not low <= value <= high:
        raise ConfigError(f"PATE_GITM_TIMEOUT_SECONDS={raw[:32]!r}: expected seconds from {low} to {high}")
    return value
