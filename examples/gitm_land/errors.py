"""The one way the land service says no to a request it will not serve."""

from __future__ import annotations

import grpc


class CallError(Exception):
    """A request answered with a gRPC status instead of a message."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


def invalid(field: str, why: str) -> CallError:
    """A malformed request: the details name the field first (L21)."""
    return CallError(grpc.StatusCode.INVALID_ARGUMENT, f"{field}: {why}")


def not_found(what: str) -> CallError:
    return CallError(grpc.StatusCode.NOT_FOUND, what)


def conflict(field: str, value: str) -> CallError:
    """An id seen before with other content (L12)."""
    return CallError(
        grpc.StatusCode.ALREADY_EXISTS,
        f"{field}: {value!r} was received before with other content",
    )


def closed(campaign_id: str) -> CallError:
    return CallError(
        grpc.StatusCode.FAILED_PRECONDITION,
        f"campaign_id: campaign {campaign_id!r} is closed; it takes no new work",
    )
