"""The lobby's pages of the web desk (docs/lobby.md, docs/web.md "The lobby"): browse the
published campaigns with filters, a listing with its seats and the take or ask buttons, a solo
game for a signed-in account, and the game master's page: publish, start, the asks with each
asker's record (approve, refuse), a replacement seat.  Every page is a gRPC client of
pate.v1.Lobby; every form goes through the desk's CSRF check.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import lobby_pb2 as pb
from services.web import lobby_calls
from services.web.account_pages import ACCOUNT_COOKIE
from services.web.backend import Session
from services.web.backend_errors import ForbiddenError, NotLoggedInError, RefusedError
from services.web.desk import Desk, redirect
from services.web.gm import master_of_campaign
from services.web.pages import ID_PATTERN, campaign_id

HOME = "/lobby"
FILTERS = ("scenario", "combat_rules", "naval_rules", "max_turn_hours", "free", "page")


def _account(request: Request) -> str:
    token = request.cookies.get(ACCOUNT_COOKIE, "")
    return token if 20 <= len(token) <= 100 else ""


def _filters(request: Request) -> dict[str, str]:
    q = request.query_params
    return {name: q.get(name, "")[:64] for name in FILTERS}


def _browse_request(f: dict[str, str]) -> pb.BrowseRequest:
    hours = f["max_turn_hours"]
    return pb.BrowseRequest(
        scenario=f["scenario"],
        combat_rules=f["combat_rules"],
        naval_rules=f["naval_rules"],
        max_turn_hours=int(hours) if hours.isdigit() and len(hours) <= 5 else 0,
        free_seats=f["free"] == "1",
        page_token=f["page"] if f["page"].isdigit() else "",
    )


async def _record(desk: Desk, token: str) -> Any:
    if not token:
        return None
    try:
        return await lobby_calls.record(desk.backend, token)
    except NotLoggedInError:
        return None


async def browse(desk: Desk, request: Request) -> Response:
    f = _filters(request)
    flash = desk.flash(request)
    said, error = flash.get("said", ""), flash.get("error")
    listings: list[Any] = []
    more = ""
    try:
        out = await lobby_calls.call(desk.backend, "Browse", _browse_request(f))
        listings, more = list(out.listings), out.next_page_token
    except RefusedError as err:
        said, error = err.message, True
    token = _account(request)
    return desk.render(
        request,
        "lobby.html",
        listings=listings,
        more=more,
        filters=f,
        record=await _record(desk, token),
        signed_in=bool(token),
        said=said,
        error=error,
    )


async def listing(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    try:
        found = await lobby_calls.call(desk.backend, "GetListing", pb.LobbyCampaignRequest(campaign_id=cid))
    except RefusedError as err:
        raise ForbiddenError(err.message) from None  # a 404, as any page that is not there
    token = _account(request)
    flash = desk.flash(request)
    return desk.render(
        request,
        "lobby_listing.html",
        listing=found,
        record=await _record(desk, token),
        signed_in=bool(token),
        said=flash.get("said", ""),
        error=flash.get("error"),
    )


async def _seat_form(desk: Desk, request: Request) -> tuple[str, str, str]:
    cid = campaign_id(request)
    form = await desk.form(request)
    player = form.get("player", "")[:65]
    token = _account(request)
    if not token:
        raise NotLoggedInError("log in to your account")
    return cid, player, token


async def _act(desk: Desk, request: Request, method: str, done: str) -> Response:
    cid, player, token = await _seat_form(desk, request)
    back = f"{HOME}/{cid}"
    req = pb.LobbySeatRequest(campaign_id=cid, player_id=player)
    try:
        out = await lobby_calls.call(desk.backend, method, req, token=token)
    except NotLoggedInError:
        return desk.redirect_with(request, "/account", said="log in to your account first", error=True)
    except (RefusedError, ForbiddenError) as err:  # a refusal, a seat not offered, a low record
        return desk.redirect_with(request, back, said=err.message[:300], error=True)
    if method == "TakeSeat" and out.plays_from:
        done += f" You play it from turn {out.plays_from}; its reports from turn {out.reports_from} on."
    return desk.redirect_with(request, back, said=done)


async def take(desk: Desk, request: Request) -> Response:
    return await _act(desk, request, "TakeSeat", "The seat is yours: play it from your account page.")


async def ask(desk: Desk, request: Request) -> Response:
    return await _act(desk, request, "AskSeat", "Asked: the game master answers.")


async def leave(desk: Desk, request: Request) -> Response:
    return await _act(desk, request, "LeaveSeat", "You gave the seat up.")


async def solo(desk: Desk, request: Request) -> Response:
    """A solo game for the signed-in account; its seat opens at once."""
    form = await desk.form(request)
    token = _account(request)
    if not token:
        return desk.redirect_with(request, "/account", said="log in to your account first", error=True)
    scenario, _, seat = form.get("seat", "").partition("/")
    req = pb.StartSoloRequest(
        campaign_id=form.get("new_id", "")[:41],
        scenario=scenario[:41],
        seat=seat[:65],
        combat_rules=form.get("combat_rules", "")[:65],
        naval_rules=form.get("naval_rules", "")[:65],
    )
    try:
        out = await lobby_calls.call(
            desk.backend, "StartSolo", req, token=token, timeout=lobby_calls.SOLO_TIMEOUT
        )
    except NotLoggedInError:
        return desk.redirect_with(request, "/account", said="log in to your account first", error=True)
    except (RefusedError, ForbiddenError) as err:
        return desk.redirect_with(request, HOME, said=err.message[:300], error=True)
    session = Session(out.token, out.campaign_id, out.player_id, float(out.expires_at.ToSeconds()))
    others = [s for s in desk.logged_in(request) if s.campaign != session.campaign]
    response = redirect(f"/c/{session.campaign}")
    desk.store_sessions(request, response, [session, *others])
    return response


async def _master(desk: Desk, request: Request) -> str:
    cid, _mine = await master_of_campaign(desk, request)
    return cid


async def gm_page(desk: Desk, request: Request) -> Response:
    """The game master's lobby page: publish, or the listing, its asks and its start."""
    cid = await _master(desk, request)
    found, asks = None, []
    try:
        found = await lobby_calls.call(desk.backend, "GetListing", pb.LobbyCampaignRequest(campaign_id=cid))
        listed = await lobby_calls.call(
            desk.backend, "ListRequests", pb.LobbyCampaignRequest(campaign_id=cid), admin=True
        )
        asks = list(listed.asks)
    except ForbiddenError:
        found = None  # not in the lobby yet (NOT_FOUND): the publish form
    flash = desk.flash(request)
    return desk.render(
        request,
        "lobby_gm.html",
        campaign=cid,
        listing=found,
        asks=asks,
        said=flash.get("said", ""),
        error=flash.get("error"),
    )


async def _gm_call(desk: Desk, request: Request, cid: str, method: str, req: Any, done: str) -> Response:
    back = f"/c/{cid}/gm/lobby"
    try:
        await lobby_calls.call(desk.backend, method, req, admin=True)
    except (RefusedError, ForbiddenError) as err:
        return desk.redirect_with(request, back, said=err.message[:300], error=True)
    return desk.redirect_with(request, back, said=done)


async def gm_publish(desk: Desk, request: Request) -> Response:
    cid = await _master(desk, request)
    form = await desk.form(request)
    seats = [s for s in form.get("seats", "").replace(",", " ").split() if ID_PATTERN.fullmatch(s)][:200]
    minimum = form.get("min_reliability", "0")[:3]
    req = pb.PublishRequest(
        campaign_id=cid,
        description=form.get("description", "")[:2001],
        time_zone=form.get("time_zone", "")[:65],
        seat_policy=form.get("seat_policy", "")[:33],
        min_reliability=int(minimum) if minimum.isdigit() else 0,
        start=form.get("start", "")[:33],
        seats=seats,
    )
    return await _gm_call(desk, request, cid, "Publish", req, "Published: the campaign is in the lobby.")


async def gm_start(desk: Desk, request: Request) -> Response:
    cid = await _master(desk, request)
    await desk.form(request)
    req = pb.LobbyCampaignRequest(campaign_id=cid)
    return await _gm_call(desk, request, cid, "StartCampaign", req, "Started: the first deadline runs.")


async def gm_decide(desk: Desk, request: Request) -> Response:
    cid = await _master(desk, request)
    form = await desk.form(request)
    approve = form.get("decision", "") == "approve"
    req = pb.DecideRequest(campaign_id=cid, ask_id=form.get("ask_id", "")[:17])
    method, done = ("Approve", "Approved: the seat is his.") if approve else ("Refuse", "Refused.")
    return await _gm_call(desk, request, cid, method, req, done)


async def gm_replace(desk: Desk, request: Request) -> Response:
    cid = await _master(desk, request)
    form = await desk.form(request)
    req = pb.LobbySeatRequest(campaign_id=cid, player_id=form.get("player", "")[:65])
    done = "The seat is offered in the lobby; its holder plays until a newcomer takes it."
    return await _gm_call(desk, request, cid, "OpenReplacementSeat", req, done)
