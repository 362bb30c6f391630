"""The NATS JetStream bus: one stream, subjects ``pate.<stage>.<campaign>``.

The campaign id is the last subject token so that work can later be
partitioned per campaign (a consumer filtering ``pate.turn_closed.<id>``).
Every event has a deterministic ``Nats-Msg-Id`` built from (campaign, turn,
stage); JetStream drops a second publish of the same id inside the
duplicate window, which makes outbox re-publication after a crash harmless.

The package also holds the outbox (``outbox``) and its relay (``relay``), the idempotent durable consumers
(``consumer``) and the local nats-server and cluster launchers (``natsserver``, ``natscluster``).
May import: ``services.platform.store``, ``services.platform.telemetry``, ``config``, ``faults``.
Knows nothing of gRPC or of the security package.
"""

from __future__ import annotations

import os
import re
import ssl
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import nats
import nats.errors
from nats.aio.client import Client as NatsClient
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NotFoundError

from services.platform.telemetry import tracing
from services.platform.telemetry.logging import get_logger

STREAM = "PATE"
SUBJECT_PREFIX = "pate"
DUPLICATE_WINDOW_S = 24 * 3600.0
MAX_AGE_S = 90 * 24 * 3600.0  # events are kept for replay and audit of a season's campaigns

TURN_CLOSED = "turn_closed"
TURN_RESOLVED = "turn_resolved"
INTEL_READY = "intel_ready"
REPORTS_READY = "reports_ready"
TURN_OPENED = "turn_opened"
CAMPAIGN_EVENTS = "campaign_events"
ORDERS_AUDIT = "orders_audit"
STAGES = (TURN_CLOSED, TURN_RESOLVED, INTEL_READY, REPORTS_READY, TURN_OPENED, CAMPAIGN_EVENTS, ORDERS_AUDIT)

MSG_ID_HEADER = "Nats-Msg-Id"
TRACE_HEADER = "traceparent"  # W3C trace context, with "tracestate" (services.platform.telemetry.tracing)
CAMPAIGN_HEADER = "Pate-Campaign"
TURN_HEADER = "Pate-Turn"

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
log = get_logger(__name__)


def _check_token(kind: str, value: str) -> str:
    if not _TOKEN.fullmatch(value):
        raise ValueError(f"{kind} {value!r} cannot be a subject token (letters, digits, '_' and '-' only)")
    return value


def subject(stage: str, campaign: str) -> str:
    """``pate.<stage>.<campaign>``; campaign ``*`` gives the filter for every campaign."""
    token = campaign if campaign in ("*", ">") else _check_token("campaign id", campaign)
    return f"{SUBJECT_PREFIX}.{_check_token('stage', stage)}.{token}"


def stage_filter(stage: str) -> str:
    """Filter subject matching a stage for every campaign: ``pate.<stage>.*``."""
    return f"{SUBJECT_PREFIX}.{_check_token('stage', stage)}.*"


def campaign_of(subj: str) -> str | None:
    parts = subj.split(".")
    return parts[2] if len(parts) == 3 and parts[0] == SUBJECT_PREFIX else None


def msg_id(campaign: str, turn: int, stage: str, *extra: str | int) -> str:
    """Deterministic message id, e.g. ``c1:3:turn_closed``; ``extra`` tokens for several per stage."""
    return ":".join(str(p) for p in (campaign, turn, stage, *extra))


def event_headers(
    campaign: str | None = None, turn: int | None = None, parent: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Headers for an event: the current span's trace context (outside any span, the one of
    ``parent``, the headers of the message being handled), plus campaign and turn if given."""
    headers = tracing.inject(parent=parent)
    if campaign is not None:
        headers[CAMPAIGN_HEADER] = campaign
    if turn is not None:
        headers[TURN_HEADER] = str(turn)
    return headers


def nats_tls(environ: Mapping[str, str] | None = None) -> ssl.SSLContext | None:
    """TLS to NATS verified against PATE_NATS_CA (a private CA, e.g. the PATE CA in
    Kubernetes); unset: a tls:// URL is verified against the system's CAs."""
    ca = (os.environ if environ is None else environ).get("PATE_NATS_CA", "").strip()
    return ssl.create_default_context(cafile=ca) if ca else None


def servers(url: str) -> list[str]:
    """``nats://a:4222,nats://b:4222``: every node of a cluster, so the first connection finds one up."""
    return [u.strip() for u in url.split(",") if u.strip()]


def redact_url(url: str) -> str:
    """The URL without its user and password, for logs."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]))


async def connect(url: str, name: str) -> tuple[NatsClient, JetStreamContext]:
    """Connect, retrying forever (also for the first connection), and log connection changes
    (the URL without credentials)."""
    shown = redact_url(url)

    async def on_error(exc: Exception) -> None:
        log.warning("nats.error", url=shown, error=repr(exc))

    async def on_disconnect() -> None:
        log.warning("nats.disconnected", url=shown)

    async def on_reconnect() -> None:
        log.info("nats.reconnected", url=shown)

    async def on_closed() -> None:
        log.info("nats.closed", url=shown)

    nc = await nats.connect(
        servers=servers(url),
        tls=nats_tls(),
        name=name,
        allow_reconnect=True,
        max_reconnect_attempts=-1,
        reconnect_time_wait=1,
        connect_timeout=2,
        error_cb=on_error,
        disconnected_cb=on_disconnect,
        reconnected_cb=on_reconnect,
        closed_cb=on_closed,
    )
    log.info("nats.connected", url=shown, client=name)
    return nc, nc.jetstream(timeout=5)


def stream_config(replicas: int = 1) -> StreamConfig:
    """The PATE stream; ``replicas`` copies on as many nodes of a NATS cluster (1 on one server)."""
    return StreamConfig(
        name=STREAM,
        description="PATE turn pipeline events",
        subjects=[f"{SUBJECT_PREFIX}.>"],
        retention=RetentionPolicy.LIMITS,
        storage=StorageType.FILE,
        discard=DiscardPolicy.OLD,
        max_age=MAX_AGE_S,
        duplicate_window=DUPLICATE_WINDOW_S,
        num_replicas=replicas,
    )


def stream_differs(have: Any, want: StreamConfig, replicas: int | None) -> bool:
    return bool(
        have.subjects != want.subjects
        or have.duplicate_window != want.duplicate_window
        or have.max_age != want.max_age
        or (replicas is not None and have.num_replicas != replicas)
    )


async def ensure_stream(js: JetStreamContext, replicas: int | None = None) -> None:
    """Create the stream, or bring its limits in line; safe to call from every process at once.

    ``replicas`` None (the consumers' own check) creates the stream with one replica and never
    changes the count of an existing stream; the service start-up passes PATE_STREAM_REPLICAS.
    """
    want = stream_config(replicas or 1)
    for _attempt in range(3):
        try:
            info = await js.stream_info(STREAM)
        except NotFoundError:
            try:
                await js.add_stream(config=want)
                log.info("nats.stream_created", stream=STREAM)
                return
            except BadRequestError:
                continue  # another process created it first: look again
        if stream_differs(info.config, want, replicas):
            await _update_stream(js, want)
        return
    raise RuntimeError(f"could not create or read JetStream stream {STREAM}")


async def _update_stream(js: JetStreamContext, want: StreamConfig) -> None:
    """Bring the stream's limits in line where this process's NATS user may.

    A service's own user may not change the stream (services/platform/bus/permissions.py): the
    server drops the request unanswered. The stream works as it is, so the service starts and
    says what differs; the operator's ``pate stream ensure`` changes it."""
    try:
        await js.update_stream(config=want)
    except (TimeoutError, nats.errors.TimeoutError):
        log.warning(
            "nats.stream_differs",
            stream=STREAM,
            hint="this user may not change the stream: run `pate stream ensure` as the operator's user",
        )
        return
    log.info("nats.stream_updated", stream=STREAM)
