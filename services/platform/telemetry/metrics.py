"""Prometheus metrics of every PATE process (prometheus-client, default registry).

Each process serves ``/metrics`` on PATE_METRICS_ADDR (HOST:PORT; empty or
``0`` switches it off).  Counters and histograms are updated where the work
happens (the gRPC interceptor, the order desk, logins, the consumers); the
gauges that describe shared state (outbox, consumers, campaigns) are refreshed
by ``services.platform.runtime.gauges.poll_gauges`` every few seconds.  Other modules may register their own
metrics on the default registry: they are served too.

The outbox and campaign gauges describe the one shared database, so every
process reports the same figure: aggregate them with ``max``, not ``sum``.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from time import perf_counter, thread_time
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, start_http_server

from services.platform.telemetry.logging import get_logger

log = get_logger(__name__)

# Latency buckets in seconds: from a cached report read to a grand1805 turn.
_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

GRPC_CALLS = Counter("pate_grpc_server_calls", "gRPC calls handled, by method and status", ["method", "code"])
GRPC_SECONDS = Histogram(
    "pate_grpc_server_seconds", "gRPC call latency by method", ["method"], buckets=_BUCKETS
)
ORDERS_ACCEPTED = Counter("pate_orders_accepted", "ship orders accepted by the order desk")
SUBMISSIONS_REFUSED = Counter(
    "pate_order_submissions_refused", "order submissions refused as a whole, by reason", ["reason"]
)
LOGINS_FAILED = Counter("pate_logins_failed", "player logins refused, by reason", ["reason"])
STAGE_SECONDS = Histogram(
    "pate_turn_stage_seconds",
    "time a consumer spent on one message of its stage (resolve, intel, reports, next turn)",
    ["stage", "outcome"],
    buckets=_BUCKETS,
)
RULES_CPU_SECONDS = Histogram(
    "pate_rules_cpu_seconds",
    "CPU time the rules core took for one turn in a worker (resolve, knowledge): the rest of"
    " the worker's CPU is the service around the rules",
    ["stage"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
CONSUMER_PENDING = Gauge(
    "pate_consumer_pending_messages", "messages of the stream not yet delivered to the consumer", ["consumer"]
)
CONSUMER_ACK_PENDING = Gauge(
    "pate_consumer_ack_pending_messages", "messages delivered and not yet acknowledged", ["consumer"]
)
CONSUMER_REDELIVERED = Gauge(
    "pate_consumer_redelivered_messages", "messages delivered more than once and not yet acked", ["consumer"]
)
OUTBOX_DEPTH = Gauge("pate_outbox_unpublished_rows", "outbox rows not yet published to JetStream")
OUTBOX_OLDEST = Gauge(
    "pate_outbox_oldest_unpublished_age_seconds", "age of the oldest unpublished outbox row (0: none)"
)
OUTBOX_PRUNED = Counter("pate_outbox_pruned_rows", "published outbox rows deleted past their retention")
CAMPAIGNS = Gauge("pate_campaigns", "campaigns by the status of their current turn", ["status"])
# A turn that could not be resolved waits for its game master (docs/operations.md, "A failed turn").
FAILED_TURNS = Gauge("pate_failed_turns", "campaigns whose current turn failed and waits for its game master")
# set where the certificates are read (services/platform/security/certwatch.py), at start and renewal
TLS_CERT_EXPIRY = Gauge(
    "pate_tls_certificate_expiry_timestamp_seconds",
    "not-after time (Unix seconds) of a certificate this process presents, by its file",
    ["file"],
)
TURN_FAILURES = Counter("pate_turn_failures", "turns marked failed, by the stage that gave up", ["stage"])


def parse_addr(value: str) -> tuple[str, int] | None:
    """``HOST:PORT`` -> (host, port); empty or ``0`` -> None (metrics off).  Port 0 = any free port."""
    value = value.strip()
    if value in ("", "0"):
        return None
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"PATE_METRICS_ADDR={value!r}: expected HOST:PORT, e.g. 0.0.0.0:9464, or empty")
    return host.strip("[]"), int(port)


def serve_metrics(addr: str) -> int | None:
    """Serve the default registry on ``addr`` from a daemon thread; returns the bound port."""
    parsed = parse_addr(addr)
    if parsed is None:
        return None
    server, _thread = start_http_server(parsed[1], addr=parsed[0])
    port = int(server.server_port)
    log.info("metrics.serving", addr=addr, port=port)
    return port


def grpc_call(method: str, code: str, seconds: float) -> None:
    _call_counter(method, code).inc()
    _call_timer(method).observe(seconds)


# A labelled child is looked up once per method (and status), not on every call; the
# methods are the server's own (the logging interceptor wraps only handlers that exist).
@functools.lru_cache(maxsize=1024)
def _call_counter(method: str, code: str) -> Any:
    return GRPC_CALLS.labels(method=method, code=code)


@functools.lru_cache(maxsize=1024)
def _call_timer(method: str) -> Any:
    return GRPC_SECONDS.labels(method=method)


@contextlib.contextmanager
def stage_timer(stage: str) -> Iterator[None]:
    """Observe the block's duration under ``stage`` with outcome ``ok`` or ``error``."""
    started, outcome = perf_counter(), "error"
    try:
        yield
        outcome = "ok"
    finally:
        STAGE_SECONDS.labels(stage=stage, outcome=outcome).observe(perf_counter() - started)


class RulesClock:
    """The CPU time of this thread inside a ``rules_cpu`` block, read after it."""

    seconds = 0.0

    @property
    def ms(self) -> float:
        return round(1000 * self.seconds, 2)


@contextlib.contextmanager
def rules_cpu(stage: str) -> Iterator[RulesClock]:
    """Observe the CPU time (this thread's: a worker's other threads run meanwhile) the block
    spends in the rules core under ``stage``; the clock it yields gives it to a log line."""
    clock, started = RulesClock(), thread_time()
    try:
        yield clock
    finally:
        clock.seconds = thread_time() - started
        RULES_CPU_SECONDS.labels(stage=stage).observe(clock.seconds)
