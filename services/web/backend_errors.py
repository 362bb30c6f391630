"""The errors of the web desk's gRPC calls as the pages show them: refused (with the refused
fields), not found or forbidden, not logged in, the service down, and how a gRPC status
becomes one of them."""

from __future__ import annotations

from collections.abc import Sequence

import grpc

from pate.v1 import common_pb2, desk_pb2

REFUSALS_KEY = "pate-refusals-bin"  # trailing metadata of a refused SubmitOrders (desk.proto)


class BackendError(Exception):
    """A call the pages show as a message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ServiceDownError(BackendError):
    """The orders or reports service does not answer."""

    def __init__(self, service: str) -> None:
        super().__init__(f"the {service} service is not answering; try again in a minute")
        self.service = service


class NotLoggedInError(BackendError):
    """No session, or it expired or was revoked."""


class ForbiddenError(BackendError):
    """Not yours to see (or it does not exist: the pages answer both alike)."""


class RefusedError(BackendError):
    """The order desk refused the request as a whole; nothing was stored."""

    def __init__(self, message: str, refusals: Sequence[common_pb2.Refusal] = ()) -> None:
        super().__init__(message)
        self.refusals = tuple(refusals)


def translate(err: grpc.RpcError, service: str) -> BackendError:
    """A failed call as the exception the pages show."""
    code = err.code() if hasattr(err, "code") else None
    details = (err.details() if hasattr(err, "details") else "") or ""
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        return ServiceDownError(service)
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return NotLoggedInError(details or "log in again")
    if code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.PERMISSION_DENIED):
        refused = _refusals(err)
        # a field of the form naming nothing the player knows of (an attachment, a port) is a
        # refusal beside that field; the ship or page itself not his, a plain "Not found"
        if refused and any(not r.field.endswith(".ship_id") for r in refused):
            return RefusedError(details, refused)
        return ForbiddenError(details)
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return RefusedError(details or "too many attempts: wait a minute")
    if code in (
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.ALREADY_EXISTS,  # "id: campaign 'x' already exists": a refusal, not an outage
    ):
        return RefusedError(details, _refusals(err))
    return BackendError(f"the {service} service could not answer ({code.name if code else 'error'})")


def _refusals(err: grpc.RpcError) -> list[common_pb2.Refusal]:
    """The refused fields the order desk sent with its answer (empty for other services)."""
    refusals: list[common_pb2.Refusal] = []
    trailers = err.trailing_metadata() if hasattr(err, "trailing_metadata") else ()
    for key, value in trailers or ():
        if key == REFUSALS_KEY and isinstance(value, bytes):
            refusals.extend(desk_pb2.RefusalList.FromString(value).refusals)
    return refusals
