"""Service configuration, read from environment variables only.

Every variable has a documented default (docs/operations.md) so that a
service starts with no configuration at all on a developer machine.  A bad
value stops the process at start-up with an error naming the variable.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
LOG_FORMATS = ("json", "console")


class ConfigError(ValueError):
    """An environment variable holds a value the services cannot use."""


# Messages a worker takes at once: up to this many of those waiting, never waiting for more.  At a
# deadline shared by many campaigns, one hand-over to the worker thread, one relay batch and one
# fetch for eight turns instead of one each halved the bus's CPU per message (2.3 to 1.2 ms).
DEFAULT_WORKER_BATCH = 8


@dataclass(frozen=True)
class Settings:
    database_url: str
    nats_url: str
    log_level: str
    log_format: str
    orders_addr: str
    reports_addr: str
    # the workers serve only gRPC health and reflection; port 0 = any free port,
    # so several workers can share a host (the bound port is logged)
    resolver_addr: str
    intel_addr: str
    gitm_addr: str | None  # None: no GITM land bridge configured
    deadline_poll_seconds: float
    worker_batch: int
    # shared secret for administrator RPCs (metadata x-pate-admin-token); empty: admin RPCs refused
    admin_token: str = field(default="", repr=False)
    # the bot admiral's narrower secret (metadata x-pate-admiral-token): reads campaigns, plays the
    # seats the bot holds, nothing a game master does; empty: only the administrator token serves
    admiral_token: str = field(default="", repr=False)
    # --- sessions and the login throttle (docs/security.md) ---
    session_ttl_seconds: float = 12 * 3600.0
    # peers (IP addresses) whose x-forwarded-for names the caller's address for the throttle
    trusted_proxies: frozenset[str] = frozenset()
    # where the links of account mail point (the web desk's /account); empty: the mail gives the token
    account_link_base: str = ""
    # Prometheus /metrics HOST:PORT (port 0 = any free port); empty or "0": no metrics server
    metrics_addr: str = ""
    # OTLP gRPC collector (e.g. http://otel-collector:4317) for trace spans; empty: spans not exported
    otlp_endpoint: str = ""
    # copies of the JetStream stream on a NATS cluster (3 on a 3-node cluster; 1 on one server)
    stream_replicas: int = 1
    # seconds JetStream waits for an ack before redelivering (a worker killed mid-message)
    ack_wait_seconds: float = 2.0  # with in-progress heartbeats every quarter of it (consumer.py)
    # published outbox rows older than this are pruned by the orders process (at least 24 h)
    outbox_retention_hours: float = 168.0
    # whether the process upgrades the schema at start (make run, compose's services); Kubernetes
    # sets 0: a Job migrates and the pods wait for it (docs/operations.md, "Upgrades and migrations")
    migrate_at_start: bool = True
    # PostgreSQL connections the process keeps, and may open beyond them at a peak; None: the
    # process's own default (services/platform/store/pooling.py)
    db_pool_size: int | None = None
    db_max_overflow: int | None = None
    # psycopg prepares a statement run 5 times on a connection; 0 turns that off (Kubernetes: the
    # connections go through PgBouncer in transaction mode, docs/operations.md)
    db_prepared_statements: bool = True


def default_database_url(cwd: Path | None = None) -> str:
    """``var/pate.db`` under the working directory, as an absolute SQLite URL.

    Absolute so that child processes started elsewhere share one file.
    """
    base = (cwd or Path.cwd()).resolve()
    return f"sqlite:///{base / 'var' / 'pate.db'}"


def _text(env: Mapping[str, str], name: str, default: str) -> str:
    value = env.get(name, "").strip()
    return value or default


def _choice(env: Mapping[str, str], name: str, default: str, allowed: tuple[str, ...]) -> str:
    value = _text(env, name, default).lower()
    if value not in allowed:
        raise ConfigError(f"{name}={env.get(name)!r}: expected one of {', '.join(allowed)}")
    return value


def _address(env: Mapping[str, str], name: str, default: str) -> str:
    value = _text(env, name, default)
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f"{name}={value!r}: expected HOST:PORT, e.g. 127.0.0.1:50051")
    return value


def _positive_float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = _text(env, name, str(default))
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"{name}={raw!r}: expected a positive number of seconds")
    return value


def _positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = _text(env, name, str(default))
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a whole number") from None
    if value < 1:
        raise ConfigError(f"{name}={raw!r}: expected a whole number of at least 1")
    return value


def _url(env: Mapping[str, str], name: str, default: str, schemes: tuple[str, ...]) -> str:
    value = _text(env, name, default)
    scheme = value.partition(":")[0].partition("+")[0].lower()
    if scheme not in schemes or "://" not in value:
        raise ConfigError(f"{name}={value!r}: expected a URL starting with {' or '.join(schemes)}://")
    return value


def _link_base(env: Mapping[str, str]) -> str:
    if not _text(env, "PATE_ACCOUNT_LINK_BASE", ""):
        return ""
    return _url(env, "PATE_ACCOUNT_LINK_BASE", "", ("http", "https")).rstrip("/")


def _addresses(env: Mapping[str, str], name: str) -> frozenset[str]:
    """IP addresses, or networks as ``10.244.0.0/16`` (a Kubernetes pod network, where the
    front end's pods have no fixed address)."""
    raw = _text(env, name, "")
    out = set()
    for part in filter(None, (p.strip() for p in raw.split(","))):
        try:
            out.add(str(ipaddress.ip_network(part)) if "/" in part else str(ipaddress.ip_address(part)))
        except ValueError:
            raise ConfigError(f"{name}: {part!r} is not an IP address or network (host bits unset)") from None
    return frozenset(out)


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Read the settings from ``environ`` (default: the process environment)."""
    env = os.environ if environ is None else environ
    return Settings(
        database_url=_url(env, "PATE_DATABASE_URL", default_database_url(), ("sqlite", "postgresql")),
        nats_url=_url(env, "PATE_NATS_URL", "nats://127.0.0.1:4222", ("nats", "tls", "ws", "wss")),
        log_level=_choice(env, "PATE_LOG_LEVEL", "info", LOG_LEVELS),
        log_format=_choice(env, "PATE_LOG_FORMAT", "json", LOG_FORMATS),
        orders_addr=_address(env, "PATE_ORDERS_ADDR", "127.0.0.1:50051"),
        reports_addr=_address(env, "PATE_REPORTS_ADDR", "127.0.0.1:50054"),
        resolver_addr=_address(env, "PATE_RESOLVER_ADDR", "127.0.0.1:0"),
        intel_addr=_address(env, "PATE_INTEL_ADDR", "127.0.0.1:0"),
        gitm_addr=gitm_address(env),
        deadline_poll_seconds=_positive_float(env, "PATE_DEADLINE_POLL_SECONDS", 5.0),
        worker_batch=_positive_int(env, "PATE_WORKER_BATCH", DEFAULT_WORKER_BATCH),
        admin_token=env.get("PATE_ADMIN_TOKEN", "").strip(),
        admiral_token=env.get("PATE_ADMIRAL_TOKEN", "").strip(),
        session_ttl_seconds=_positive_float(env, "PATE_SESSION_TTL_SECONDS", 12 * 3600.0),
        trusted_proxies=_addresses(env, "PATE_TRUSTED_PROXIES"),
        account_link_base=_link_base(env),
        metrics_addr=_metrics_addr(env),
        otlp_endpoint=_otlp(env),
        stream_replicas=_positive_int(env, "PATE_STREAM_REPLICAS", 1),
        ack_wait_seconds=_positive_float(env, "PATE_ACK_WAIT_SECONDS", 2.0),
        outbox_retention_hours=_retention(env),
        migrate_at_start=_switch(env, "PATE_MIGRATE_AT_START", True),
        db_pool_size=_count(env, "PATE_DB_POOL_SIZE", least=1),
        db_max_overflow=_count(env, "PATE_DB_MAX_OVERFLOW", least=0),
        db_prepared_statements=_switch(env, "PATE_DB_PREPARED_STATEMENTS", True),
    )


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = _text(env, name, "").lower()
    if not raw:
        return default
    if raw not in ("0", "1"):
        raise ConfigError(f"{name}={env.get(name)!r}: expected 1 or 0")
    return raw == "1"


def _count(env: Mapping[str, str], name: str, least: int, most: int = 1000) -> int | None:
    """A whole number from ``least`` to ``most``, or None when the variable is unset."""
    raw = _text(env, name, "")
    if not raw:
        return None
    if not raw.isdigit() or not least <= int(raw) <= most:
        raise ConfigError(f"{name}={env.get(name)!r}: expected a whole number from {least} to {most}")
    return int(raw)


def gitm_address(environ: Mapping[str, str] | None = None) -> str | None:
    """PATE_GITM_ADDR alone, or None when no GITM is configured: the resolver asks it once a
    turn, and reading every setting for it cost a quarter of a millisecond."""
    env = os.environ if environ is None else environ
    gitm = _text(env, "PATE_GITM_ADDR", "")
    return _address(env, "PATE_GITM_ADDR", gitm) if gitm else None


def _retention(env: Mapping[str, str]) -> float:
    hours = _positive_float(env, "PATE_OUTBOX_RETENTION_HOURS", 168.0)
    if hours < 24:  # JetStream's duplicate window: a msg_id must stay known that long
        raise ConfigError(
            f"PATE_OUTBOX_RETENTION_HOURS={hours:g}: expected at least 24 (the duplicate window)"
        )
    return hours


def _metrics_addr(env: Mapping[str, str]) -> str:
    value = _text(env, "PATE_METRICS_ADDR", "")
    return "" if value == "0" else _address(env, "PATE_METRICS_ADDR", value) if value else ""


def _otlp(env: Mapping[str, str]) -> str:
    value = _text(env, "PATE_OTLP_ENDPOINT", "")
    return _url(env, "PATE_OTLP_ENDPOINT", value, ("http", "https")) if value else ""
