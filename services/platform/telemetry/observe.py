"""Metrics, request logs and spans for the processes outside the asyncio gRPC runtime: the
web desk (an ASGI app under uvicorn) and the reference GITM land service (a threaded
``grpc.server``).  The gRPC services get the same from their interceptors (grpcutil)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from contextlib import nullcontext
from typing import Any

import grpc
from opentelemetry.trace import SpanKind
from prometheus_client import Counter, Histogram
from starlette.routing import BaseRoute, Match

from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import get_logger

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

WEB_REQUESTS = Counter(
    "pate_web_requests", "web desk requests, by method, page and status", ["method", "page", "status"]
)
WEB_SECONDS = Histogram("pate_web_request_seconds", "web desk request duration, by page", ["page"])
QUIET_PATHS = ("/healthz", "/metrics", "/static/")  # probes and assets: counted, not logged or traced
log = get_logger("web.requests")
grpc_log = get_logger("grpc")


UNMATCHED = "unmatched"  # the page of every path no route takes: 404s make no new series


def page_of(path: str) -> str:
    """The first path segment, for an app whose routes are not known (the label stays a
    handful of values: ids are not pages)."""
    first = path.strip("/").split("/", 1)[0]
    return "/" + first[:32] if first.isascii() and first.replace("-", "").replace("_", "").isalnum() else "/"


def route_of(routes: Sequence[BaseRoute], scope: Scope) -> str:
    """The template of the route that takes the request ("/c/{campaign}/orders"), whatever the
    ids in its path; a route that takes the path but not the method still names it."""
    for route in routes:
        match, _ = route.matches(scope)
        if match is not Match.NONE:
            return str(getattr(route, "path", "")) or "/"
    return UNMATCHED


class ObservedAsgi:
    """Wraps an ASGI app: every HTTP request counted and timed, logged and traced (one span).
    Given the app's routes, a request's page is its route's template, else "unmatched"."""

    def __init__(self, app: App, routes: Sequence[BaseRoute] | None = None) -> None:
        self.app = app
        self.routes = routes

    def page(self, scope: Scope) -> str:
        if self.routes is None:
            return page_of(str(scope.get("path", "")))
        return route_of(self.routes, scope)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        method, path = str(scope.get("method", "")), str(scope.get("path", ""))
        status = {"code": 500}

        async def sending(message: Message) -> None:
            if message.get("type") == "http.response.start":
                status["code"] = int(message.get("status", 500))
            await send(message)

        started = time.perf_counter()
        quiet = path.startswith(QUIET_PATHS)
        page, trace_id = self.page(scope), None
        try:
            if quiet:
                await self.app(scope, receive, sending)
            else:
                headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
                attrs = {"http.request.method": method, "url.path": path[:200], "http.route": page}
                with tracing.span(
                    f"{method} {page}", parent=headers, kind=SpanKind.SERVER, attributes=attrs
                ) as span:
                    ids = tracing.current_ids()
                    trace_id = ids[0] if ids else None
                    await self.app(scope, receive, sending)
                    span.set_attribute("http.response.status_code", status["code"])
        finally:
            seconds = time.perf_counter() - started
            WEB_REQUESTS.labels(method=method[:8], page=page, status=str(status["code"])).inc()
            WEB_SECONDS.labels(page=page).observe(seconds)
            if not quiet:
                log.info(
                    "http_request",
                    method=method[:8],
                    path=path[:200],
                    page=page,
                    status=status["code"],
                    ms=round(seconds * 1000, 1),
                    **({"trace_id": trace_id} if trace_id else {}),
                )


def _correlated(metadata: Any) -> dict[str, str]:
    """The caller's correlation id (``x-pate-call-id``, which PATE's land bridge sends and logs,
    docs/gitm.md "Observability"), bounded, for the call's log line."""
    given = next((str(v) for k, v in metadata or () if k == "x-pate-call-id"), "")
    return {"call_id": given[:64]} if given else {}


class MetricsInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Counts and times every unary call of a threaded gRPC server (pate_grpc_server_*), and,
    health checks and reflection apart, logs it (``grpc.call``, as the asyncio services do) in a
    server span of the caller's trace."""

    def intercept_service(self, continuation: Any, handler_call_details: Any) -> Any:
        handler = continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        method, inner = handler_call_details.method, handler.unary_unary
        metadata, watched = handler_call_details.invocation_metadata, tracing.traced(method)

        def timed(request: Any, context: grpc.ServicerContext) -> Any:
            started, code, failed = time.perf_counter(), "OK", None
            opened = tracing.server_span(method, metadata, context.peer) if watched else nullcontext()
            with opened as span:
                try:
                    return inner(request, context)
                except Exception as exc:
                    code, failed = "UNKNOWN", exc
                    raise
                finally:
                    got = context.code() if hasattr(context, "code") else None
                    status = got.name if got is not None else code
                    seconds = time.perf_counter() - started
                    metrics.grpc_call(method, status, seconds)
                    if span is not None:
                        tracing.end_call(span, status, failed)
                    if watched:
                        ms = round(seconds * 1000, 1)
                        grpc_log.info(
                            "grpc.call", method=method, status=status, ms=ms, **_correlated(metadata)
                        )

        return grpc.unary_unary_rpc_method_handler(
            timed,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
