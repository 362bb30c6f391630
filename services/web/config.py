"""The web desk's settings, from the environment only (docs/operations.md)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from services.platform.config import ConfigError, load_settings
from services.web.server import Guard

DEFAULT_ADDR = "127.0.0.1:8080"


@dataclass(frozen=True)
class WebSettings:
    addr: str
    orders_addr: str
    reports_addr: str
    secret: bytes = field(repr=False)  # signs the CSRF tokens; random per process when not given
    max_body_bytes: int = 256 * 1024  # the order text limit of the desk is well inside this
    guard: Guard = field(default_factory=Guard)  # slow and many connections (services/web/server.py)
    health_addr: str = ""  # a listener of its own for /healthz and /readyz; empty: none

    @property
    def host(self) -> str:
        return self.addr.rpartition(":")[0]

    @property
    def port(self) -> int:
        return int(self.addr.rpartition(":")[2])

    @property
    def health(self) -> tuple[str, int] | None:
        if not self.health_addr:
            return None
        host, _, port = self.health_addr.rpartition(":")
        return host, int(port)


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        raise ConfigError(f"{name}={text!r}: expected a positive whole number")
    return int(text)


def _addr(name: str, addr: str) -> str:
    host, sep, port = addr.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ConfigError(f"{name}={addr!r}: expected HOST:PORT, e.g. {DEFAULT_ADDR}")
    return addr


def _guard(env: Mapping[str, str]) -> Guard:
    return Guard(
        header_seconds=_int(env, "PATE_WEB_HEADER_TIMEOUT_SECONDS", 10),
        body_seconds=_int(env, "PATE_WEB_BODY_TIMEOUT_SECONDS", 30),
        max_connections=_int(env, "PATE_WEB_MAX_CONNECTIONS", 2048),
        max_in_flight=_int(env, "PATE_WEB_MAX_IN_FLIGHT", 200),
    )


def load_web_settings(environ: Mapping[str, str] | None = None) -> WebSettings:
    env = os.environ if environ is None else environ
    base = load_settings(env)
    addr = _addr("PATE_WEB_ADDR", env.get("PATE_WEB_ADDR", "").strip() or DEFAULT_ADDR)
    health = env.get("PATE_WEB_HEALTH_ADDR", "").strip()
    secret = env.get("PATE_WEB_SECRET", "").encode() or secrets.token_bytes(32)
    return WebSettings(
        addr=addr,
        orders_addr=base.orders_addr,
        reports_addr=base.reports_addr,
        secret=secret,
        max_body_bytes=_int(env, "PATE_WEB_MAX_BODY_BYTES", 256 * 1024),
        guard=_guard(env),
        health_addr=_addr("PATE_WEB_HEALTH_ADDR", health) if health else "",
    )
