"""The web desk's settings, from the environment only (docs/operations.md)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from services.platform.config import ConfigError, load_settings

DEFAULT_ADDR = "127.0.0.1:8080"


@dataclass(frozen=True)
class WebSettings:
    addr: str
    orders_addr: str
    reports_addr: str
    admin_token: str = field(repr=False)
    secret: bytes = field(repr=False)  # signs the CSRF tokens; random per process when not given
    max_body_bytes: int = 256 * 1024  # the order text limit of the desk is well inside this

    @property
    def host(self) -> str:
        return self.addr.rpartition(":")[0]

    @property
    def port(self) -> int:
        return int(self.addr.rpartition(":")[2])


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        raise ConfigError(f"{name}={text!r}: expected a positive whole number")
    return int(text)


def load_web_settings(environ: Mapping[str, str] | None = None) -> WebSettings:
    env = os.environ if environ is None else environ
    base = load_settings(env)
    addr = env.get("PATE_WEB_ADDR", "").strip() or DEFAULT_ADDR
    host, sep, port = addr.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ConfigError(f"PATE_WEB_ADDR={addr!r}: expected HOST:PORT, e.g. {DEFAULT_ADDR}")
    secret = env.get("PATE_WEB_SECRET", "").encode() or secrets.token_bytes(32)
    return WebSettings(
        addr=addr,
        orders_addr=base.orders_addr,
        reports_addr=base.reports_addr,
        admin_token=base.admin_token,
        secret=secret,
        max_body_bytes=_int(env, "PATE_WEB_MAX_BODY_BYTES", 256 * 1024),
    )
