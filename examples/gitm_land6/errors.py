"""Errors of the land service, each with its google.rpc details (docs/gitm.md "Error details")."""

from __future__ import annotations

import grpc
import protovalidate
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "gitm.pate"


class LandError(Exception):
    """A request answered with a status code instead of an answer."""

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        reason: str,
        fields: list[tuple[str, str]] | None = None,
        metadata: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.fields = fields or []
        self.metadata = metadata or {}


def invalid(field: str, description: str) -> LandError:
    return LandError(
        grpc.StatusCode.INVALID_ARGUMENT,
        f"{field}: {description}",
        "MALFORMED_REQUEST",
        [(field, description)],
    )


def not_found(reason: str, message: str, **meta: str) -> LandError:
    return LandError(grpc.StatusCode.NOT_FOUND, message, reason, metadata=meta)


def no_campaign(campaign_id: str) -> LandError:
    return not_found(
        "CAMPAIGN_NOT_OPENED",
        "campaign_id: campaign never opened",
        campaign_id=campaign_id[:64],
    )


def closed(campaign_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.FAILED_PRECONDITION,
        "campaign_id: the campaign is closed",
        "CAMPAIGN_CLOSED",
        metadata={"campaign_id": campaign_id[:64]},
    )


def reused(call: str, ident: str) -> LandError:
    return LandError(
        grpc.StatusCode.ALREADY_EXISTS,
        f"{call}: id received before with other content",
        "ID_REUSED",
        metadata={"call": call, "id": ident[:64]},
    )


def _path(violation: protovalidate.Violation) -> str:
    parts: list[str] = []
    for element in violation.proto.field.elements:
        name = element.field_name
        subscript = getattr(element, "subscript", None)
        if subscript is not None:
            name += f"[{subscript.value}]"
        parts.append(name)
    return ".".join(parts)


def check_rules(message: object) -> None:
    """INVALID_ARGUMENT naming every field that breaks its buf.validate rule."""
    violations = protovalidate.collect_violations(message)  # type: ignore[arg-type]
    if not violations:
        return
    fields = [(_path(v) or "request", v.proto.message) for v in violations]
    first = fields[0]
    raise LandError(
        grpc.StatusCode.INVALID_ARGUMENT,
        f"{first[0]}: {first[1]}",
        "MALFORMED_REQUEST",
        fields,
    )


_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT: code_pb2.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND: code_pb2.NOT_FOUND,
    grpc.StatusCode.ALREADY_EXISTS: code_pb2.ALREADY_EXISTS,
    grpc.StatusCode.FAILED_PRECONDITION: code_pb2.FAILED_PRECONDITION,
    grpc.StatusCode.UNAUTHENTICATED: code_pb2.UNAUTHENTICATED,
    grpc.StatusCode.UNAVAILABLE: code_pb2.UNAVAILABLE,
    grpc.StatusCode.INTERNAL: code_pb2.INTERNAL,
}


def to_status(error: LandError) -> grpc.Status:
    details: list[any_pb2.Any] = []
    if error.fields:
        bad = error_details_pb2.BadRequest()
        for field, description in error.fields:
            bad.field_violations.add(field=field, description=description.splitlines()[0][:300])
        packed = any_pb2.Any()
        packed.Pack(bad)
        details.append(packed)
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=error.metadata)
    packed = any_pb2.Any()
    packed.Pack(info)
    details.append(packed)
    if error.code == grpc.StatusCode.UNAVAILABLE:
        retry = error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=1))
        packed = any_pb2.Any()
        packed.Pack(retry)
        details.append(packed)
    status = status_pb2.Status(code=_CODES[error.code], message=error.message, details=details)
    return rpc_status.to_status(status)
