"""gRPC errors with the google.rpc details of docs/gitm.md "Error details" (edition 4)."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "gitm.pate"

_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT: code_pb2.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND: code_pb2.NOT_FOUND,
    grpc.StatusCode.ALREADY_EXISTS: code_pb2.ALREADY_EXISTS,
    grpc.StatusCode.FAILED_PRECONDITION: code_pb2.FAILED_PRECONDITION,
    grpc.StatusCode.UNAUTHENTICATED: code_pb2.UNAUTHENTICATED,
    grpc.StatusCode.UNAVAILABLE: code_pb2.UNAVAILABLE,
    grpc.StatusCode.RESOURCE_EXHAUSTED: code_pb2.RESOURCE_EXHAUSTED,
    grpc.StatusCode.ABORTED: code_pb2.ABORTED,
    grpc.StatusCode.INTERNAL: code_pb2.INTERNAL,
}
_RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.ABORTED)


class LandError(Exception):
    """An answer that is a status code, not a message (docs/gitm.md "Status codes")."""

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        reason: str = "",
        fields: list[tuple[str, str]] | None = None,
        metadata: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message.replace("\n", " ")[:300]
        self.reason = reason
        self.fields = fields or []
        self.metadata = {k: v[:64] for k, v in (metadata or {}).items()}

    def status(self) -> grpc.Status:
        details = []
        if self.fields:
            bad = error_details_pb2.BadRequest()
            for field, description in self.fields:
                bad.field_violations.add(field=field, description=description.replace("\n", " ")[:300])
            details.append(bad)
        if self.reason:
            details.append(
                error_details_pb2.ErrorInfo(reason=self.reason, domain=DOMAIN, metadata=self.metadata)
            )
        if self.code in _RETRYABLE:
            details.append(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=1)))
        packed = []
        for detail in details:
            holder = any_pb2.Any()
            holder.Pack(detail)
            packed.append(holder)
        proto = status_pb2.Status(code=_CODES[self.code], message=self.message, details=packed)
        return rpc_status.to_status(proto)


def malformed(fields: list[tuple[str, str]]) -> LandError:
    text = "; ".join(f"{field}: {why}" for field, why in fields)
    return LandError(grpc.StatusCode.INVALID_ARGUMENT, text, "MALFORMED_REQUEST", fields)


def invalid(field: str, why: str) -> LandError:
    return malformed([(field, why)])


def not_opened(campaign_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.NOT_FOUND,
        f"campaign_id: campaign {campaign_id} was never opened",
        "CAMPAIGN_NOT_OPENED",
        metadata={"campaign_id": campaign_id},
    )


def closed(campaign_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.FAILED_PRECONDITION,
        f"campaign_id: campaign {campaign_id} is closed",
        "CAMPAIGN_CLOSED",
        metadata={"campaign_id": campaign_id},
    )


def id_reused(call: str, the_id: str, field: str) -> LandError:
    return LandError(
        grpc.StatusCode.ALREADY_EXISTS,
        f"{field}: {the_id} was received before with other content",
        "ID_REUSED",
        metadata={"call": call, "id": the_id},
    )


def transfer_not_found(transfer_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.NOT_FOUND,
        f"transfer_id: transfer {transfer_id} was never begun",
        "TRANSFER_NOT_FOUND",
        metadata={"transfer_id": transfer_id},
    )


def unauthenticated() -> LandError:
    return LandError(grpc.StatusCode.UNAUTHENTICATED, "caller token missing or wrong", "CALLER_REJECTED")


def unavailable() -> LandError:
    return LandError(grpc.StatusCode.UNAVAILABLE, "the land store is busy; call again", "LAND_UNAVAILABLE")


def internal() -> LandError:
    return LandError(grpc.StatusCode.INTERNAL, "internal fault of the land service", "INTERNAL_FAULT")
