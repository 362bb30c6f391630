"""The web's calls of accounts (pate.v1.Accounts, docs/accounts.md), beside the Backend they go
through.  The account's token travels as ``authorization: Bearer``; the browser's address as
``x-forwarded-for``, for the throttles (honoured when the orders service trusts this web
process, PATE_TRUSTED_PROXIES)."""

from __future__ import annotations

from typing import Any

import grpc

from pate.v1 import accounts_pb2 as pb
from pate.v1 import accounts_pb2_grpc
from services.web.backend import CALL_TIMEOUT, Backend, Session
from services.web.backend_errors import translate


async def call(b: Backend, method: str, req: Any, *, token: str = "", source: str = "") -> Any:
    md = [("authorization", f"Bearer {token}")] if token else []
    if source:
        md.append(("x-forwarded-for", source))
    stub = accounts_pb2_grpc.AccountsStub(b._orders())
    try:
        return await getattr(stub, method)(req, metadata=tuple(md), timeout=CALL_TIMEOUT)
    except grpc.RpcError as err:
        raise translate(err, "orders") from None


async def open_seat(b: Backend, token: str, campaign: str, player: str) -> Session:
    """A seat session, as a seat login gives one: the desk's pages take it."""
    req = pb.OpenSeatRequest(campaign_id=campaign, player_id=player)
    out: pb.OpenSeatResponse = await call(b, "OpenSeat", req, token=token)
    return Session(out.token, campaign, player, float(out.expires_at.ToSeconds()))
