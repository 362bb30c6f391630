"""OpenTelemetry tracing: one trace per turn across every process.

A gRPC call (``server_span``, opened by the services' logging interceptor, reads the
caller's W3C ``traceparent``) or a periodic job starts a span; events written while it is
current carry its ``traceparent`` in their NATS headers (through the outbox);
each consumer continues the trace of the message it handles, so closing a
turn, resolving it, the intelligence, the reports and the opening of the next
turn are one trace.  Every structlog line carries the current ``trace_id``
and ``span_id`` (services.platform.telemetry.logging).

Spans are exported over OTLP/gRPC when PATE_OTLP_ENDPOINT is set.  Without
an exporter they are not recorded (their ids still reach the logs and the
headers, flagged not sampled): recording spans that nobody receives cost
about a tenth of an order submission's time (docs/operations.md, order intake).  With one, the
standard OTEL_TRACES_SAMPLER variables choose (default: every trace).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from opentelemetry import propagate, trace
from opentelemetry.context import Context
from opentelemetry.instrumentation.utils import suppress_instrumentation
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider, sampling
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter
from opentelemetry.sdk.trace.sampling import Sampler
from opentelemetry.trace import SpanKind

# Headers of the W3C trace context (https://www.w3.org/TR/trace-context/) that travel with events.
TRACE_HEADERS = ("traceparent", "tracestate")
_UNTRACED_SERVICES = ("grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection")

tracer = trace.get_tracer("pate")
_installed: list[TracerProvider] = []  # the one provider this process installed


class _RecordWhenExported(Sampler):
    """The standard sampler once an exporter is installed; until then nothing is recorded."""

    def __init__(self) -> None:
        self._when_exported: Sampler | None = None  # set by the first exporter

    def export(self) -> None:
        """An exporter is installed: from now on the SDK's choice (OTEL_TRACES_SAMPLER) applies."""
        if self._when_exported is None:
            self._when_exported = TracerProvider(shutdown_on_exit=False).sampler

    def should_sample(self, *args: Any, **kwargs: Any) -> sampling.SamplingResult:
        # unrecorded, a span still takes its parent's trace id (or a new one)
        chosen = self._when_exported or sampling.ALWAYS_OFF
        return chosen.should_sample(*args, **kwargs)

    def get_description(self) -> str:
        return f"RecordWhenExported({(self._when_exported or sampling.ALWAYS_OFF).get_description()})"


_sampler = _RecordWhenExported()


def configure_tracing(service: str, otlp_endpoint: str = "", exporter: SpanExporter | None = None) -> None:
    """Install the SDK tracer provider once per process (later calls only add exporters)."""
    if not _installed:
        resource = Resource.create({"service.name": f"pate-{service}", "service.namespace": "pate"})
        _installed.append(TracerProvider(resource=resource, sampler=_sampler))
        trace.set_tracer_provider(_installed[0])
        _instrument_grpc_clients()
    provider = _installed[0]
    if otlp_endpoint:
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

        insecure = otlp_endpoint.startswith("http://")
        provider.add_span_processor(
            BatchSpanProcessor(OTLPSpanExporter(endpoint=otlp_endpoint, insecure=insecure))
        )
        _sampler.export()
    if exporter is not None:
        provider.add_span_processor(BatchSpanProcessor(exporter))
        _sampler.export()


@contextlib.contextmanager
def untraced() -> Iterator[None]:
    """Calls made inside make no client spans: a poll every few seconds that finds nothing to
    do would otherwise start a new trace each time (the work it finds gets its own span)."""
    with suppress_instrumentation():
        yield


def shutdown_tracing() -> None:
    """Flush the spans still buffered (at a clean stop)."""
    for provider in _installed:
        provider.force_flush(timeout_millis=5000)


def _instrument_grpc_clients() -> None:
    # outgoing calls (the GITM bridge) carry traceparent and get a client span
    from opentelemetry.instrumentation.grpc import GrpcAioInstrumentorClient, GrpcInstrumentorClient

    instrumentors = (GrpcInstrumentorClient(), GrpcAioInstrumentorClient())  # type: ignore[no-untyped-call]
    for instrumentor in instrumentors:
        if not instrumentor.is_instrumented_by_opentelemetry:
            instrumentor.instrument()


_UNTRACED_PREFIXES = tuple(f"/{s}/" for s in _UNTRACED_SERVICES)


def traced(method: str) -> bool:
    """Health checks and reflection are not traced: a probe every few seconds says nothing."""
    return not method.startswith(_UNTRACED_PREFIXES)


@contextlib.contextmanager
def server_span(method: str, metadata: Any, peer: Callable[[], str]) -> Iterator[trace.Span]:
    """The span of one gRPC call served, in the trace the caller's ``traceparent`` names.

    The logging interceptor opens it itself rather than through the OpenTelemetry gRPC
    interceptor: one wrapper a call instead of two, and the attributes are built only when
    the span is recorded (an exporter is installed), which made the order desk's CPU per
    submission about a tenth lower (docs/operations.md, order intake)."""
    carrier = {m[0]: m[1] for m in metadata or () if m[0] in TRACE_HEADERS}
    context = propagate.extract(carrier) if carrier else None
    with tracer.start_as_current_span(
        method, context=context, kind=SpanKind.SERVER, record_exception=False, set_status_on_exception=False
    ) as current:
        if current.is_recording():
            service, _, name = method.lstrip("/").partition("/")
            current.set_attributes(
                {
                    "rpc.system": "grpc",
                    "rpc.service": service,
                    "rpc.method": name,
                    "network.peer.address": peer()[:80],
                }
            )
        yield current


def end_call(current: trace.Span, status: str, exc: BaseException | None) -> None:
    """The call's gRPC status on its span; an error status for anything but OK."""
    if not current.is_recording():
        return
    current.set_attribute("rpc.grpc.status_code", status)
    if status != "OK":
        if exc is not None and status == "UNKNOWN":
            current.record_exception(exc)
        current.set_status(trace.Status(trace.StatusCode.ERROR, status))


def current_ids() -> tuple[str, str] | None:
    """(trace id, span id) of the current span in hex, or None outside any span."""
    ctx = trace.get_current_span().get_span_context()
    if not ctx.is_valid:
        return None
    return format(ctx.trace_id, "032x"), format(ctx.span_id, "016x")


def inject(
    headers: Mapping[str, str] | None = None, parent: Mapping[str, str] | None = None
) -> dict[str, str]:
    """A copy of ``headers`` with the current trace context; outside any span, ``parent``'s is kept."""
    out = dict(headers or {})
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    if "traceparent" not in carrier and parent:
        carrier = {k: parent[k] for k in TRACE_HEADERS if parent.get(k)}
    out.update(carrier)
    return out


def extract(headers: Mapping[str, str] | None) -> Context:
    """The trace context a message or call carries (an empty context if none)."""
    return propagate.extract(dict(headers or {}))


@contextlib.contextmanager
def span(
    name: str,
    *,
    parent: Mapping[str, str] | None = None,
    kind: SpanKind = SpanKind.INTERNAL,
    attributes: Mapping[str, Any] | None = None,
) -> Iterator[trace.Span]:
    """A current span named ``name``; with ``parent`` headers, a child of the trace they carry."""
    context = extract(parent) if parent is not None else None
    attrs = {k: v for k, v in (attributes or {}).items() if v is not None}
    with tracer.start_as_current_span(name, context=context, kind=kind, attributes=attrs) as current:
        yield current


class Keep:
    """Whether a :func:`kept_span` is exported: ``keep.it = False`` drops it."""

    def __init__(self) -> None:
        self.it = True


@contextlib.contextmanager
def kept_span(
    name: str,
    *,
    parent: Mapping[str, str] | None = None,
    kind: SpanKind = SpanKind.INTERNAL,
    attributes: Mapping[str, Any] | None = None,
) -> Iterator[Keep]:
    """Like :func:`span`, but the body may decide the span is not worth exporting (work
    another process already did): a span never ended is never exported.  An error keeps it."""
    from opentelemetry import context as context_api

    context = extract(parent) if parent is not None else None
    attrs = {k: v for k, v in (attributes or {}).items() if v is not None}
    current = tracer.start_span(name, context=context, kind=kind, attributes=attrs)
    token = context_api.attach(trace.set_span_in_context(current))
    keep = Keep()
    try:
        yield keep
    except BaseException as exc:
        current.record_exception(exc)
        current.set_status(trace.Status(trace.StatusCode.ERROR, type(exc).__name__))
        keep.it = True
        raise
    finally:
        context_api.detach(token)
        if keep.it:
            current.end()
