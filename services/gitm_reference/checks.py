"""What the reference land service refuses before any work: its limits, the
errors it answers with (each a gRPC status) and the checks of a request's
fields (docs/gitm.md).  A bad request is :class:`BadRequestError`
(INVALID_ARGUMENT), never a half-done change."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import grpc

MAX_ID = 256
MAX_UNITS = 500
MAX_SUPPLIES = 1_000_000
MAX_SIGHTINGS = 1_000  # docs/gitm.md A17: pate/gitmkit/limits.py SIGHTING_ENTRIES
# docs/gitm.md "Ids": the ids PATE makes are opaque, 1 to 256 of these characters
OPAQUE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,256}")


class StoreError(Exception):
    """A call the store answers with a gRPC status other than OK, and the ErrorInfo reason of
    its details (pate/gitmkit/status_details.py ``REASONS``; docs/gitm.md "Status codes")."""

    code = grpc.StatusCode.INVALID_ARGUMENT
    reason = "MALFORMED_REQUEST"

    def __init__(self, message: str, *, reason: str = "", field: str = "", **meta: str) -> None:
        super().__init__(message)
        self.reason = reason or type(self).reason
        self.meta = {k: v[:64] for k, v in meta.items()}
        # the request's field a BadRequest names: given, else the message's first word
        self.field = field or re.split(r"[ :]", message, maxsplit=1)[0]


class BadRequestError(StoreError):
    code = grpc.StatusCode.INVALID_ARGUMENT


class UnknownTransferError(StoreError):
    code = grpc.StatusCode.NOT_FOUND
    reason = "TRANSFER_NOT_FOUND"


class ReusedIdError(StoreError):
    code = grpc.StatusCode.ALREADY_EXISTS
    reason = "ID_REUSED"


class ClosedCampaignError(StoreError):
    code = grpc.StatusCode.FAILED_PRECONDITION
    reason = "CAMPAIGN_CLOSED"


class UnknownCityError(StoreError):
    code = grpc.StatusCode.NOT_FOUND
    reason = "CITY_NOT_ON_MAP"


def check_id(field: str, value: str) -> None:
    if not value:
        raise BadRequestError(f"{field} is required", field=field)
    if len(value) > MAX_ID:
        raise BadRequestError(f"{field} is longer than {MAX_ID} characters", field=field)


def check_opaque(field: str, value: str) -> None:
    """An id PATE makes (transfer, loss, move, report, campaign): opaque, bounded, plain characters."""
    check_id(field, value)
    if not OPAQUE_ID.fullmatch(value):
        raise BadRequestError(f"{field} may hold only letters, digits and _ . : -", field=field)


def check_count(field: str, n: int, limit: int) -> None:
    if n < 0 or n > limit:
        raise BadRequestError(f"{field} must be between 0 and {limit}", field=field)


def request_sha(msg: Any) -> str:
    return hashlib.sha256(msg.SerializeToString(deterministic=True)).hexdigest()
