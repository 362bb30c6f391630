"""The game master's and the naval minister's pages.

A game master is a player of the campaign with the administrator role; his
actions go to CampaignAdmin with the web's administrator token, only after
the orders service confirmed his role.  A naval minister moves his state's
stores between ports (rule 3.5) through the order desk, which checks the
limits."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import common_pb2
from services.web.app import Desk, redirect
from services.web.backend import ForbiddenError, RefusedError
from services.web.pages import STATUS_WORDS, campaign_id, deadline_of

ADMIN_ROLE = "admin"
MINISTER_ROLE = "naval_minister"
MOVE_ROWS = 4  # store move lines on the minister's form


async def master(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    if ADMIN_ROLE not in mine.roles:
        raise ForbiddenError("not a game master")
    return desk.render(
        request,
        "gm.html",
        cid=cid,
        mine=mine,
        turn_status=STATUS_WORDS.get(mine.campaign.status, "?"),
        deadline=deadline_of(mine.campaign),
        message=request.query_params.get("done", "")[:200],
        error="",
    )


async def close_turn(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    form = await desk.form(request)
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    if ADMIN_ROLE not in mine.roles:
        raise ForbiddenError("not a game master")
    turn = form.get("turn", "")
    try:
        if not turn.isdigit() or len(turn) > 3:
            raise RefusedError("turn: give the number of the open turn")
        await desk.backend.close_turn(cid, int(turn))
    except RefusedError as err:
        return desk.render(
            request,
            "gm.html",
            status=422,
            cid=cid,
            mine=mine,
            turn_status=STATUS_WORDS.get(mine.campaign.status, "?"),
            deadline=deadline_of(mine.campaign),
            message="",
            error=err.message,
        )
    return redirect(f"/c/{cid}/gm?done=turn+{turn}+closed")


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
