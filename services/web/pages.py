"""The player's pages: log in and out, the campaign page, the order forms."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import admin_pb2, common_pb2, desk_pb2
from services.web import forms, wording
from services.web.backend import ForbiddenError, NotLoggedInError, RefusedError, Session
from services.web.campaign_map import last_seen, route_map, ship_maps
from services.web.desk import Desk, redirect

ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
SOURCE_WORDS = {  # whose order a ship carries out (rules 4.1, 4.2, 4.11)
    "commander": "the commander's order",
    "deputy": "the deputy commander's order",
    "default": "the default orders (rule 4.11)",
    "copied": "copied from",
}
STATUS_WORDS = {v: k.removeprefix("TURN_STATUS_").lower() for k, v in admin_pb2.TurnStatus.items()}
# The campaign's combat rule set as players know it (docs/rules/eia.md).
RULES_WORDS = {
    "pate": "PATE",
    "eia-advanced": "Empires in Arms, advanced naval rules",
    "eia-advanced-revolution": "Empires in Arms, advanced naval rules (Revolution: no melee chits)",
}
# The campaign's naval rule set (docs/rules/eia-operations.md).
NAVAL_WORDS = {"pate": "PATE's orders and movement", "eia-operations": "Empires in Arms, fleet operations"}


def rules_name(c: admin_pb2.Campaign) -> str:
    """An older server sends no rule set: it played PATE's, the only one it knew."""
    name = c.combat_rules or "pate"
    words = RULES_WORDS.get(name, name)
    if c.naval_rules and c.naval_rules != "pate":
        words += "; " + NAVAL_WORDS.get(c.naval_rules, c.naval_rules)
    return words


def campaign_id(request: Request) -> str:
    cid = str(request.path_params.get("campaign", ""))
    if not ID_PATTERN.match(cid):
        raise ForbiddenError("no such campaign")
    return cid


async def home(desk: Desk, request: Request) -> Response:
    sessions = desk.logged_in(request)
    if not sessions:
        return redirect("/login")
    rows = []
    for s in sessions:
        mine = await desk.backend.my_campaign(s)
        rows.append((s, mine))
    return desk.render(request, "home.html", rows=rows, status_words=STATUS_WORDS)


async def login_form(desk: Desk, request: Request) -> Response:
    return desk.login_page(request, request.query_params.get("campaign", "")[:64])


async def login(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    cid, player, password = form.get("campaign", ""), form.get("player", ""), form.get("password", "")
    kept = _kept(form.get("kept", ""))
    if not (ID_PATTERN.match(cid) and ID_PATTERN.match(player)) or not password or len(password) > 200:
        return desk.login_page(request, cid[:64], "give the campaign, your player id and your password", kept)
    try:
        session = await desk.backend.login(
            cid, player, password, source=request.client.host if request.client else ""
        )
    except (NotLoggedInError, ForbiddenError):
        return desk.login_page(request, cid, "campaign, player or password not recognised", kept)
    except RefusedError as err:  # the login throttle: wait
        return desk.login_page(request, cid, err.message, kept)
    sessions = [session, *(s for s in desk.logged_in(request) if s.campaign != cid)]
    desk.renew_browser(request)
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
    response = redirect("/login")
    desk.renew_browser(request)
    desk.store_sessions(request, response, [])
    return response


# --- the campaign page -------------------------------------------------------


def groups(ships: Sequence[desk_pb2.MyShip]) -> list[tuple[str, list[list[desk_pb2.MyShip]]]]:
    """Ships by location, and at each location by squadron: a lead first,
    then the ships attached to it (rule 4.4)."""
    ids = {s.id for s in ships}
    by_place: dict[str, list[desk_pb2.MyShip]] = defaultdict(list)
    for s in ships:
        by_place[s.location].append(s)
    out = []
    for place in sorted(by_place):
        here = by_place[place]
        attached: dict[str, list[desk_pb2.MyShip]] = defaultdict(list)
        leads = []
        for s in here:
            lead = s.effective.order.attach_to or s.attached_to
            if lead and lead in ids and not s.effective.order.detach:
                attached[lead].append(s)
            else:
                leads.append(s)
        squadrons = [[lead, *attached.pop(lead.id, [])] for lead in leads]
        squadrons.extend(list(rest) for rest in attached.values())
        out.append((place, squadrons))
    return out


def deadline_of(c: admin_pb2.Campaign) -> datetime | None:
    return c.deadline.ToDatetime(tzinfo=UTC) if c.HasField("deadline") else None


async def campaign(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    sent_ids = desk.flash(request).get("sent", [])
    done = [s for s in sent_ids if isinstance(s, str)] if isinstance(sent_ids, list) else []
    return desk.render(
        request,
        "campaign.html",
        mine=mine,
        cid=cid,
        groups=groups(mine.ships),
        maps=ship_maps(mine.ships, await last_seen(desk.backend, session, mine.campaign.turn)),
        deadline=deadline_of(mine.campaign),
        turn_status=STATUS_WORDS.get(mine.campaign.status, "?"),
        rules=rules_name(mine.campaign),
        describe=forms.describe_order,
        source_words=SOURCE_WORDS,
        sent=set(done),
        ordered=ships_ordered(mine.ships),
        now=datetime.now(UTC),
    )


def ships_ordered(ships: Sequence[desk_pb2.MyShip]) -> int:
    """Ships with orders of their own, or attached to a lead that has some (rule 4.2): a
    squadron whose lead of his has none is not counted, as it only keeps the defaults."""
    unordered = {s.id for s in ships if not s.has_orders}
    return sum(1 for s in ships if s.has_orders or s.effective.copied_from not in unordered | {""})


# --- the order form ----------------------------------------------------------


async def ship_form(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    return await _order_page(desk, request, cid, session, [str(request.path_params["ship"])])


async def squadron_form(desk: Desk, request: Request) -> Response:
    """A lead and the ships attached to it, ordered in one request (rule 4.4)."""
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    lead = str(request.path_params["ship"])
    mine = await desk.backend.my_campaign(session)
    members = [
        s.id for s in mine.ships if s.id != lead and (s.effective.order.attach_to or s.attached_to) == lead
    ]
    return await _order_page(desk, request, cid, session, [lead, *members], mine=mine)


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
) -> Response:
    mine = mine or await desk.backend.my_campaign(session)
    by_id = {s.id: s for s in mine.ships}
    if not ship_ids or any(sid not in by_id for sid in ship_ids):
        raise ForbiddenError("not your ship")  # another player's ship looks like no ship at all
    ships = [by_id[sid] for sid in ship_ids]
    filled = values or {}
    if values is None:
        for i, s in enumerate(ships):
            filled.update({f"{i}.{k}": v for k, v in forms.values_of(s.effective.order).items()})
    companions = {
        s.id: [o.id for o in mine.ships if o.id != s.id and o.location == s.location] for s in ships
    }
    return desk.render(
        request,
        "order_form.html",
        status=status,
        mine=mine,
        cid=cid,
        ships=ships,
        moves={s.id: forms.movement_choices(s) for s in ships},
        route=route_map(ships),
        choices=forms.CHOICES,
        values=filled,
        errors=errors or forms.FieldErrors(),
        companions=companions,
        ship_list=",".join(ship_ids),
        turn=mine.campaign.turn,
    )


async def submit_form(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    form = await desk.form(request)
    request.state.kept_form = form  # an expired session keeps what was typed
    session = desk.session_for(request, cid)
    ship_ids = [s for s in form.get("ships", "").split(",") if s][:50]
    try:
        orders = [forms.order_from_form(form, i, sid) for i, sid in enumerate(ship_ids)]
    except forms.FormError as err:
        errors = forms.FieldErrors(by_input={(err.index, err.name): [err.message]})
        return await _order_page(
            desk, request, cid, session, ship_ids, values=form, errors=errors, status=422
        )
    turn = _turn(form)
    try:
        await desk.backend.submit(session, turn, orders=orders)
    except RefusedError as err:
        errors = forms.place_refusals(err.refusals, fallback=err.message, ships=ship_ids)
        return await _order_page(
            desk, request, cid, session, ship_ids, values=form, errors=errors, status=422
        )
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
