"""The structured errors of gitm.v1 (docs/gitm.md "Status codes", edition 4): every error a land
service of edition 4 answers carries a ``google.rpc.Status`` in the ``grpc-status-details-bin``
trailer, with a ``BadRequest`` naming the fields of an INVALID_ARGUMENT, an ``ErrorInfo`` whose
``reason`` is one of :data:`REASONS` (domain :data:`DOMAIN`), and a ``RetryInfo`` when waiting
helps.  One table for the three parties that read it: the reference service (which sends
them), PATE's client (which logs and audits them) and the conformance kit (which checks them).

Reading is hostile-input safe: a trailer that does not parse is as no trailer, and every list
and string read is bounded, so a land service cannot flood PATE's logs through it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import duration_pb2
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

DETAILS_KEY = "grpc-status-details-bin"
DOMAIN = "gitm.pate"
C = grpc.StatusCode
# ErrorInfo.reason -> (the status code it goes with, when); docs/gitm.md "Status codes" is normative
REASONS: dict[str, tuple[grpc.StatusCode, str]] = {
    "MALFORMED_REQUEST": (C.INVALID_ARGUMENT, "a field breaks its format (BadRequest names it)"),
    "CAMPAIGN_NOT_OPENED": (C.NOT_FOUND, "the campaign was never opened"),
    "CITY_NOT_ON_MAP": (C.NOT_FOUND, "a city GITM does not have on its map"),
    "TRANSFER_NOT_FOUND": (C.NOT_FOUND, "a transfer GITM never began"),
    "HOLD_NOT_FOUND": (C.NOT_FOUND, "a hold GITM never gave"),
    "ID_REUSED": (C.ALREADY_EXISTS, "an id received before with other content"),
    "CAMPAIGN_CLOSED": (C.FAILED_PRECONDITION, "new work in a closed campaign"),
    "LAND_HELD": (C.FAILED_PRECONDITION, "what a live hold keeps may not change yet"),
    "CALLER_REJECTED": (C.UNAUTHENTICATED, "PATE's caller token missing or wrong"),
    "LAND_UNAVAILABLE": (C.UNAVAILABLE, "the land service cannot answer now; RetryInfo says when"),
    "LAND_BUSY": (C.RESOURCE_EXHAUSTED, "too much work at once; RetryInfo says when"),
    "LAND_CONFLICT": (C.ABORTED, "a concurrent change won; RetryInfo says when"),
    "INTERNAL_FAULT": (C.INTERNAL, "a fault of the land service's own (no stack in the message)"),
}
# the codes whose errors carry a RetryInfo (docs/gitm.md "Status codes")
RETRYABLE = frozenset({C.UNAVAILABLE, C.RESOURCE_EXHAUSTED, C.ABORTED})
# Refusal.code (edition 4): one word per kind of refusal, for PATE to group them
REFUSAL_CODES = ("unknown", "elsewhere", "foreign", "embarked", "reserved", "twice", "supplies", "refused")
MAX_ENTRIES = 20  # field violations or metadata pairs read from one error
MAX_TEXT = 200  # characters of any one string read
MAX_RETRY_SECONDS = 3600.0


def _cut(text: str) -> str:
    line = " ".join(str(text).split())
    return line[:MAX_TEXT]


@dataclass(frozen=True, slots=True)
class ErrorDetails:
    """What an error's ``google.rpc.Status`` said (``present`` false: no readable trailer)."""

    present: bool = False
    code: int = -1  # google.rpc.Status.code
    reason: str = ""  # ErrorInfo.reason
    domain: str = ""
    metadata: tuple[tuple[str, str], ...] = ()
    fields: tuple[tuple[str, str], ...] = ()  # FieldViolation: (field, description)
    retry_after: float | None = None  # RetryInfo.retry_delay, seconds

    def plain(self) -> dict[str, Any]:
        """For a log line or an audit row: the machine-readable parts only."""
        out: dict[str, Any] = {}
        if self.reason:
            out["error_reason"] = self.reason
        if self.fields:
            out["error_fields"] = [f for f, _ in self.fields]
        if self.retry_after is not None:
            out["retry_after_s"] = round(self.retry_after, 3)
        return out


def read_details(metadata: Iterable[tuple[str, Any]] | None) -> ErrorDetails:
    """The details in a call's trailing metadata; an unreadable trailer is no trailer."""
    raw = next((v for k, v in (metadata or ()) if k == DETAILS_KEY and isinstance(v, bytes)), None)
    if raw is None:
        return ErrorDetails()
    status = status_pb2.Status()
    try:
        status.ParseFromString(raw)
    except DecodeError:
        return ErrorDetails()
    reason = domain = ""
    meta: list[tuple[str, str]] = []
    fields: list[tuple[str, str]] = []
    retry: float | None = None
    for any_ in status.details[:MAX_ENTRIES]:
        info, bad, wait = (
            error_details_pb2.ErrorInfo(),
            error_details_pb2.BadRequest(),
            error_details_pb2.RetryInfo(),
        )
        if any_.Unpack(info) and not reason:
            reason, domain = _cut(info.reason), _cut(info.domain)
            meta = [(_cut(k), _cut(v)) for k, v in sorted(info.metadata.items())[:MAX_ENTRIES]]
        elif any_.Unpack(bad):
            fields += [(_cut(v.field), _cut(v.description)) for v in bad.field_violations[:MAX_ENTRIES]]
        elif any_.Unpack(wait) and retry is None:
            seconds = wait.retry_delay.seconds + wait.retry_delay.nanos / 1e9
            retry = min(max(0.0, seconds), MAX_RETRY_SECONDS)
    return ErrorDetails(True, status.code, reason, domain, tuple(meta), tuple(fields[:MAX_ENTRIES]), retry)


def details_of(exc: BaseException) -> ErrorDetails:
    """The details of a failed gRPC call (anything else: none)."""
    if not isinstance(exc, grpc.Call):
        return ErrorDetails()
    try:
        return read_details(exc.trailing_metadata())
    except Exception:  # a call object that cannot give its trailer gives no details
        return ErrorDetails()


def rich_status(
    code: grpc.StatusCode,
    message: str,
    *,
    reason: str = "",
    metadata: Mapping[str, str] | None = None,
    fields: Iterable[tuple[str, str]] = (),
    retry_after: float | None = None,
) -> status_pb2.Status:
    """The ``google.rpc.Status`` of one error, as a land service of edition 4 sends it."""
    status = status_pb2.Status(code=code.value[0], message=message)
    violations = [error_details_pb2.BadRequest.FieldViolation(field=f, description=d) for f, d in fields]
    if violations:
        status.details.add().Pack(error_details_pb2.BadRequest(field_violations=violations))
    if reason:
        info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=dict(metadata or {}))
        status.details.add().Pack(info)
    if retry_after is not None:
        delay = duration_pb2.Duration()
        delay.FromNanoseconds(int(retry_after * 1e9))
        status.details.add().Pack(error_details_pb2.RetryInfo(retry_delay=delay))
    return status


def trailer(status: status_pb2.Status) -> tuple[tuple[str, bytes], ...]:
    return ((DETAILS_KEY, status.SerializeToString()),)


def code_of(status: status_pb2.Status) -> grpc.StatusCode:
    by_number = {c.value[0]: c for c in grpc.StatusCode}
    return by_number.get(status.code, grpc.StatusCode.UNKNOWN)
