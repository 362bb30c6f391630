"""The web's calls for confirmed orders, the early close and messages
(PlayerDesk.ConfirmOrders, SendMessage, ListMessages; GameMaster.SetEarlyClose,
SetCampaignOptions),
beside the Backend they go through."""

from __future__ import annotations

from typing import Any

import grpc

from pate.v1 import desk_pb2, desk_pb2_grpc
from services.web.backend import CALL_TIMEOUT, Backend, Session
from services.web.backend_errors import translate


async def _desk_call(b: Backend, s: Session, method: str, req: Any) -> Any:
    stub = desk_pb2_grpc.PlayerDeskStub(b._orders())
    try:
        return await getattr(stub, method)(req, metadata=b._md(s), timeout=CALL_TIMEOUT)
    except grpc.RpcError as err:
        raise translate(err, "orders") from None


async def confirm_orders(
    b: Backend, s: Session, turn: int, confirmed: bool
) -> desk_pb2.ConfirmOrdersResponse:
    req = desk_pb2.ConfirmOrdersRequest(campaign_id=s.campaign, turn=turn, confirmed=confirmed)
    out: desk_pb2.ConfirmOrdersResponse = await _desk_call(b, s, "ConfirmOrders", req)
    return out


async def send_message(b: Backend, s: Session, to_kind: str, to: str, body: str) -> desk_pb2.PlayerMessage:
    req = desk_pb2.SendMessageRequest(campaign_id=s.campaign, to_kind=to_kind, to=to, body=body)
    out: desk_pb2.PlayerMessage = await _desk_call(b, s, "SendMessage", req)
    return out


async def messages(b: Backend, s: Session) -> desk_pb2.MessageList:
    """His messages as the Messages page opens them: the orders service counts them read."""
    req = desk_pb2.ListMessagesRequest(campaign_id=s.campaign, mark_read=True)
    out: desk_pb2.MessageList = await _desk_call(b, s, "ListMessages", req)
    return out


async def _master_call(b: Backend, method: str, req: Any) -> Any:
    stub = desk_pb2_grpc.GameMasterStub(b._orders())
    try:
        return await getattr(stub, method)(req, metadata=b._admin_md(), timeout=CALL_TIMEOUT)
    except grpc.RpcError as err:
        raise translate(err, "orders") from None


async def set_early_close(
    b: Backend, campaign: str, enabled: bool, keep_schedule: bool
) -> desk_pb2.EarlyClose:
    wanted = desk_pb2.EarlyClose(enabled=enabled, keep_schedule=keep_schedule)
    req = desk_pb2.SetEarlyCloseRequest(campaign_id=campaign, early_close=wanted)
    out: desk_pb2.EarlyClose = await _master_call(b, "SetEarlyClose", req)
    return out


async def set_options(
    b: Backend,
    campaign: str,
    show_ready: bool,
    spectators_see_result: bool = False,
    archive_public: bool = False,
) -> desk_pb2.CampaignOptions:
    wanted = desk_pb2.CampaignOptions(
        show_ready=show_ready, spectators_see_result=spectators_see_result, archive_public=archive_public
    )
    req = desk_pb2.SetCampaignOptionsRequest(campaign_id=campaign, options=wanted)
    out: desk_pb2.CampaignOptions = await _master_call(b, "SetCampaignOptions", req)
    return out
