"""gRPC errors with their google.rpc details (docs/gitm.md "Error details")."""

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "gitm.pate"

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
_RETRIED = {"LAND_UNAVAILABLE"}


class Fault(Exception):  # noqa: N818 (an answer, not a failure)
    """An answer that is an error status; raised by the store, answered by the servicer."""

    def __init__(
        self,
        reason: str,
        message: str,
        fields: list[tuple[str, str]] | None = None,
        metadata: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.fields = fields or []
        self.metadata = metadata or {}

    @property
    def code(self) -> grpc.StatusCode:
        return _CODES[self.reason]

    def status(self) -> grpc.Status:
        code = self.code
        details: list[any_pb2.Any] = []
        if self.fields:
            bad = error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(field=f, description=d)
                    for f, d in self.fields
                ]
            )
            details.append(_pack(bad))
        info = error_details_pb2.ErrorInfo(
            reason=self.reason,
            domain=DOMAIN,
            metadata={k: v[:64] for k, v in self.metadata.items()},
        )
        details.append(_pack(info))
        if self.reason in _RETRIED:
            retry = error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=1))
            details.append(_pack(retry))
        status = status_pb2.Status(code=getattr(code_pb2, code.name), message=self.message, details=details)
        return rpc_status.to_status(status)


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)  # type: ignore[arg-type]
    return packed


def malformed(field: str, description: str) -> Fault:
    return Fault("MALFORMED_REQUEST", f"{field} {description}", [(field, description)])


def not_opened(campaign_id: str) -> Fault:
    return Fault(
        "CAMPAIGN_NOT_OPENED",
        "campaign_id: campaign not opened",
        metadata={"campaign_id": campaign_id},
    )


def closed(campaign_id: str) -> Fault:
    return Fault("CAMPAIGN_CLOSED", "campaign_id: campaign is closed", metadata={"campaign_id": campaign_id})


def reused(call: str, ident: str) -> Fault:
    return Fault(
        "ID_REUSED",
        f"{call}: id already received with other content",
        metadata={"call": call, "id": ident},
    )
