"""The naval minister's page: his state's ports (stores, yard capacity) and
the store moves of rule 3.5, sent through the order desk, which checks their
limits (at most 60 from a port a turn, no hostile ships about...)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import common_pb2
from services.web.app import Desk, redirect
from services.web.backend import ForbiddenError, RefusedError
from services.web.pages import campaign_id

MINISTER_ROLE = "naval_minister"
MOVE_ROWS = 4  # store move lines on the form


async def minister(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    if MINISTER_ROLE not in mine.roles:
        raise ForbiddenError("not a naval minister")
    return desk.render(
        request,
        "minister.html",
        cid=cid,
        mine=mine,
        rows=range(MOVE_ROWS),
        values={},
        refusals=[],
        message=request.query_params.get("done", "")[:200],
    )


async def move_stores(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    form = await desk.form(request)
    request.state.kept_form = form
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    if MINISTER_ROLE not in mine.roles:
        raise ForbiddenError("not a naval minister")
    moves = []
    for i in range(MOVE_ROWS):
        origin, dest, amount = (form.get(f"{i}.{k}", "").strip() for k in ("origin", "destination", "amount"))
        if origin or dest or amount:
            n = int(amount) if amount.isdigit() and len(amount) < 6 else -1
            moves.append(common_pb2.StoresMoveOrder(origin=origin, destination=dest, amount=n))
    try:
        if not moves:
            raise RefusedError("stores_moves: fill in at least one move")
        await desk.backend.submit(session, mine.campaign.turn, stores_moves=moves)
    except RefusedError as err:
        return desk.render(
            request,
            "minister.html",
            status=422,
            cid=cid,
            mine=mine,
            rows=range(MOVE_ROWS),
            values=form,
            refusals=list(err.refusals) or [err.message],
            message="",
        )
    return redirect(f"/c/{cid}/minister?done={len(moves)}+store+moves+sent")
