"""A gitm.v1 call of a later edition, which a land service may not serve (docs/gitm.md
"Versioning"): asked only when its capabilities list it, and dropped from them at its first
UNIMPLEMENTED, until the capabilities are asked again."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import grpc

from services.platform.bus.consumer import TransientError
from services.resolver.editions import Capabilities
from services.resolver.gitm import GitmClient
from services.resolver.gitm_errors import asked_twice

T = TypeVar("T")
# GITM has not answered the turn: the stage retries the close later
NOT_ANSWERED = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.NOT_FOUND}


def ask_optional(client: GitmClient, served: Capabilities, call: str, ask: Callable[[], T]) -> T | None:
    """``ask()``'s answer; None when the service answers UNIMPLEMENTED.  Unreachable, slow or
    NOT_FOUND (a campaign not yet opened there): :class:`TransientError`.  A question of the
    close: an outage or a busy service is asked once more first."""
    try:
        return asked_twice(client, ask)
    except grpc.RpcError as exc:
        code = exc.code() if isinstance(exc, grpc.Call) else None
        if code in NOT_ANSWERED:
            raise TransientError(f"GITM at {client.addr}: {code}") from exc
        if code != grpc.StatusCode.UNIMPLEMENTED:
            raise
        client.capabilities = served.without(call)  # skipped until capabilities are asked again
        return None
