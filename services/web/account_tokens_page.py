"""The account page's API tokens and account edits (docs/api.md, docs/accounts.md).

A new token is shown once, on the page that answers the form (never in a redirect's cookie or
URL, never again); the list shows ids and prefixes only.  The seats of a token are ticked among
the account's own; the orders service checks them again.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import accounts_pb2 as pb
from services.web import account_calls, time_zones
from services.web.account_pages import _said, _signed_in, _source
from services.web.backend_errors import NotLoggedInError, RefusedError
from services.web.desk import Desk
from services.web.pages import ID_PATTERN

MAX_SEATS = 50
MAX_FIELD = 254


async def create_token(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    token = await _signed_in(desk, request)
    scope = form.get("scope", "")
    seats = []
    ticked = [v for k, v in form.items() if k.startswith("seat_")]  # one box per seat of his
    if len(ticked) > MAX_SEATS:
        return _said(desk, request, f"seats: at most {MAX_SEATS}", error=True)
    for value in ticked:
        campaign, _, player = value.partition("/")
        if not (ID_PATTERN.fullmatch(campaign) and ID_PATTERN.fullmatch(player)):
            return _said(desk, request, "seats: no such seat of yours", error=True)
        seats.append(pb.ApiTokenSeat(campaign_id=campaign, player_id=player))
    days = str(form.get("days", "90"))[:4]
    req = pb.CreateApiTokenRequest(
        name=str(form.get("name", ""))[: MAX_FIELD + 1],
        read_only=form.get("access") != "orders",
        all_seats=scope == "all",
        seats=[] if scope == "all" else seats,
        expires_in_days=int(days) if days.isdigit() else -1,
    )
    try:
        out = await account_calls.call(desk.backend, "CreateApiToken", req, token=token)
    except RefusedError as err:
        return _said(desk, request, err.message, error=True)
    return desk.render(request, "account_token.html", made=out)


async def revoke_token(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    token = await _signed_in(desk, request)
    req = pb.RevokeApiTokenRequest(token_id=str(form.get("token_id", ""))[:40])
    try:
        out = await account_calls.call(desk.backend, "RevokeApiToken", req, token=token)
    except RefusedError as err:
        return _said(desk, request, err.message, error=True)
    return _said(desk, request, f"{out.revoked} API token(s) revoked; their seat sessions have ended.")


async def update_account(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    token = await _signed_in(desk, request)
    f = {k: str(form.get(k, ""))[: MAX_FIELD + 1] for k in ("display_name", "time_zone", "email")}
    req = pb.UpdateAccountRequest(
        display_name=f["display_name"],
        time_zone=f["time_zone"] if f["time_zone"] != "UTC" else "",
        clear_time_zone=f["time_zone"] == "UTC",
        email=f["email"],
        password=str(form.get("password", ""))[:1025],
    )
    try:
        out = await account_calls.call(
            desk.backend, "UpdateAccount", req, token=token, source=_source(request)
        )
    except NotLoggedInError:
        return _said(desk, request, "password not recognised (or your session ended)", error=True)
    except RefusedError as err:
        return _said(desk, request, err.message, error=True)
    said = "Your account is saved."
    if out.email_pending:
        said += " A link went to the new address: the change happens once you follow it."
    response = _said(desk, request, said)
    time_zones.keep(response, request, out.time_zone)
    return response
