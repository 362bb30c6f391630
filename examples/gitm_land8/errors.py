"""Errors as google.rpc.Status details (docs/gitm.md "Error details") and request checks."""

from __future__ import annotations

import grpc
import protovalidate
from google.protobuf import duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "gitm.pate"

# The reason each code goes with (contract.toml [errors]); a pairing outside it fails L30.
_CODES = {
    "MALFORMED_REQUEST": grpc.StatusCode.INVALID_ARGUMENT,
    "CAMPAIGN_NOT_OPENED": grpc.StatusCode.NOT_FOUND,
    "CITY_NOT_ON_MAP": grpc.StatusCode.NOT_FOUND,
    "TRANSFER_NOT_FOUND": grpc.StatusCode.NOT_FOUND,
    "HOLD_NOT_FOUND": grpc.StatusCode.NOT_FOUND,
    "ID_REUSED": grpc.StatusCode.ALREADY_EXISTS,
    "CAMPAIGN_CLOSED": grpc.StatusCode.FAILED_PRECONDITION,
    "CALLER_REJECTED": grpc.StatusCode.UNAUTHENTICATED,
    "LAND_UNAVAILABLE": grpc.StatusCode.UNAVAILABLE,
    "INTERNAL_FAULT": grpc.StatusCode.INTERNAL,
}


class LandError(Exception):
    """An error answer: a status code, its ErrorInfo reason, and what it is about."""

    def __init__(self, reason: str, message: str, *, violations=(), metadata=None, retry=None):
        super().__init__(message)
        self.reason = reason
        self.code = _CODES[reason]
        self.message = message
        self.violations = _one_per_field(violations)  # (field path, description)
        self.metadata = {k: v[:64] for k, v in (metadata or {}).items()}
        self.retry = retry

    def status(self) -> status_pb2.Status:
        detail = status_pb2.Status(code=self.code.value[0], message=self.message)
        if self.violations:
            bad = error_details_pb2.BadRequest()
            for field, text in self.violations:
                bad.field_violations.add(field=field, description=text)
            detail.details.add().Pack(bad)
        info = error_details_pb2.ErrorInfo(reason=self.reason, domain=DOMAIN)
        info.metadata.update(self.metadata)
        detail.details.add().Pack(info)
        if self.retry is not None:
            retry = error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=self.retry))
            detail.details.add().Pack(retry)
        return detail

    def abort(self, context: grpc.ServicerContext):
        context.abort_with_status(rpc_status.to_status(self.status()))


def _one_per_field(violations) -> list[tuple[str, str]]:
    """One FieldViolation per field at fault, its descriptions joined ("Error details")."""
    by_field: dict[str, list[str]] = {}
    for field, text in violations:
        texts = by_field.setdefault(field, [])
        if text not in texts:
            texts.append(text)
    return [(field, "; ".join(texts)) for field, texts in by_field.items()]


def malformed(field: str, text: str) -> LandError:
    """INVALID_ARGUMENT naming one field by its path, in the message and the BadRequest."""
    return LandError("MALFORMED_REQUEST", f"{field}: {text}", violations=[(field, text)])


def not_opened(campaign_id: str) -> LandError:
    return LandError(
        "CAMPAIGN_NOT_OPENED",
        f"campaign_id: campaign {campaign_id} was never opened",
        metadata={"campaign_id": campaign_id},
    )


def closed(campaign_id: str) -> LandError:
    return LandError(
        "CAMPAIGN_CLOSED",
        f"campaign {campaign_id} is closed: no new work",
        metadata={"campaign_id": campaign_id},
    )


def reused(call: str, ident: str) -> LandError:
    return LandError(
        "ID_REUSED",
        f"{call}: id {ident} was received before with other content",
        metadata={"call": call, "id": ident},
    )


def internal() -> LandError:
    # No exception text, SQL or path leaves the service ("Status codes").
    return LandError("INTERNAL_FAULT", "internal fault of the land service")


def unavailable() -> LandError:
    return LandError("LAND_UNAVAILABLE", "the land store is busy; call again", retry=1)


def _path(violation) -> str:
    parts = []
    for element in violation.proto.field.elements:
        name = element.field_name
        subscript = getattr(element, "subscript", None)
        if subscript is not None:  # a list's index (or a map's key: none in gitm.v1)
            name += f"[{subscript.value}]"
        parts.append(name)
    return ".".join(parts)


def check_rules(request) -> None:
    """Every buf.validate rule of land.proto, before any work ("Limits")."""
    found = protovalidate.collect_violations(request)
    if not found:
        return
    pairs = _one_per_field(
        (_path(violation), violation.proto.message.replace("\n", " ")) for violation in found
    )
    message = "; ".join(f"{field}: {text}" for field, text in pairs)
    raise LandError("MALFORMED_REQUEST", message[:2000], violations=pairs)
