"""structlog set-up shared by every service.

Each log line is one JSON object carrying ``service``, the ``trace_id`` and
``span_id`` of the current OpenTelemetry span (services.platform.telemetry.tracing), plus
whatever is bound in the context (``campaign``, ``turn``, ...): the NATS
consumer binds them per message, so any log call made while handling it
carries them without passing them around.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any, Protocol

import orjson
import structlog

from services.platform.telemetry.tracing import current_ids

_HANDLER_MARK = "_pate_handler"


class _HasLogSettings(Protocol):
    @property
    def log_level(self) -> str: ...
    @property
    def log_format(self) -> str: ...


def current_trace_id() -> str | None:
    """The W3C trace id (32 hex digits) of the current span, else one bound in the context."""
    ids = current_ids()
    if ids is not None:
        return ids[0]
    value = structlog.contextvars.get_contextvars().get("trace_id")
    return str(value) if value else None


def _add_trace(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    ids = current_ids()
    if ids is not None:
        event.setdefault("trace_id", ids[0])
        event.setdefault("span_id", ids[1])
    return event


@contextmanager
def bind_context(**kv: Any) -> Iterator[None]:
    """Bind keys (campaign, turn, trace_id, ...) for log lines inside the block.

    Keys whose value is None are left out. The previous values come back on exit.
    """
    values = {k: v for k, v in kv.items() if v is not None}
    with structlog.contextvars.bound_contextvars(**values):
        yield


def _add_service(service: str) -> structlog.types.Processor:
    def add(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        event.setdefault("service", service)
        return event

    return add


class _NamedWriteLogger(structlog.WriteLogger):
    """Writes to a stream; carries its name for ``add_logger_name``."""

    def __init__(self, name: str | None) -> None:
        super().__init__(sys.stderr)  # stderr as it is now (tests swap it); locked per stream
        self.name = name


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The standard library's handler, writing to sys.stderr as it is at each record:
    a library's thread may log after a test closed the stream it had swapped in."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def _stderr_logger(*args: Any) -> _NamedWriteLogger:
    return _NamedWriteLogger(args[0] if args else None)


def configure_logging(service: str, settings: _HasLogSettings) -> None:
    """Route structlog and the standard library's logging to stderr in one format.

    PATE's own lines are rendered by structlog and written straight to stderr
    (a third of the cost of going through the standard library's records and
    handlers, which matters at one line per gRPC call); lines of libraries
    that log through the standard library get the same processors and format.
    Safe to call more than once (tests do); the last call wins.
    """
    level = getattr(logging, settings.log_level.upper())
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        _add_trace,
        _add_service(service),
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
    ]
    renderer: structlog.types.Processor
    if settings.log_format == "console":
        # plain tracebacks: rich's or better-exceptions' would print local variables (passwords, tokens)
        renderer = structlog.dev.ConsoleRenderer(exception_formatter=structlog.dev.plain_traceback)
    else:
        renderer = structlog.processors.JSONRenderer(serializer=_json_line)
        shared.append(structlog.processors.format_exc_info)
    _generation[0] += 1
    structlog.configure(
        processors=[*shared, renderer],
        logger_factory=_stderr_logger,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        cache_logger_on_first_use=False,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
    )
    handler = _StderrHandler()
    handler.setFormatter(formatter)
    setattr(handler, _HANDLER_MARK, True)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, _HANDLER_MARK, False)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # The NATS client logs every reconnect attempt at ERROR through error_cb; we log those ourselves.
    logging.getLogger("nats").setLevel(max(level, logging.WARNING))
    # Alembic says "Context impl", "Will assume transactional DDL" and a line per migration at
    # every start that migrates; the runner writes one line of its own (database_migrated).
    logging.getLogger("alembic").setLevel(max(level, logging.WARNING))


def get_logger(name: str | None = None) -> Any:
    """A structlog logger; ``name`` shows as ``logger`` in each line."""
    return structlog.get_logger(name)


def _json_line(event: Any, **kw: Any) -> str:
    """One log line of JSON: orjson, a tenth of the json module's time (a line is written
    at every request), or the json module for what orjson will not take."""
    try:
        return orjson.dumps(event, default=kw.get("default"), option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(event, **kw)


_generation = [0]  # configure_logging calls so far: a HotLogger binds again after each


class HotLogger:
    """A logger for a line written at every request (the gRPC access line).

    structlog's lazy logger builds a new bound logger for every line, since the
    configuration may change (``cache_logger_on_first_use`` is off so that tests can
    reconfigure): about a fifth of the line's cost.  This one binds once per
    ``configure_logging`` call, the only place PATE configures structlog, and whenever
    ``sys.stderr`` was swapped (tests do) since."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._bound: Any = None
        self._seen: tuple[int, Any] = (-1, None)

    def _logger(self) -> Any:
        now = (_generation[0], sys.stderr)
        if self._seen[0] != now[0] or self._seen[1] is not now[1] or self._bound is None:
            self._bound = structlog.get_logger(self._name).bind()
            self._seen = now
        return self._bound

    def info(self, event: str, **fields: Any) -> None:
        self._logger().info(event, **fields)

    def error(self, event: str, **fields: Any) -> None:
        self._logger().error(event, **fields)


def failure_fields(exc: BaseException) -> dict[str, Any]:
    """What a log line may say of an unexpected exception: its type and where it was raised,
    never its text, which may quote the input, SQL or a connection string."""
    tb = traceback.extract_tb(exc.__traceback__)
    frames = [f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}" for f in tb]
    return {"error": type(exc).__name__, "frames": frames[-6:]}
