"""The public archive (docs/web.md, "The archive"): finished campaigns whose game master put
them in it, each with its result and every side's replay, for anyone, logged in or not.

The orders service decides what is in it (CampaignResults.ListArchive, GetArchived): this page
asks it before it shows anything, and a campaign it does not name is the one "Not found" page.
Only then does the desk read the reports it replays, as it reads them for a game master.
"""

from __future__ import annotations

import grpc
from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import result_pb2, result_pb2_grpc
from services.web.backend import CALL_TIMEOUT, Backend
from services.web.backend_errors import translate
from services.web.desk import Desk

MAX_TOKEN = 64


async def list_archive(b: Backend, page_token: str) -> result_pb2.ListArchiveResponse:
    stub = result_pb2_grpc.CampaignResultsStub(b._orders())
    try:
        out: result_pb2.ListArchiveResponse = await stub.ListArchive(
            result_pb2.ListArchiveRequest(page_size=20, page_token=page_token), timeout=CALL_TIMEOUT
        )
    except grpc.RpcError as err:
        raise translate(err, "orders") from None
    return out


async def archived(b: Backend, campaign: str) -> result_pb2.ArchivedCampaign:
    """The campaign if it is in the archive; NotFound (the 404 page) otherwise."""
    stub = result_pb2_grpc.CampaignResultsStub(b._orders())
    try:
        out: result_pb2.ArchivedCampaign = await stub.GetArchived(
            result_pb2.GetArchivedRequest(campaign_id=campaign), timeout=CALL_TIMEOUT
        )
    except grpc.RpcError as err:
        raise translate(err, "orders") from None
    return out


async def archive(desk: Desk, request: Request) -> Response:
    after = request.query_params.get("after", "")[:MAX_TOKEN]
    page = await list_archive(desk.backend, after)
    return desk.render(request, "archive.html", page=page, after=after)
