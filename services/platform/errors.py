"""Errors of the order desk, each mapped to one gRPC status code."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Code(StrEnum):
    INVALID_ARGUMENT = "invalid_argument"
    NOT_FOUND = "not_found"
    ALREADY_EXISTS = "already_exists"
    FAILED_PRECONDITION = "failed_precondition"
    PERMISSION_DENIED = "permission_denied"
    UNAUTHENTICATED = "unauthenticated"
    RESOURCE_EXHAUSTED = "resource_exhausted"  # too many wrong passwords: wait


class DeskError(Exception):
    """A request refused as a whole; nothing it asked for was stored."""

    def __init__(self, code: Code, message: str, refusals: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.refusals = refusals  # the core's Refusal of each refused field, when there are several
