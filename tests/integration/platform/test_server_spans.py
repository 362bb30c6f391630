"""The span of each gRPC call served, opened by the logging interceptor: recorded with the
rpc attributes and status once an exporter is installed, a child of the caller's
``traceparent``, and none for health checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry.instrumentation.grpc import GrpcAioInstrumentorClient
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.telemetry import tracing
from tests.integration.platform.test_grpcutil import ECHO, Echo, add_echo_to_server
from tests.support.aio import run

pytestmark = pytest.mark.integration
CALLER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


@pytest.fixture
def plain_clients() -> Iterator[None]:
    """Client channels not instrumented (a configured service instruments them): this test's
    client sends the ``traceparent`` it is given, not one of a client span of its own."""
    instrumentor = GrpcAioInstrumentorClient()  # type: ignore[no-untyped-call]
    was = instrumentor.is_instrumented_by_opentelemetry
    if was:
        instrumentor.uninstrument()
    yield
    if was:
        instrumentor.instrument()


@pytest.mark.usefixtures("plain_clients")
def test_each_call_has_its_span_in_the_callers_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(tracing, "tracer", provider.get_tracer("test"))

    async def scenario() -> None:
        server = await serve_grpc([(Echo(), add_echo_to_server)], "127.0.0.1:0", "pate.test")
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{bound_port(server)}") as ch:
                await ch.unary_unary(f"/{ECHO}/Trace")(b"", metadata=(("traceparent", CALLER),))
                with pytest.raises(grpc.aio.AioRpcError):
                    await ch.unary_unary(f"/{ECHO}/Missing")(b"")
                await health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest())
        finally:
            await server.stop(None)

    run(scenario())
    spans: dict[str, Any] = {s.name: s for s in exporter.get_finished_spans()}
    assert set(spans) == {f"/{ECHO}/Trace", f"/{ECHO}/Missing"}  # the health check is not traced
    traced, missing = spans[f"/{ECHO}/Trace"], spans[f"/{ECHO}/Missing"]
    assert format(traced.context.trace_id, "032x") == CALLER.split("-")[1]
    assert format(traced.parent.span_id, "016x") == CALLER.split("-")[2]
    assert traced.kind == SpanKind.SERVER and traced.status.status_code != StatusCode.ERROR
    assert dict(traced.attributes) | {"network.peer.address": "-"} == {
        "rpc.system": "grpc",
        "rpc.service": ECHO,
        "rpc.method": "Trace",
        "rpc.grpc.status_code": "OK",
        "network.peer.address": "-",
    }
    assert missing.parent is None  # no traceparent: a trace of its own
    assert missing.attributes["rpc.grpc.status_code"] == "NOT_FOUND"
    assert missing.status.status_code == StatusCode.ERROR
