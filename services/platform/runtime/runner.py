"""The main loop every service process shares: settings, logging, database,
bus, its outbox relay, its stage consumers, its gRPC server, and a clean stop
on SIGTERM or SIGINT (the message in hand is finished or left for redelivery)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError

from services.platform import bus
from services.platform.bus.consumer import IdempotentConsumer
from services.platform.bus.relay import OutboxRelay
from services.platform.config import ConfigError, Settings, load_settings
from services.platform.processes import die_with_launcher
from services.platform.runtime import gauges, heap
from services.platform.runtime.database import check_writable, service_engine
from services.platform.security.tls import check_bind, load_tls
from services.platform.store.db import current_revision, head_revision, migrate, schema_is_current
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import configure_logging, failure_fields, get_logger

Handler = Callable[[Connection, bytes, dict[str, str]], None]


@dataclass(frozen=True)
class Stage:
    """A durable consumer of one stage's events (pate.<stage>.*)."""

    durable: str
    stage: str
    handler: Handler
    # called in the event loop after a batch whose transactions queued events committed (the
    # outbox relay is woken then too): what else in the process waits on this stage's work
    after_commit: Callable[[], None] | None = None
    jitter: bool = False  # full jitter on its back-off (IdempotentConsumer)


WORKER_RELAY_POLL_S = 1.0  # the relay of a worker is woken after each commit; this is its fallback


@dataclass
class Service:
    name: str
    stages: Sequence[Stage] = ()
    # (add_servicer_to_server, servicer factory taking the engine and settings)
    grpc: Sequence[tuple[Callable[[Any, Any], None], Callable[[Engine, Settings], Any]]] = ()
    grpc_addr: Callable[[Settings], str] | None = None
    periodic: Sequence[tuple[Callable[[Settings], float], Callable[[Engine], Awaitable[None]]]] = ()
    # How often the outbox relay looks for rows nobody told it of.  A worker's consumers wake
    # it after every commit, so its poll only picks up what other processes left: a worker
    # polls less often, and its idle CPU (a 0.15-core pod's) goes to turns.
    relay_poll_seconds: float = 0.2
    # Loads what the handlers need (the map and the rules data) before the process serves, so a
    # bad data file stops the start and the first turn does not pay for it.
    warm_up: Callable[[], object] | None = None
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)


async def run_service(svc: Service, settings: Settings | None = None) -> int:
    die_with_launcher()
    try:
        settings = settings or load_settings()
    except ConfigError as err:  # a bad PATE_* value: one line, no traceback
        print(f"pate-{svc.name}: {err}", file=sys.stderr)
        return 2
    try:
        check_writable(settings.database_url)
    except ConfigError as err:  # e.g. the default SQLite file in a read-only folder
        print(f"pate-{svc.name}: {err}", file=sys.stderr)
        return 2
    tls = load_tls()
    if svc.grpc_addr is not None:
        check_bind(svc.grpc_addr(settings), tls)  # before any work: no plaintext on the network
    configure_logging(svc.name, settings)
    log = get_logger(svc.name)
    tracing.configure_tracing(svc.name, settings.otlp_endpoint)
    metrics.serve_metrics(settings.metrics_addr)
    engine = service_engine(settings.database_url, svc.name, settings)
    ready = migrated_when_reachable if settings.migrate_at_start else current_when_reachable
    if not await ready(engine, log):
        engine.dispose()
        return 1
    if svc.warm_up is not None:
        await asyncio.to_thread(svc.warm_up)
    heap.settle()  # after loading: what is loaded stays out of the collector's walks
    nc, js = await bus.connect(settings.nats_url, f"pate-{svc.name}")
    await _until_done(lambda: bus.ensure_stream(js, settings.stream_replicas), log)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    server = await _grpc_server(svc, engine, settings, tls)
    runners = _runners(svc, settings, engine, js, stop)
    if server is not None:
        runners.append(watch_health(server, nc, engine, stop))
    log.info("service_started", stages=[s.stage for s in svc.stages], grpc=bool(server))
    try:
        await asyncio.gather(*runners)
    finally:
        if server is not None:
            await server.stop(grace=5)
        await nc.drain()
        engine.dispose()
        log.info("service_stopped")
        tracing.shutdown_tracing()
    return 0


async def _grpc_server(svc: Service, engine: Engine, settings: Settings, tls: Any) -> Any:
    """The service's gRPC server (health and reflection included, workers too), or None."""
    if svc.grpc_addr is None:
        return None
    from services.platform.runtime.grpcutil import serve_grpc

    servicers = [(adder, factory(engine, settings)) for adder, factory in svc.grpc]
    return await serve_grpc(servicers, svc.grpc_addr(settings), svc.name, tls=tls)


def _runners(
    svc: Service, settings: Settings, engine: Engine, js: Any, stop: asyncio.Event
) -> list[Awaitable[Any]]:
    """What the process runs until ``stop``: its outbox relay, stage consumers, gauges and ticks."""
    relay = OutboxRelay(engine, js, poll_interval=svc.relay_poll_seconds)
    runners: list[Awaitable[Any]] = [relay.run(stop)]
    for st in svc.stages:
        # after_commit: the event the handler wrote leaves now, not at the next poll
        consumer = IdempotentConsumer(
            engine,
            js,
            st.durable,
            bus.subject(st.stage, "*"),
            st.handler,
            batch=settings.worker_batch,
            ack_wait=settings.ack_wait_seconds,
            after_commit=relay.notify if st.after_commit is None else _both(relay.notify, st.after_commit),
            jitter=st.jitter,
        )
        runners.append(consumer.run(stop))
    if settings.metrics_addr:
        durables = [st.durable for st in svc.stages]
        # campaigns by status come from one service (orders), not from every process
        runners.append(
            gauges.poll_gauges(engine, js, bus.STREAM, durables, stop, campaigns=svc.name == "orders")
        )
    for interval, tick in svc.periodic:
        runners.append(_every(interval(settings), tick, engine, stop))
    return runners


def _both(first: Callable[[], None], then: Callable[[], None]) -> Callable[[], None]:
    def both() -> None:
        first()
        then()

    return both


DB_START_WAIT_S = 60.0  # a failover takes seconds; past this the orchestrator restarts the pod


async def migrated_when_reachable(engine: Engine, log: Any, wait_s: float = DB_START_WAIT_S) -> bool:
    """Migrate once the database answers, waiting up to ``wait_s``: each try and the giving
    up are one log line naming the driver's error class, never its text (no traceback, no
    statement, no host)."""

    def upgrade() -> bool:
        before = current_revision(engine)
        migrate(engine)
        after = current_revision(engine)
        if after != before:  # one line, where Alembic would have written one per step
            log.info("database_migrated", from_revision=before or "empty", to_revision=after)
        return True

    return await _when_reachable(upgrade, log, wait_s)


async def current_when_reachable(engine: Engine, log: Any, wait_s: float = DB_START_WAIT_S) -> bool:
    """With PATE_MIGRATE_AT_START=0 (Kubernetes: a Job migrates, ``pate db wait-current`` in an
    init container waits for it): start only on a database at this release's newest revision."""

    def check() -> bool:
        _ping(engine)  # an unreachable database is waited for, not taken for an old one
        if schema_is_current(engine):
            return True
        log.error("database_not_current", head=head_revision(), found=current_revision(engine) or "empty")
        return False

    return await _when_reachable(check, log, wait_s)


async def _when_reachable(step: Callable[[], bool], log: Any, wait_s: float) -> bool:
    delay, waited = 0.5, 0.0
    while True:
        try:
            return await asyncio.to_thread(step)
        except OperationalError as exc:
            error = type(getattr(exc, "orig", None) or exc).__name__
            if waited >= wait_s:
                log.error("database_unreachable", error=error, gave_up_after_s=round(waited, 1))
                return False
            log.warning("database_unreachable", error=error, retry_in_s=delay)
            await asyncio.sleep(delay)
            waited += delay
            delay = min(delay * 2, 5.0)


async def _until_done(step: Callable[[], Awaitable[None]], log: Any) -> None:
    """Retry ``step`` (e.g. while a NATS cluster elects its JetStream leader) with back-off."""
    delay = 0.5
    while True:
        try:
            await step()
            return
        except Exception as exc:
            log.warning("startup.retry", error=repr(exc), retry_in_s=delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)


HEALTH_INTERVAL_S = 1.0  # how often the bus and the database are probed
HEALTH_TIMEOUT_S = 2.0  # a database slower than this to answer SELECT 1 counts as down


async def watch_health(server: Any, nc: Any, engine: Engine, stop: asyncio.Event) -> None:
    """Health tells the truth: NOT_SERVING while NATS or the database cannot be
    reached, SERVING again when both answer."""
    from services.platform.runtime.grpcutil import set_serving

    log = get_logger("health")
    serving = True
    probe: asyncio.Future[None] | None = None
    while not stop.is_set():
        db_ok = False
        if probe is None or probe.done():  # never more than one probe thread waiting on the database
            probe = asyncio.ensure_future(asyncio.to_thread(_ping, engine))
        try:
            await asyncio.wait_for(asyncio.shield(probe), timeout=HEALTH_TIMEOUT_S)
            db_ok = True
        except Exception as exc:
            db_error = type(exc).__name__
        else:
            db_error = ""
        ok = bool(nc.is_connected) and db_ok
        if ok != serving and not stop.is_set():
            serving = ok
            await set_serving(server, ok)
            if ok:
                log.info("health.serving")
            else:
                log.warning("health.not_serving", nats=bool(nc.is_connected), database=db_ok, error=db_error)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=HEALTH_INTERVAL_S)


def _ping(engine: Engine) -> None:
    from sqlalchemy import text

    from services.platform.store.db import reader

    with reader(engine) as conn:  # SQLite: a deferred transaction, never the write lock
        conn.execute(text("SELECT 1"))


async def _every(
    seconds: float, tick: Callable[[Engine], Awaitable[None]], engine: Engine, stop: asyncio.Event
) -> None:
    log = get_logger("periodic")
    name = getattr(tick, "__name__", "tick").lstrip("_")
    while not stop.is_set():
        try:
            # no span per tick: a poll that finds nothing is no trace (a tick that does work,
            # e.g. closing a turn, opens its own root span for it)
            await tick(engine)
        except OperationalError as exc:  # the database is away (a failover): the next tick tries again
            log.warning("periodic_database_unavailable", tick=name, **failure_fields(exc))
        except Exception as exc:  # a failed tick is retried on the next one
            log.error("periodic_failed", tick=name, **failure_fields(exc))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=seconds)
