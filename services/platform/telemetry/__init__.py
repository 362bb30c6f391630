"""What a process tells its operator: Prometheus metrics, OpenTelemetry tracing and structlog logs.

May import: ``config`` and the telemetry libraries. Knows nothing of the store, the bus or the
security packages; the gauges that read shared state live in ``services.platform.runtime.gauges``.
"""
