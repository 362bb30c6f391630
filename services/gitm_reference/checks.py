"""What the reference land service refuses before any work, and the errors it
answers with (each a gRPC status).  Every field's limit is the
``(buf.validate.field)`` rule land.proto declares (docs/gitm.md "Limits"),
checked by protovalidate in :func:`check_request`; the parts keep only what a
rule of one field cannot say (two fields together, a city on the map).  A bad
request is :class:`BadRequestError` (INVALID_ARGUMENT, its BadRequest naming
every field at fault), never a half-done change."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import grpc
import protovalidate

# the administration's own requests (reference_admin.proto, not the contract) and the pruning
MAX_ID = 256
MAX_UNITS = 500
MAX_SUPPLIES = 1_000_000
# docs/gitm.md "Ids": the ids PATE makes are opaque, 1 to 256 of these characters
OPAQUE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,256}")
MAX_VIOLATIONS = 20  # the fields one BadRequest names (pate/gitmkit/status_details.py reads 20)
_VALIDATOR = protovalidate.Validator()  # caches each message's compiled rules


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
        self.violations: tuple[tuple[str, str], ...] = ((self.field, message),)


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


def _path(elements: Any) -> str:
    """A violation's field path as the BadRequest names it: ``moves[0].units[2]``."""
    parts = []
    for e in elements:
        sub = e.subscript
        parts.append(f"{e.field_name}[{sub.value}]" if sub is not None else e.field_name)
    return ".".join(parts)


def violations(msg: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Each field of ``msg`` that breaks its land.proto rule, once, with the first reason."""
    found: dict[str, str] = {}
    for v in _VALIDATOR.collect_violations(msg):
        field = v.proto.field  # none for a rule of the whole message (land.proto has none)
        path = prefix + (_path(field.elements) if field is not None else "request")
        found.setdefault(path, f"{path}: {v.proto.message}")
    return list(found.items())


def check_request(msg: Any, prefix: str = "") -> None:
    """docs/gitm.md "Limits": ``msg`` within every rule of land.proto, else INVALID_ARGUMENT
    naming each field at fault (``prefix`` before a nested message's paths)."""
    found = violations(msg, prefix)
    if found:
        first, why = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        error = BadRequestError(why + more, field=first)
        error.violations = tuple(found[:MAX_VIOLATIONS])
        raise error


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
