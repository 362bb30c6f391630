"""The web desk's HTTP server: uvicorn, held against slow and many connections.

uvicorn's own ``limit_concurrency`` counts open *connections*, so two hundred clients that
trickle their headers a byte at a time used to make every page answer 503, ``/healthz``
included. Here instead (docs/security.md, "Slow connections"):

- each request must arrive whole in time: its headers within ``header_seconds`` of its first
  byte (or of the connection), its body within ``body_seconds`` of the headers; a connection
  that misses its deadline is closed (uvicorn/h11 have no such deadline of their own);
- the concurrency limit counts requests the application is working on (``InFlightLimit``),
  not connections waiting to be read, and never refuses the health paths;
- open connections are capped (``max_connections``): past the cap the connection that has been
  reading its request the longest is dropped for the new one, so a flood cannot lock players out;
- health may be served on a listener of its own (``PATE_WEB_HEALTH_ADDR``, the Kubernetes probes').
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

HEALTH_PATHS = frozenset({"/healthz", "/readyz"})


@dataclass(frozen=True)
class Guard:
    """The limits of one listener (their variables and defaults: docs/operations.md)."""

    header_seconds: float = 10.0
    body_seconds: float = 30.0
    keep_alive_seconds: int = 5
    max_connections: int = 2048
    max_in_flight: int = 200
    max_header_bytes: int = 16 * 1024


def guarded_protocol(guard: Guard) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a deadline for reading each request and a connection cap."""

    class Guarded(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _reading_since: float | None = None  # set while a request's headers are awaited

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > guard.max_connections:
                _drop_oldest_reader(self.connections, self)
            self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_deadline()
            self._reading_since = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE:
                self._await_headers()  # the next request of a kept-alive connection begins
            super().data_received(data)
            self._follow_state()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._follow_state()

        def _follow_state(self) -> None:
            state = self.conn.their_state
            if state is h11.SEND_BODY and self._reading_since is not None:
                self._reading_since = None  # headers whole: the body's own deadline
                self._set_deadline(guard.body_seconds)
            elif state is not h11.IDLE and state is not h11.SEND_BODY:
                self._cancel_deadline()  # the request is whole (or the connection ends)
                self._reading_since = None

        def _await_headers(self) -> None:
            self._reading_since = time.monotonic()
            self._set_deadline(guard.header_seconds)

        def _set_deadline(self, seconds: float) -> None:
            self._cancel_deadline()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _cancel_deadline(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()  # an app waiting for the body sees http.disconnect

    return Guarded


def _drop_oldest_reader(connections: set[Any], newcomer: Any) -> None:
    """Close the connection that has waited longest for its request's headers (not ``newcomer``)."""
    readers = [c for c in connections if c is not newcomer and getattr(c, "_reading_since", None) is not None]
    if not readers:
        newcomer.transport.close()  # every connection is in real work: the newcomer waits for none
        return
    oldest = min(readers, key=lambda c: c._reading_since)
    oldest.transport.close()


class InFlightLimit:
    """503 beyond ``limit`` requests in the application at once; health is never refused."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.busy = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in HEALTH_PATHS:
            await self.app(scope, receive, send)
            return
        if self.busy >= self.limit:
            busy = PlainTextResponse("the desk is busy: try again in a moment", status_code=503)
            busy.headers["retry-after"] = "2"
            await busy(scope, receive, send)
            return
        self.busy += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.busy -= 1


def health_app(ready: Callable[[], Awaitable[str]] | None = None) -> ASGIApp:
    """The health listener: ``/healthz`` (alive) always answers ok; ``/readyz`` answers ok while
    ``ready`` says nothing is down, else 503 naming what is (services/web/ready.py); anything
    else 404."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path = scope.get("path")
        down = await ready() if path == "/readyz" and ready is not None else ""
        if path not in HEALTH_PATHS:
            response = Response("not found", status_code=404, media_type="text/plain")
        elif down:
            response = Response(f"not ready: {down} not answering", status_code=503, media_type="text/plain")
        else:
            response = Response("ok", media_type="text/plain")
        await response(scope, receive, send)

    return app


class _QuietServer(uvicorn.Server):
    """A second listener in the same process: the main server owns the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def config(app: ASGIApp, host: str, port: int, guard: Guard, **extra: Any) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(guard),
        limit_concurrency=None,  # counted per request by InFlightLimit, not per connection
        timeout_keep_alive=guard.keep_alive_seconds,
        h11_max_incomplete_event_size=guard.max_header_bytes,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=5,
        **extra,
    )


async def serve(
    app: ASGIApp,
    addr: tuple[str, int],
    guard: Guard,
    health: tuple[str, int] | None,
    ready: Callable[[], Awaitable[str]] | None = None,
    **extra: Any,
) -> None:
    """Serve ``app`` (wrapped in the in-flight limit) and, when given, the health listener."""
    main = uvicorn.Server(config(InFlightLimit(app, guard.max_in_flight), *addr, guard, **extra))
    if health is None:
        await main.serve()
        return
    side = _QuietServer(config(health_app(ready), *health, Guard(max_connections=64, max_in_flight=64)))
    side_task = asyncio.create_task(side.serve())
    try:
        await main.serve()
    finally:
        side.should_exit = True
        await side_task
