"""Every call PATE makes to the land service carries a correlation id, ``x-pate-call-id``, and is
logged on PATE's side with it (``gitm.call``: method, id, status, milliseconds), so the operators
of both sides find the same call in each other's logs whether or not tracing is on (docs/gitm.md
"Security between the services", "Observability")."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import grpc

from services.platform.telemetry.logging import get_logger

CALL_ID = "x-pate-call-id"
log = get_logger("gitm-bridge")


class CallIds(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Adds a fresh correlation id to each call's metadata and logs the call's outcome."""

    def intercept_unary_unary(self, continuation: Callable[..., Any], details: Any, request: Any) -> Any:
        call_id = uuid.uuid4().hex
        metadata = [*(details.metadata or ()), (CALL_ID, call_id)]
        started = time.perf_counter()
        outcome = continuation(_with_metadata(details, metadata), request)
        code = outcome.code() if hasattr(outcome, "code") else None
        log.info(
            "gitm.call",
            method=str(details.method).rpartition("/")[2],
            call_id=call_id,
            status=code.name if isinstance(code, grpc.StatusCode) else "OK",
            ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return outcome


class _Details(grpc.ClientCallDetails):  # type: ignore[misc]
    def __init__(self, base: Any, metadata: list[tuple[str, str]]) -> None:
        self.method = base.method
        self.timeout = base.timeout
        self.metadata = metadata
        self.credentials = base.credentials
        self.wait_for_ready = getattr(base, "wait_for_ready", None)
        self.compression = getattr(base, "compression", None)


def _with_metadata(details: Any, metadata: list[tuple[str, str]]) -> _Details:
    return _Details(details, metadata)


def with_call_ids(channel: grpc.Channel) -> grpc.Channel:
    return grpc.intercept_channel(channel, CallIds())
