"""The web's calls of the lobby (pate.v1.Lobby, docs/lobby.md), beside the Backend they go
through.  An account's calls carry its token (``authorization: Bearer``); the game master's
carry his own session (services/web/backend.py act_as), once the web checked his role there."""

from __future__ import annotations

from typing import Any

import grpc

from pate.v1 import lobby_pb2 as pb
from pate.v1 import lobby_pb2_grpc
from services.web.backend import CALL_TIMEOUT, Backend
from services.web.backend_errors import translate

SOLO_TIMEOUT = 60.0  # a new campaign's start, on a loaded server


async def call(
    b: Backend, method: str, req: Any, *, token: str = "", admin: bool = False, timeout: float = CALL_TIMEOUT
) -> Any:
    md: tuple[tuple[str, str], ...] = ()
    if token:
        md = (("authorization", f"Bearer {token}"),)
    elif admin:
        md = b._admin_md()
    stub = lobby_pb2_grpc.LobbyStub(b._orders())
    try:
        return await getattr(stub, method)(req, metadata=md, timeout=timeout)
    except grpc.RpcError as err:
        raise translate(err, "orders") from None


async def record(b: Backend, token: str) -> pb.Reliability:
    out: pb.Reliability = await call(b, "GetReliability", pb.GetReliabilityRequest(), token=token)
    return out
