"""Errors as google.rpc.Status with details ("Error details", L21, L29, L30)."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from examples.gitm_land4.contract import DOMAIN


class LandError(Exception):
    """An answer that is a status code, not a message; raised by the handlers."""

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        *,
        reason: str = "",
        field: str = "",
        metadata: dict[str, str] | None = None,
        retry_seconds: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.field = field
        self.metadata = metadata or {}
        self.retry_seconds = retry_seconds

    def status(self) -> grpc.Status:
        details: list[any_pb2.Any] = []
        if self.field:
            bad = error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(
                        field=self.field, description=self.message.splitlines()[0]
                    )
                ]
            )
            details.append(_packed(bad))
        if self.reason:
            info = error_details_pb2.ErrorInfo(
                reason=self.reason,
                domain=DOMAIN,
                metadata={k: v[:64] for k, v in self.metadata.items()},
            )
            details.append(_packed(info))
        if self.retry_seconds is not None:
            whole = int(self.retry_seconds)
            delay = duration_pb2.Duration(seconds=whole, nanos=int((self.retry_seconds - whole) * 1e9))
            details.append(_packed(error_details_pb2.RetryInfo(retry_delay=delay)))
        return rpc_status.to_status(
            status_pb2.Status(code=self.code.value[0], message=self.message, details=details)
        )


def _packed(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)  # type: ignore[arg-type]
    return packed


def invalid(field: str, message: str) -> LandError:
    """A malformed request, naming its field in the message and in the BadRequest."""
    return LandError(
        grpc.StatusCode.INVALID_ARGUMENT,
        f"{field} {message}",
        reason="MALFORMED_REQUEST",
        field=field,
    )


def campaign_not_opened(campaign_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.NOT_FOUND,
        f"campaign_id {campaign_id!r} was never opened",
        reason="CAMPAIGN_NOT_OPENED",
        metadata={"campaign_id": campaign_id},
    )


def campaign_closed(campaign_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.FAILED_PRECONDITION,
        f"campaign_id {campaign_id!r} is closed: no new work",
        reason="CAMPAIGN_CLOSED",
        metadata={"campaign_id": campaign_id},
    )


def city_not_on_map(port: str) -> LandError:
    return LandError(
        grpc.StatusCode.NOT_FOUND,
        "port is not a city on the GITM map",
        reason="CITY_NOT_ON_MAP",
        metadata={"port": port},
    )


def transfer_not_found(transfer_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.NOT_FOUND,
        f"transfer_id {transfer_id!r} was never begun",
        reason="TRANSFER_NOT_FOUND",
        metadata={"transfer_id": transfer_id},
    )


def hold_not_found(hold_id: str) -> LandError:
    return LandError(
        grpc.StatusCode.NOT_FOUND,
        "hold_id names no hold this service gave for the campaign",
        reason="HOLD_NOT_FOUND",
        metadata={"hold_id": hold_id},
    )


def id_reused(call: str, ident: str) -> LandError:
    return LandError(
        grpc.StatusCode.ALREADY_EXISTS,
        f"{call}: id {ident!r} was received before with other content",
        reason="ID_REUSED",
        metadata={"call": call, "id": ident},
    )


def caller_rejected() -> LandError:
    return LandError(
        grpc.StatusCode.UNAUTHENTICATED,
        "caller token missing or wrong (x-pate-gitm-token)",
        reason="CALLER_REJECTED",
    )


def internal_fault() -> LandError:
    return LandError(
        grpc.StatusCode.INTERNAL,
        "internal fault of the land service",
        reason="INTERNAL_FAULT",
    )


def busy() -> LandError:
    return LandError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "the land service is busy; call again",
        reason="LAND_BUSY",
        retry_seconds=1.0,
    )
