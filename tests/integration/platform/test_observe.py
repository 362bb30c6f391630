"""The web desk and the reference GITM land service are observed like the gRPC services:
each web request is counted, timed, logged and traced; each GITM call counted and timed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client import REGISTRY
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route

from services.gitm_reference.main import start
from services.platform.telemetry import tracing
from services.platform.telemetry.observe import UNMATCHED, ObservedAsgi, page_of


def _value(name: str, labels: dict[str, str]) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def _page(scope: dict[str, Any], receive: Any, send: Any) -> None:
    code = 404 if scope["path"].startswith("/nowhere") else 200
    await send({"type": "http.response.start", "status": code, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def _get(app: ObservedAsgi, path: str) -> None:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app({"type": "http", "method": "GET", "path": path, "headers": []}, receive, send))
    assert sent[0]["type"] == "http.response.start"


def test_web_requests_are_counted_by_page_and_status_and_logged(capsys: pytest.CaptureFixture[str]) -> None:
    app = ObservedAsgi(_page)
    before = _value("pate_web_requests_total", {"method": "GET", "page": "/orders", "status": "200"})
    missing = _value("pate_web_requests_total", {"method": "GET", "page": "/nowhere", "status": "404"})
    _get(app, "/orders/c-123/BR1SL")
    _get(app, "/nowhere")
    _get(app, "/healthz")
    assert (
        _value("pate_web_requests_total", {"method": "GET", "page": "/orders", "status": "200"}) == before + 1
    )
    assert (
        _value("pate_web_requests_total", {"method": "GET", "page": "/nowhere", "status": "404"})
        == missing + 1
    )
    out = capsys.readouterr()
    logged = out.err + out.out
    assert "http_request" in logged and "/orders/c-123/BR1SL" in logged
    assert "/healthz" not in logged  # probes are counted, not logged


def test_a_page_label_is_one_bounded_segment() -> None:
    assert page_of("/orders/c-1/BR1SL") == "/orders"
    assert page_of("/") == "/"
    assert page_of("/%00weird") == "/"
    assert len(page_of("/" + "a" * 500)) == 33


def _desk_like() -> ObservedAsgi:
    async def page(request: Any) -> PlainTextResponse:
        return PlainTextResponse("ok")

    routes = [
        Route("/c/{campaign}/orders", page, methods=["GET", "POST"]),
        Route("/login", page),
        Mount("/static", routes=[Route("/{name}", page)]),
    ]
    app = Starlette(routes=routes)
    return ObservedAsgi(app, routes=app.routes)


def _series(page: str) -> float:
    return _value("pate_web_request_seconds_count", {"page": page})


def test_a_page_is_its_route_template_and_every_stray_path_is_one_series() -> None:
    """Twenty-five random paths made twenty-five series and span names when the label was the
    first path segment: now they are all "unmatched"."""
    app = _desk_like()
    orders, stray = _series("/c/{campaign}/orders"), _series(UNMATCHED)
    for campaign in ("nl", "trafalgar-2", "x" * 40):
        _get(app, f"/c/{campaign}/orders")
    for n in range(25):
        _get(app, f"/probe-{n}/wp-admin.php")
    assert _series("/c/{campaign}/orders") == orders + 3
    assert _series(UNMATCHED) == stray + 25
    assert _value("pate_web_request_seconds_count", {"page": "/probe-7"}) == 0.0


def test_a_request_log_line_carries_its_trace(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(tracing, "tracer", provider.get_tracer("test"))
    _get(_desk_like(), "/c/nl/orders")
    (span,) = exporter.get_finished_spans()
    assert span.name == "GET /c/{campaign}/orders"
    trace_id = format(span.context.trace_id, "032x")
    out = capsys.readouterr()
    line = next(x for x in (out.err + out.out).splitlines() if "http_request" in x)
    assert trace_id in line and "/c/{campaign}/orders" in line


def test_the_reference_gitm_service_counts_its_calls(tmp_path: Path) -> None:
    running = start("127.0.0.1:0", f"sqlite:///{tmp_path / 'gitm.db'}")
    method = "/grpc.health.v1.Health/Check"
    before = _value("pate_grpc_server_calls_total", {"method": method, "code": "OK"})
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5)
    finally:
        running.server.stop(None)
    assert _value("pate_grpc_server_calls_total", {"method": method, "code": "OK"}) == before + 1


def test_the_reference_gitm_service_logs_its_calls_but_not_its_health(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    running = start("127.0.0.1:0", f"sqlite:///{tmp_path / 'gitm.db'}")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5)
            with pytest.raises(grpc.RpcError):
                ch.unary_unary("/gitm.v1.LandBridge/UnitsNear")(b"", timeout=5)
    finally:
        running.server.stop(None)
    out = capsys.readouterr()
    lines = [x for x in (out.err + out.out).splitlines() if "grpc.call" in x]
    assert len(lines) == 1 and "/gitm.v1.LandBridge/UnitsNear" in lines[0], lines
