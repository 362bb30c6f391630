"""Spans nobody receives are not recorded, yet their trace ids still reach
the logs and the headers; once an exporter is installed every trace is recorded."""

from __future__ import annotations

from opentelemetry.sdk.trace import TracerProvider

from services.platform.telemetry import tracing


def test_without_an_exporter_spans_carry_ids_but_are_not_recorded() -> None:
    sampler = tracing._RecordWhenExported()
    tracer = TracerProvider(sampler=sampler).get_tracer("t")
    with tracer.start_as_current_span("call") as span:
        ctx = span.get_span_context()
        assert ctx.is_valid and not ctx.trace_flags.sampled
        assert not span.is_recording()
        with tracer.start_as_current_span("stage") as child:  # one trace id through the turn
            assert child.get_span_context().trace_id == ctx.trace_id
        carrier = tracing.inject()
    assert int(carrier["traceparent"][-2:], 16) & 1 == 0  # told downstream: not sampled
    sampler.export()
    with tracer.start_as_current_span("call") as span:
        assert span.is_recording() and span.get_span_context().trace_flags.sampled


def test_the_interceptor_leaves_health_and_reflection_untraced() -> None:
    assert tracing.traced("/pate.v1.OrderDesk/SubmitOrders")
    assert not tracing.traced("/grpc.health.v1.Health/Check")
    assert not tracing.traced("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo")
