"""The report pages: the archive by turn, each turn's event and position
report with its maps (the reports service's own HTML and SVG, shown in a
sandboxed frame), and the text report to download (rule 3.11)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from pate.v1 import admin_pb2
from services.platform.security.field_shapes import MAX_TURN
from services.web import security
from services.web.backend_errors import ForbiddenError
from services.web.desk import Desk
from services.web.pages import campaign_id


def turn_of(request: Request) -> int:
    """The turn a report URL names; one no campaign can have is "Not found", as a turn without
    a report of the player's is (docs/web.md)."""
    turn = int(request.path_params["turn"])
    if not 0 <= turn <= MAX_TURN:
        raise ForbiddenError("no such report")
    return turn


async def archive(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    turns = await desk.backend.list_reports(session)
    mine = await desk.backend.my_campaign(session)
    ended = mine.campaign.status == admin_pb2.TURN_STATUS_FINISHED
    return desk.render(request, "reports.html", cid=cid, turns=turns, ended=ended)


async def report(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    turn = turn_of(request)
    await desk.backend.report(session, turn, "text")  # 404 before the frame, when there is none
    return desk.render(request, "report.html", cid=cid, turn=turn)


async def body(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    html = await desk.backend.report(session, turn_of(request), "html")
    return HTMLResponse(html, headers={"content-security-policy": security.REPORT_CSP})


async def text(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    turn = turn_of(request)
    body = await desk.backend.report(session, turn, "text")
    name = f"{cid}-turn-{turn}.txt"
    return PlainTextResponse(body, headers={"content-disposition": f'attachment; filename="{name}"'})
