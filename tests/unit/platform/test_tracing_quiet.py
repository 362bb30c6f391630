"""Traces that say something: a periodic poll opens no trace of its own, and a publish that
JetStream found a duplicate of (another SQLite relay's) exports no span."""

from __future__ import annotations

import asyncio

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from services.platform.runtime import runner
from services.platform.telemetry import tracing


@pytest.fixture
def exported(monkeypatch: pytest.MonkeyPatch) -> InMemorySpanExporter:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(tracing, "tracer", provider.get_tracer("test"))
    return exporter


def test_a_dropped_span_is_not_exported_kept_and_failed_ones_are(exported: InMemorySpanExporter) -> None:
    with tracing.kept_span("publish pate.turn_closed.a") as keep:
        carried = tracing.inject()
        keep.it = False  # a duplicate: another relay published it
    with tracing.kept_span("publish pate.turn_closed.b"):
        pass
    with pytest.raises(RuntimeError), tracing.kept_span("publish pate.turn_closed.c") as keep:
        keep.it = False
        raise RuntimeError("refused")
    assert [s.name for s in exported.get_finished_spans()] == [
        "publish pate.turn_closed.b",
        "publish pate.turn_closed.c",
    ]
    assert "traceparent" in carried  # the dropped span's context still travelled while it was open


def test_a_periodic_tick_that_does_nothing_opens_no_trace(exported: InMemorySpanExporter) -> None:
    polls = 0

    async def tick(_engine: object) -> None:
        nonlocal polls
        polls += 1

    async def scenario() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(runner._every(0.01, tick, None, stop))  # type: ignore[arg-type]
        while polls < 5:
            await asyncio.sleep(0.01)
        stop.set()
        await task

    asyncio.run(scenario())
    assert polls >= 5 and exported.get_finished_spans() == ()
