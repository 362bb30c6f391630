"""gRPC server and client helpers: health, reflection, tracing, logging, metrics, clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import signal
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection
from opentelemetry import trace

from services.platform.security import limits, quoting
from services.platform.security.certwatch import server_credentials
from services.platform.security.field_rules import LimitError
from services.platform.security.tls import TlsSettings, check_bind
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import HotLogger, failure_fields, get_logger

Adder = Callable[[Any, Any], None]
log = get_logger(__name__)
access = HotLogger(__name__)  # the one line of every call
# The liveness probe's health name: SERVING while the process serves, whatever its
# database and bus say (set_serving leaves it alone), so an outage of either
# makes the pods unready but never restarts them; readiness asks "" instead.
LIVENESS = "pate.liveness"
MAX_CONNECTION_AGE_MS = 300_000  # see serve_grpc
MAX_CONNECTION_AGE_GRACE_MS = 90_000
_health: weakref.WeakKeyDictionary[grpc.aio.Server, health_aio.HealthServicer] = weakref.WeakKeyDictionary()
_ports: weakref.WeakKeyDictionary[grpc.aio.Server, int] = weakref.WeakKeyDictionary()
_names: weakref.WeakKeyDictionary[grpc.aio.Server, tuple[str, ...]] = weakref.WeakKeyDictionary()


def trace_metadata() -> list[tuple[str, str]]:
    """Client call metadata carrying the current W3C trace context (``traceparent``), if any.

    Channels made after ``tracing.configure_tracing`` are instrumented and add it themselves;
    this is for callers outside a configured service process."""
    return list(tracing.inject().items())


class _Recorder:
    """Stands in for the server while a generated ``add_*_to_server`` runs, to learn its service names."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self._server = server
        self.names: list[str] = []

    def add_generic_rpc_handlers(self, handlers: Sequence[Any]) -> None:
        for h in handlers:
            name = getattr(h, "service_name", lambda: None)()
            if name and name not in self.names:
                self.names.append(name)
        self._server.add_generic_rpc_handlers(handlers)

    def add_registered_method_handlers(self, name: str, handlers: Any) -> None:
        if name not in self.names:
            self.names.append(name)
        self._server.add_registered_method_handlers(name, handlers)

    def __getattr__(self, item: str) -> Any:
        return getattr(self._server, item)


_MAX_WRAPPED = 1024  # far more than the methods of a server


class LoggingInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Traces each call (its span continues the caller's ``traceparent``), holds its request to
    the limits, logs method, status and duration in one line and counts it (metrics).

    The line is written inside the call's span, so it carries the call's trace id."""

    def __init__(self) -> None:
        self._wrapped: dict[int, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        # The servicers' handlers are fixed objects: each is wrapped once, not per call.
        wrapped = self._wrapped.get(id(handler))
        if wrapped is None or wrapped[0] is not handler:
            wrapped = (handler, _wrap(handler, str(handler_call_details.method)))
            if len(self._wrapped) >= _MAX_WRAPPED:  # handlers made per call would not be kept
                self._wrapped.clear()
            self._wrapped[id(handler)] = wrapped
        return wrapped[1]


def _wrap(handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
    if handler.unary_unary:
        return handler._replace(unary_unary=_unary(handler.unary_unary, method))
    if handler.stream_unary:
        return handler._replace(stream_unary=_unary(handler.stream_unary, method))
    if handler.unary_stream:
        return handler._replace(unary_stream=_streaming(handler.unary_stream, method))
    if handler.stream_stream:
        return handler._replace(stream_stream=_streaming(handler.stream_stream, method))
    return handler


def _status(context: Any, exc: BaseException | None) -> str:
    if isinstance(exc, asyncio.CancelledError | GeneratorExit):  # the caller went away mid-call
        return "CANCELLED"
    if exc is not None and not isinstance(exc, grpc.aio.AbortError):
        return "UNKNOWN"  # an unexpected exception in the servicer
    code = context.code()  # set by abort() or set_code(); None means OK
    return code.name if isinstance(code, grpc.StatusCode) else "OK" if code is None else str(code)


# What a servicer adds to its call's one log line (campaign, player, ...).
_call_fields: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "pate_call_fields", default=None
)


def annotate_call(**fields: Any) -> None:
    """Add ``fields`` to the log line of the call being served: one line per call
    says what it did, rather than a second line of the servicer's own."""
    current = _call_fields.get()
    if current is not None:
        current.update(fields)


def _log_call(method: str, context: Any, started: float, exc: BaseException | None) -> None:
    status = _status(context, exc)
    seconds = time.perf_counter() - started
    metrics.grpc_call(method, status, seconds)
    tracing.end_call(trace.get_current_span(), status, exc)
    ms = round(seconds * 1000, 2)
    fields = _call_fields.get() or {}
    if status == "UNKNOWN":
        access.error("grpc.call", method=method, status=status, ms=ms, exc_info=exc, **fields)
    else:
        access.info("grpc.call", method=method, status=status, ms=ms, **fields)


def _checked(method: str) -> bool:
    """The PATE contracts' methods: their requests are held to services.platform.security.limits."""
    return method.startswith(("/pate.", "/gitm."))


async def _refuse_outside_limits(request: Any, context: Any) -> None:
    try:
        limits.check_metadata(context.invocation_metadata() or ())
        if isinstance(request, Message):
            limits.check_request(request)
    except LimitError as err:
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, quoting.bounded(str(err)))


def _database_unreachable(exc: BaseException) -> bool:
    """SQLAlchemy's OperationalError, found by name: the gRPC layer serves the admiral too, which
    has no database and may not import one (an import-linter contract)."""
    return any(
        c.__name__ == "OperationalError" and c.__module__.startswith("sqlalchemy") for c in type(exc).__mro__
    )


async def _internal(context: Any, method: str, exc: Exception) -> None:
    """Last line of defence: an unexpected exception becomes INTERNAL with a generic message.
    The log names the exception's type and where it was raised, never its text, which may
    quote the input or SQL.  A database that cannot be reached (a failover, a restart, a
    lock not had in time) is UNAVAILABLE instead: gRPC's code for "try again", which every
    client retries; nothing of the call was committed."""
    ids = tracing.current_ids()
    trace_id = ids[0] if ids else "-"
    if _database_unreachable(exc):
        log.warning("grpc.database_unavailable", method=method, **failure_fields(exc))
        await context.abort(
            grpc.StatusCode.UNAVAILABLE, f"the database cannot be reached; try again (trace id {trace_id})"
        )
    log.error("grpc.internal_error", method=method, **failure_fields(exc))
    await context.abort(grpc.StatusCode.INTERNAL, f"internal error (trace id {trace_id})")


def _unary(behavior: Callable[..., Any], method: str) -> Callable[..., Any]:
    checked, traced = _checked(method), tracing.traced(method)

    async def call(request: Any, context: Any) -> Any:
        if not traced:
            return await _logged_unary(behavior, method, checked, request, context)
        with tracing.server_span(method, context.invocation_metadata(), context.peer):
            return await _logged_unary(behavior, method, checked, request, context)

    return call


async def _logged_unary(
    behavior: Callable[..., Any], method: str, checked: bool, request: Any, context: Any
) -> Any:
    started, failure = time.perf_counter(), None
    fields = _call_fields.set({})
    try:
        if checked:
            await _refuse_outside_limits(request, context)
        try:
            result = behavior(request, context)
            return await result if inspect.isawaitable(result) else result
        except (grpc.aio.AbortError, asyncio.CancelledError):
            raise
        except Exception as exc:
            await _internal(context, method, exc)
            raise
    except BaseException as exc:
        failure = exc
        raise
    finally:
        _log_call(method, context, started, failure)
        _call_fields.reset(fields)


def _streaming(behavior: Callable[..., Any], method: str) -> Callable[..., Any]:
    traced = tracing.traced(method)

    async def call(request: Any, context: Any) -> AsyncIterator[Any]:
        spans = contextlib.ExitStack()
        if traced:
            spans.enter_context(tracing.server_span(method, context.invocation_metadata(), context.peer))
        started, failure = time.perf_counter(), None
        with spans:
            try:
                result = behavior(request, context)
                if hasattr(result, "__aiter__"):
                    async for item in result:
                        yield item
                elif inspect.isawaitable(result):
                    await result  # the servicer writes with context.write()
                else:
                    for item in result:
                        yield item
            except BaseException as exc:
                failure = exc
                raise
            finally:
                _log_call(method, context, started, failure)

    return call


async def serve_grpc(
    servicers_and_adders: Sequence[tuple[Any, Any]],
    addr: str,
    service_name: str,
    *,
    interceptors: Sequence[grpc.aio.ServerInterceptor] = (),
    tls: TlsSettings | None = None,
) -> grpc.aio.Server:
    """Start an aio server on ``addr`` (port 0 = any free port, see ``bound_port``).

    Adds each servicer with its generated ``add_*_to_server``, the health
    service (SERVING for "", ``service_name`` and each gRPC service found) and
    server reflection.  Every call is traced (OpenTelemetry, W3C ``traceparent``)
    and goes through ``LoggingInterceptor``.
    With ``tls`` serving (PATE_TLS_CERT/KEY) the port speaks only TLS, and
    only to clients with a certificate when PATE_TLS_CLIENT_CA is set; a
    plaintext port on a non-loopback address is refused (services/platform/security/tls.py).
    """
    tls = tls or TlsSettings()
    check_bind(addr, tls)
    server = grpc.aio.server(
        interceptors=[LoggingInterceptor(), *interceptors],
        options=[
            ("grpc.max_receive_message_length", limits.MAX_MESSAGE_BYTES),
            ("grpc.max_metadata_size", limits.MAX_METADATA_BYTES),
            # clients balance over the addresses their name resolved to when they connected; a
            # connection closed after 5 minutes makes them resolve it again, so a pod added by a
            # scale-up gets calls within minutes (the grace outlasts a 60 s long poll)
            ("grpc.max_connection_age_ms", MAX_CONNECTION_AGE_MS),
            ("grpc.max_connection_age_grace_ms", MAX_CONNECTION_AGE_GRACE_MS),
        ],
    )
    recorder = _Recorder(server)
    for pair in servicers_and_adders:
        servicer, adder = _servicer_and_adder(pair)
        adder(servicer, recorder)
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    names = [*recorder.names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name]
    reflection.enable_server_reflection([*names, reflection.SERVICE_NAME], server)
    if tls.serving:
        port = server.add_secure_port(addr, server_credentials(tls))
    else:
        port = server.add_insecure_port(addr)
    if port == 0:
        raise OSError(f"{service_name}: cannot listen on {addr}")
    await server.start()
    for name in ("", service_name, *recorder.names, LIVENESS):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    _health[server] = health
    _names[server] = ("", service_name, *recorder.names)
    _ports[server] = port
    mode = "mtls" if tls.client_ca else "tls" if tls.serving else "plaintext"
    log.info("grpc.serving", addr=addr, port=port, services=recorder.names, transport=mode)
    return server


def _servicer_and_adder(pair: tuple[Any, Any]) -> tuple[Any, Adder]:
    """Accept (servicer, add_fn) or (add_fn, servicer): the adder is the plain function."""
    first, second = pair
    if inspect.isroutine(first) and not inspect.isroutine(second):
        return second, first
    return first, second


async def set_serving(server: grpc.aio.Server, serving: bool) -> None:
    """Report every service of ``server`` SERVING or NOT_SERVING (what its dependencies allow)."""
    health = _health.get(server)
    if health is None:
        return
    status = health_pb2.HealthCheckResponse.SERVING if serving else health_pb2.HealthCheckResponse.NOT_SERVING
    for name in _names.get(server, ("",)):
        await health.set(name, status)


def bound_port(server: grpc.aio.Server) -> int:
    """The TCP port ``serve_grpc`` bound (useful with ``127.0.0.1:0``)."""
    return _ports[server]


def install_stop_signals(stop: asyncio.Event) -> None:
    """Set ``stop`` on SIGTERM or SIGINT (from the running event loop)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread / platform
            loop.add_signal_handler(sig, _on_signal, stop, sig)


def _on_signal(stop: asyncio.Event, sig: signal.Signals) -> None:
    log.info("shutdown.signal", signal=sig.name)
    stop.set()


async def run_until_signal(
    server: grpc.aio.Server | None,
    *tasks: asyncio.Task[Any],
    stop: asyncio.Event | None = None,
    grace: float = 5.0,
    task_timeout: float = 30.0,
) -> None:
    """Serve until SIGTERM/SIGINT (or ``stop``, or a task ending), then shut down in order.

    Health turns NOT_SERVING, the server stops taking calls and finishes
    those in flight (``grace`` seconds), ``stop`` is set so that workers finish
    the message in hand, and tasks still running after ``task_timeout`` are
    cancelled (their unacked messages are redelivered to another worker).
    """
    stop = stop or asyncio.Event()
    install_stop_signals(stop)
    stop_wait = asyncio.ensure_future(stop.wait())
    await asyncio.wait([stop_wait, *tasks], return_when=asyncio.FIRST_COMPLETED)
    stop_wait.cancel()
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            log.error("shutdown.task_failed", task=task.get_name(), exc_info=task.exception())
    stop.set()
    if server is not None:
        health = _health.get(server)
        if health is not None:
            await health.enter_graceful_shutdown()
        await server.stop(grace)
    if tasks:
        _done, pending = await asyncio.wait(tasks, timeout=task_timeout)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    log.info("shutdown.complete")
