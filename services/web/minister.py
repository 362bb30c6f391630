"""The naval minister's page: his state's ports (stores, yard capacity), the
store moves of rule 3.5, sent through the order desk, which checks their
limits (at most 60 from a port a turn, no hostile ships about...), and the
commanders and deputies of his state's ships (rule 2.3), in force from the
next turn."""

from __future__ import annotations

import unicodedata

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from pate.v1 import common_pb2, desk_pb2
from services.web import wording
from services.web.backend import Session
from services.web.backend_errors import ForbiddenError, RefusedError
from services.web.desk import Desk
from services.web.pages import campaign_id

MINISTER_ROLE = "naval_minister"
MOVE_ROWS = 4  # store move lines on the form


async def _minister(
    desk: Desk, request: Request, *, posted: bool = False
) -> tuple[str, Session, desk_pb2.MyCampaign, dict[str, str]]:
    """The campaign, the caller's session, his view of it and (``posted``) the form
    he sent, kept for the login page should his session have expired;
    ForbiddenError unless he is the campaign's naval minister."""
    cid = campaign_id(request)
    form: dict[str, str] = {}
    if posted:
        form = await desk.form(request)
        request.state.kept_form = form
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    if MINISTER_ROLE not in mine.roles:
        raise ForbiddenError("not a naval minister")
    return cid, session, mine, form


async def minister(desk: Desk, request: Request) -> Response:
    cid, _session, mine, _form = await _minister(desk, request)
    return _page(desk, request, cid, mine, message=str(desk.flash(request).get("done", ""))[:200])


def _page(
    desk: Desk,
    request: Request,
    cid: str,
    mine: desk_pb2.MyCampaign,
    *,
    status: int = 200,
    values: dict[str, str] | None = None,
    refusals: list[str] | None = None,
    message: str = "",
) -> HTMLResponse:
    pending = {a.ship_id: a for a in mine.pending_assignments}
    return desk.render(
        request,
        "minister.html",
        status=status,
        cid=cid,
        mine=mine,
        rows=range(MOVE_ROWS),
        values=values or {},
        refusals=refusals or [],
        message=message,
        pending=pending,
    )


def _label(typed: str) -> str:
    """What the minister typed, as the name of his move in a refusal: at most 40 characters,
    without control or format characters (a right-to-left override would turn the sentence
    around), "?" when empty; the service quotes its own excerpt of what it refuses."""
    shown = "".join(ch for ch in typed[:40] if unicodedata.category(ch)[0] != "C")
    return (shown + ("..." if len(typed) > 40 else "")) or "?"


async def move_stores(desk: Desk, request: Request) -> Response:
    cid, session, mine, form = await _minister(desk, request, posted=True)
    moves, names = [], []
    for i in range(MOVE_ROWS):
        origin, dest, amount = (form.get(f"{i}.{k}", "").strip() for k in ("origin", "destination", "amount"))
        if origin or dest or amount:
            n = int(amount) if amount.isdigit() and len(amount) < 8 else -1
            moves.append(common_pb2.StoresMoveOrder(origin=origin, destination=dest, amount=n))
            names.append(f"store move {len(moves)} ({_label(origin)} to {_label(dest)})")
    try:
        if not moves:
            raise RefusedError("fill in at least one store move")
        bad = [f"{names[i]}, amount: a whole number, please" for i, mv in enumerate(moves) if mv.amount < 0]
        if bad:
            raise RefusedError("; ".join(bad))
        await desk.backend.submit(session, mine.campaign.turn, stores_moves=moves)
    except RefusedError as err:
        said = wording.refusals(err.refusals, err.message, names)
        return _page(desk, request, cid, mine, status=422, values=form, refusals=said)
    sent = f"{len(moves)} store move{'' if len(moves) == 1 else 's'} sent"
    return desk.redirect_with(
        request, f"/c/{cid}/minister", done=f"{sent}, replacing any list sent before this turn"
    )


async def assign_officers(desk: Desk, request: Request) -> Response:
    """Rule 2.3: the commander and deputy of his state's ships, from the next turn."""
    cid, session, mine, form = await _minister(desk, request, posted=True)
    items: list[desk_pb2.OfficerAssignment] = []
    for ship in mine.ships:
        commander, deputy = form.get(f"{ship.id}.commander"), form.get(f"{ship.id}.deputy")
        if commander is None or deputy is None:
            continue
        if (commander, deputy) != (ship.commander, ship.deputy):  # only what he changed
            items.append(desk_pb2.OfficerAssignment(ship_id=ship.id, commander=commander, deputy=deputy))
    try:
        if not items:
            raise RefusedError("change a commander or a deputy first")
        n = await desk.backend.assign_officers(session, mine.campaign.turn, items)
    except RefusedError as err:
        # what he chose stays chosen: fixing one select must not send a pair he never picked
        kept = {k: v for k, v in form.items() if k.endswith((".commander", ".deputy"))}
        said = wording.refusals(err.refusals, err.message, [a.ship_id for a in items])
        return _page(desk, request, cid, mine, status=422, values=kept, refusals=said)
    done = f"{n} assignments sent: in force from the next turn"
    return desk.redirect_with(request, f"/c/{cid}/minister", done=done)
