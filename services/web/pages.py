"""The player's pages: log in and out, the campaign page, the order forms."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from pate.core.world.state import COMBAT_RULESETS, NAVAL_RULESETS
from pate.v1 import common_pb2, desk_pb2
from services.platform.security.field_shapes import CAMPAIGN_ID
from services.web import create_form, forms, operation_form, wording
from services.web.backend import Session
from services.web.backend_errors import ForbiddenError, NotLoggedInError, RefusedError
from services.web.campaign_page import (
    NAVAL_WORDS,
    RULES_WORDS,
    STATUS_WORDS,
    campaign_view,
    deadline_of,
    form_context,
    rules_name,
    squadron_of,
)
from services.web.desk import Desk, redirect

# the game master's page (gm.py) takes the campaign's words from here, where they were first
__all__ = [
    "ID_PATTERN",
    "NAVAL_WORDS",
    "RULES_WORDS",
    "STATUS_WORDS",
    "campaign_id",
    "deadline_of",
    "rules_name",
]

ID_PATTERN = re.compile(r"[A-Za-z0-9_.-]{1,64}")  # matched whole (fullmatch): "x\n" is no id
MAX_PASSWORD = 1024  # as the services take (docs/security.md)


def campaign_id(request: Request) -> str:
    cid = str(request.path_params.get("campaign", ""))
    if not ID_PATTERN.fullmatch(cid):
        raise ForbiddenError("no such campaign")
    return cid


async def home(desk: Desk, request: Request, status: int = 200, **ctx: Any) -> Response:
    """His campaigns, and the form that makes him a solo campaign (services/web/solo_page.py);
    ``sessions`` given: those, as the cookie this answer sets will hold them."""
    sessions = ctx.pop("sessions", None) or desk.logged_in(request)
    if not sessions:
        return redirect("/login")
    rows = []
    for s in sessions:
        try:
            rows.append((s, await desk.backend.my_campaign(s)))
        except NotLoggedInError:  # revoked: no longer shown as logged in, and gone from the cookie
            continue
    live = [s for s, _ in rows]
    ctx.setdefault("solo_errors", {})
    ctx.setdefault("solo_values", {})
    ctx.setdefault("solo_created", None)
    response = (
        desk.render(
            request,
            "home.html",
            status=status,
            rows=rows,
            status_words=STATUS_WORDS,
            campaigns=live,
            seat_choices=create_form.seat_choices(),
            rules_choices=[(n, RULES_WORDS.get(n, n)) for n in COMBAT_RULESETS],
            naval_choices=[(n, NAVAL_WORDS.get(n, n)) for n in NAVAL_RULESETS],
            **ctx,
        )
        if live
        else redirect("/login")
    )
    if len(live) < len(sessions):
        desk.store_sessions(request, response, live)
    return response


async def login_form(desk: Desk, request: Request) -> Response:
    return desk.login_page(request, request.query_params.get("campaign", "")[:64])


async def login(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    cid, player, password = form.get("campaign", ""), form.get("player", ""), form.get("password", "")
    kept = _kept(form.get("kept", ""))
    if (
        not (ID_PATTERN.fullmatch(cid) and ID_PATTERN.fullmatch(player))
        or not password
        or len(password) > MAX_PASSWORD
    ):
        said = "give the campaign, your player id and your password"
        return desk.login_page(request, cid[:64], said, kept, player=player[:64])
    if not CAMPAIGN_ID.fullmatch(cid):  # no campaign has such an id: said as for a wrong password
        return desk.login_page(
            request, cid, "campaign, player or password not recognised", kept, player=player
        )
    try:
        session = await desk.backend.login(
            cid, player, password, source=request.client.host if request.client else ""
        )
    except (NotLoggedInError, ForbiddenError):
        return desk.login_page(
            request, cid, "campaign, player or password not recognised", kept, player=player
        )
    except RefusedError as err:  # the login throttle: wait
        return desk.login_page(request, cid, err.message, kept, player=player)
    sessions = [session, *(s for s in desk.logged_in(request) if s.campaign != cid)]
    desk.renew_browser(request)
    request.state.fresh_session = session  # a form re-issued below carries a token of this session
    if kept and "ships" in kept:
        # the form the expired session interrupted, filled in again (not sent)
        ships = [s for s in kept["ships"].split(",") if s]
        response = await _order_page(desk, request, cid, session, ships, values=kept)
    elif kept and "text" in kept:  # pasted order text, back in its box
        mine = await desk.backend.my_campaign(session)
        response = desk.render(
            request, "orders_text.html", mine=mine, cid=cid, text=kept["text"], refusals=[], message=""
        )
    else:
        response = redirect(f"/c/{cid}")
    desk.store_sessions(request, response, sessions)
    return response


def _kept(text: str) -> dict[str, str] | None:
    try:
        value = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    return {str(k): str(v) for k, v in value.items() if isinstance(v, str)}


async def logout(desk: Desk, request: Request) -> Response:
    await desk.form(request)
    for session in desk.logged_in(request):
        await desk.backend.logout(session)
    desk.renew_browser(request)
    # post-redirect-get: Back after it never resends a form; the login page says it is done
    response = desk.redirect_with(request, "/login", logged_out=True)
    desk.store_sessions(request, response, [])
    return response


# --- the campaign page and the order form ------------------------------------


async def campaign(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    return await campaign_view(desk, request, cid, session)


# --- the order form ----------------------------------------------------------


async def ship_form(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    return await _order_page(desk, request, cid, session, [str(request.path_params["ship"])])


async def squadron_form(desk: Desk, request: Request) -> Response:
    """A lead and the ships attached to it, ordered in one request (rule 4.4)."""
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    lead = str(request.path_params["ship"])
    return await _order_page(desk, request, cid, session, squadron_of(mine, lead), mine=mine)


async def _order_page(
    desk: Desk,
    request: Request,
    cid: str,
    session: Session,
    ship_ids: Sequence[str],
    *,
    values: dict[str, str] | None = None,
    errors: forms.FieldErrors | None = None,
    mine: desk_pb2.MyCampaign | None = None,
    status: int = 200,
    extra: dict[str, Any] | None = None,
) -> Response:
    mine = mine or await desk.backend.my_campaign(session)
    context = {**form_context(mine, ship_ids, values, errors), **(extra or {})}
    return desk.render(request, "order_page.html", status=status, mine=mine, cid=cid, **context)


async def _refused(
    desk: Desk,
    request: Request,
    cid: str,
    session: Session,
    ship_ids: Sequence[str],
    form: dict[str, str],
    errors: forms.FieldErrors,
) -> Response:
    """Nothing accepted: the same form again, filled in as sent, each refusal
    beside its field; in the campaign page's panel when it came from there."""
    if form.get("panel") == "1":
        mine = await desk.backend.my_campaign(session)
        return await campaign_view(
            desk, request, cid, session, mine=mine, panel=ship_ids, values=form, errors=errors, status=422
        )
    return await _order_page(desk, request, cid, session, ship_ids, values=form, errors=errors, status=422)


@dataclass(frozen=True, slots=True)
class PostedOrders:
    """The order form as posted (to be sent, or previewed), read into orders."""

    form: dict[str, str]
    session: Session
    ship_ids: list[str]
    orders: list[common_pb2.ShipOrder]


async def posted_orders(desk: Desk, request: Request, cid: str) -> PostedOrders | Response:
    """The posted order form's orders, or the form again with what is wrong beside its field."""
    form = await desk.form(request)
    request.state.kept_form = form  # an expired session keeps what was typed
    session = desk.session_for(request, cid)
    ship_ids = [s for s in form.get("ships", "").split(",") if s][:50]
    try:
        orders = [forms.order_from_form(form, i, sid) for i, sid in enumerate(ship_ids)]
        if operation_form.chosen(form, len(ship_ids)):
            mine = await desk.backend.my_campaign(session)
            operation_form.add_operations(form, orders, {s.id: s for s in mine.ships})
    except (forms.FormError, operation_form.OperationFormError) as err:
        errors = forms.FieldErrors(by_input={(err.index, err.name): [err.message]})
        if not err.name:  # no input shows it (an operation sent where none may be taken)
            errors = forms.FieldErrors(general=[err.message])
        return await _refused(desk, request, cid, session, ship_ids, form, errors)
    return PostedOrders(form, session, ship_ids, orders)


async def submit_form(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    posted = await posted_orders(desk, request, cid)
    if isinstance(posted, Response):
        return posted
    form, session, ship_ids, orders = posted.form, posted.session, posted.ship_ids, posted.orders
    turn = _turn(form)
    try:
        await desk.backend.submit(session, turn, orders=orders)
    except RefusedError as err:
        errors = forms.place_refusals(err.refusals, fallback=err.message, ships=ship_ids)
        return await _refused(desk, request, cid, session, ship_ids, form, errors)
    return desk.redirect_with(request, f"/c/{cid}#sent", sent=list(ship_ids)[:200])


def _turn(form: dict[str, str]) -> int:
    text = form.get("turn", "")
    return int(text) if text.isdigit() and len(text) < 4 else 0


async def submit_text(desk: Desk, request: Request) -> Response:
    """Orders pasted or uploaded in the order file format (docs/formats/orders.md)."""
    cid = campaign_id(request)
    if request.method == "GET":
        session = desk.session_for(request, cid)
        mine = await desk.backend.my_campaign(session)
        return desk.render(request, "orders_text.html", mine=mine, cid=cid, text="", refusals=[], message="")
    form = await desk.form(request)
    request.state.kept_form = form
    session = desk.session_for(request, cid)
    text = form.get("text", "").strip() or (await desk.upload(request, "file")).strip()
    mine = await desk.backend.my_campaign(session)
    if not text:
        return desk.render(
            request,
            "orders_text.html",
            status=422,
            mine=mine,
            cid=cid,
            text="",
            refusals=[],
            message="paste or upload some orders",
        )
    try:
        sent = await desk.backend.submit(session, mine.campaign.turn, text=text)
    except (RefusedError, ForbiddenError) as err:
        # a ship not his reads like one that does not exist, and the pasted text stays in its box
        said = wording.refusals(getattr(err, "refusals", ()), err.message, wording.pasted_ships(text))
        return desk.render(
            request,
            "orders_text.html",
            status=422,
            mine=mine,
            cid=cid,
            text=text,
            refusals=said or ["a ship named there is not one you may order"],
            message="",
        )
    return desk.redirect_with(request, f"/c/{cid}#sent", sent=list(sent.ship_ids)[:200])


def refusal_text(r: common_pb2.Refusal) -> str:
    return f"{r.field}: {r.message} (rule {r.rule})"
