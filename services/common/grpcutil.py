"""gRPC server and client helpers: health, reflection, trace ids, logging, clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import signal
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection

from services.common.logging import bind_context, current_trace_id, get_logger, new_trace_id
from services.common.tls import TlsSettings, check_bind, server_credentials

TRACE_METADATA_KEY = "x-trace-id"
Adder = Callable[[Any, Any], None]
log = get_logger(__name__)
_health: weakref.WeakKeyDictionary[grpc.aio.Server, health_aio.HealthServicer] = weakref.WeakKeyDictionary()
_ports: weakref.WeakKeyDictionary[grpc.aio.Server, int] = weakref.WeakKeyDictionary()


def trace_metadata(trace_id: str | None = None) -> list[tuple[str, str]]:
    """Client call metadata carrying the trace id (the bound one, else a new one)."""
    return [(TRACE_METADATA_KEY, trace_id or current_trace_id() or new_trace_id())]


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


class LoggingInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Binds the caller's trace id (or a new one) for the call and logs method, status and duration."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        metadata = dict(handler_call_details.invocation_metadata or ())
        trace_id = str(metadata.get(TRACE_METADATA_KEY) or new_trace_id())
        method = str(handler_call_details.method)
        return _wrap(handler, method, trace_id)


def _wrap(handler: grpc.RpcMethodHandler, method: str, trace_id: str) -> grpc.RpcMethodHandler:
    if handler.unary_unary:
        return handler._replace(unary_unary=_unary(handler.unary_unary, method, trace_id))
    if handler.stream_unary:
        return handler._replace(stream_unary=_unary(handler.stream_unary, method, trace_id))
    if handler.unary_stream:
        return handler._replace(unary_stream=_streaming(handler.unary_stream, method, trace_id))
    if handler.stream_stream:
        return handler._replace(stream_stream=_streaming(handler.stream_stream, method, trace_id))
    return handler


def _status(context: Any, exc: BaseException | None) -> str:
    if isinstance(exc, asyncio.CancelledError):
        return "CANCELLED"
    if exc is not None and not isinstance(exc, grpc.aio.AbortError):
        return "UNKNOWN"  # an unexpected exception in the servicer
    code = context.code()  # set by abort() or set_code(); None means OK
    return code.name if isinstance(code, grpc.StatusCode) else "OK" if code is None else str(code)


def _log_call(method: str, context: Any, started: float, exc: BaseException | None) -> None:
    status = _status(context, exc)
    ms = round((time.perf_counter() - started) * 1000, 2)
    if status == "UNKNOWN":
        log.error("grpc.call", method=method, status=status, ms=ms, exc_info=exc)
    else:
        log.info("grpc.call", method=method, status=status, ms=ms)


def _unary(behavior: Callable[..., Any], method: str, trace_id: str) -> Callable[..., Any]:
    async def call(request: Any, context: Any) -> Any:
        with bind_context(trace_id=trace_id):
            started, failure = time.perf_counter(), None
            try:
                result = behavior(request, context)
                return await result if inspect.isawaitable(result) else result
            except BaseException as exc:
                failure = exc
                raise
            finally:
                _log_call(method, context, started, failure)

    return call


def _streaming(behavior: Callable[..., Any], method: str, trace_id: str) -> Callable[..., Any]:
    async def call(request: Any, context: Any) -> AsyncIterator[Any]:
        with bind_context(trace_id=trace_id):
            started, failure = time.perf_counter(), None
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
    server reflection.  Every call goes through ``LoggingInterceptor``.
    With ``tls`` serving (PATE_TLS_CERT/KEY) the port speaks only TLS, and
    only to clients with a certificate when PATE_TLS_CLIENT_CA is set; a
    plaintext port on a non-loopback address is refused (services/common/tls.py).
    """
    tls = tls or TlsSettings()
    check_bind(addr, tls)
    server = grpc.aio.server(interceptors=[LoggingInterceptor(), *interceptors])
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
    for name in ("", service_name, *recorder.names):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    _health[server] = health
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
