"""The account pages of the web desk (docs/accounts.md): sign up, confirm the address, log in,
the seats in every campaign with a button that opens each one's session, claiming a seat,
the account's sessions, a new password by mail, and deleting the account.

The account's token is a cookie of its own (``pate_account``, HttpOnly, as the seat sessions'
cookie); a seat opened from the account joins the seat sessions' cookie, so every campaign page
works as after a seat login.  A link from a mail opens a page whose button spends the token: a
mail scanner fetching the link spends nothing.  Every form goes through the desk's CSRF check.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import accounts_pb2 as pb
from services.web import account_calls, lobby_calls, security, time_zones
from services.web.backend_errors import NotLoggedInError, RefusedError
from services.web.desk import Desk, Handler, redirect
from services.web.pages import ID_PATTERN, MAX_PASSWORD

ACCOUNT_COOKIE = "pate_account"
HOME = "/account"


def _token(request: Request) -> str:
    token = request.cookies.get(ACCOUNT_COOKIE, "")
    return token if 20 <= len(token) <= 100 else ""


def _source(request: Request) -> str:
    return request.client.host if request.client else ""


def _said(desk: Desk, request: Request, text: str, *, error: bool = False) -> Response:
    return desk.redirect_with(request, HOME, said=text[:300], error=error)


async def account(desk: Desk, request: Request) -> Response:
    """Logged in: the account, its seats and sessions; else the forms that get him in."""
    token = _token(request)
    ctx: dict[str, Any] = {"me": None, "seats": [], "sessions": [], "record": None, "api_tokens": []}
    if token:
        try:
            ctx["me"] = await account_calls.call(
                desk.backend, "ListSeats", pb.ListSeatsRequest(), token=token
            )
            listed = await account_calls.call(
                desk.backend, "ListSessions", pb.ListSessionsRequest(), token=token
            )
            ctx["sessions"] = list(listed.sessions)
            ctx["seats"] = list(ctx["me"].seats)
            ctx["record"] = await lobby_calls.record(desk.backend, token)  # docs/lobby.md
            tokens = await account_calls.call(
                desk.backend, "ListApiTokens", pb.ListApiTokensRequest(), token=token
            )
            ctx["api_tokens"] = list(tokens.tokens)
        except NotLoggedInError:
            token = ""
    flash = desk.flash(request)
    response = desk.render(
        request, "account.html", said=flash.get("said", ""), error=flash.get("error"), **ctx
    )
    if not token:
        response.delete_cookie(ACCOUNT_COOKIE, path="/")
        response.delete_cookie(time_zones.ZONE_COOKIE, path="/")
    else:  # the zone the deadlines are shown in follows the account's, wherever it was changed
        time_zones.keep(response, request, ctx["me"].time_zone)
    return response


async def _form(desk: Desk, request: Request, *fields: str) -> dict[str, str]:
    form = await desk.form(request)
    return {f: form.get(f, "")[: MAX_PASSWORD + 1] for f in fields}


async def _refusable(desk: Desk, request: Request, method: str, req: Any, **kw: str) -> Any:
    """The call, or None after a refusal said on the account page (redirected there)."""
    try:
        return await account_calls.call(desk.backend, method, req, **kw)
    except RefusedError as err:
        request.state.refused = err.message
        return None


async def sign_up(desk: Desk, request: Request) -> Response:
    f = await _form(desk, request, "display_name", "email", "password", "time_zone")
    req = pb.SignUpRequest(**f)
    out = await _refusable(desk, request, "SignUp", req, source=_source(request))
    if out is None:
        return _said(desk, request, request.state.refused, error=True)
    return _said(desk, request, out.message)


async def log_in(desk: Desk, request: Request) -> Response:
    f = await _form(desk, request, "email", "password")
    req = pb.AccountLoginRequest(**f)
    try:
        out = await account_calls.call(desk.backend, "Login", req, source=_source(request))
    except NotLoggedInError:
        return _said(desk, request, "email or password not recognised", error=True)
    except RefusedError as err:  # the throttle, or an address not yet confirmed
        return _said(desk, request, err.message, error=True)
    desk.renew_browser(request)
    response = redirect(HOME)
    age = max(1, int(out.expires_at.ToSeconds() - time.time()))
    security.set_cookie(response, request, ACCOUNT_COOKIE, out.token, max_age=age)
    time_zones.keep(response, request, out.time_zone, max_age=age)
    desk.store_sessions(request, response, desk.logged_in(request))
    return response


async def log_out(desk: Desk, request: Request) -> Response:
    await desk.form(request)
    token = _token(request)
    if token:
        own = hashlib.sha256(token.encode()).hexdigest()[:16]  # a session's id: its digest's head
        try:
            req = pb.RevokeAccountSessionsRequest(session_id=own)
            await account_calls.call(desk.backend, "RevokeSessions", req, token=token)
        except NotLoggedInError:
            pass  # over already
    desk.renew_browser(request)
    response = desk.redirect_with(request, HOME, said="You are logged out of your account.")
    response.delete_cookie(ACCOUNT_COOKIE, path="/")
    response.delete_cookie(time_zones.ZONE_COOKIE, path="/")
    return response


async def link(desk: Desk, request: Request) -> Response:
    """GET /account/verify and /account/reset?token=...: the page whose button spends it."""
    token = request.query_params.get("token", "")[:100]
    purpose = "verify" if request.url.path.endswith("/verify") else "reset"
    return desk.render(request, "account_link.html", purpose=purpose, token=token)


async def verify(desk: Desk, request: Request) -> Response:
    f = await _form(desk, request, "token")
    if await _refusable(desk, request, "Verify", pb.VerifyRequest(token=f["token"])) is None:
        return _said(desk, request, request.state.refused, error=True)
    return _said(desk, request, "Your address is confirmed: log in.")


async def reset(desk: Desk, request: Request) -> Response:
    """With an email: ask for a link.  With a token and a new password: set it."""
    f = await _form(desk, request, "email", "token", "new_password")
    if f["token"]:
        req: Any = pb.ResetPasswordRequest(token=f["token"], new_password=f["new_password"])
        done = "Your new password is set and every session of your account has ended: log in."
        out = await _refusable(desk, request, "ResetPassword", req)
    else:
        req = pb.RequestResetRequest(email=f["email"])
        out = await _refusable(desk, request, "RequestReset", req, source=_source(request))
        done = out.message if out is not None else ""
    if out is None:
        return _said(desk, request, request.state.refused, error=True)
    return _said(desk, request, done)


def guarded(handler: Handler) -> Handler:
    """An account form whose account session is missing or over: said on the account page."""

    async def run(desk: Desk, request: Request) -> Response:
        try:
            return await handler(desk, request)
        except NotLoggedInError as err:
            response = _said(desk, request, f"{err.message}: log in to your account", error=True)
            response.delete_cookie(ACCOUNT_COOKIE, path="/")
            return response

    return run


async def _signed_in(desk: Desk, request: Request) -> str:
    token = _token(request)
    if not token:
        raise NotLoggedInError("log in to your account")
    return token


async def claim(desk: Desk, request: Request) -> Response:
    f = await _form(desk, request, "campaign", "player", "password")
    token = await _signed_in(desk, request)
    req = pb.ClaimSeatRequest(campaign_id=f["campaign"], player_id=f["player"], password=f["password"])
    try:
        out = await account_calls.call(desk.backend, "ClaimSeat", req, token=token, source=_source(request))
    except NotLoggedInError:
        return _said(desk, request, "seat or password not recognised (or your session ended)", error=True)
    except RefusedError as err:
        return _said(desk, request, err.message, error=True)
    return _said(desk, request, f"The seat {out.seat.player_id} in {out.seat.campaign_id} is yours.")


async def play(desk: Desk, request: Request) -> Response:
    """Open a seat's session into the seat sessions' cookie, and go to its campaign."""
    f = await _form(desk, request, "campaign", "player")
    token = await _signed_in(desk, request)
    if not (ID_PATTERN.fullmatch(f["campaign"]) and ID_PATTERN.fullmatch(f["player"])):
        return _said(desk, request, "no such seat of yours", error=True)
    session = await account_calls.open_seat(desk.backend, token, f["campaign"], f["player"])
    others = [s for s in desk.logged_in(request) if s.campaign != session.campaign]
    response = redirect(f"/c/{session.campaign}")
    desk.store_sessions(request, response, [session, *others])
    return response


async def revoke(desk: Desk, request: Request) -> Response:
    f = await _form(desk, request, "session_id")
    token = await _signed_in(desk, request)
    req = pb.RevokeAccountSessionsRequest(session_id=f["session_id"][:16])
    out = await _refusable(desk, request, "RevokeSessions", req, token=token)
    if out is None:
        return _said(desk, request, request.state.refused, error=True)
    return _said(desk, request, f"{out.revoked} session(s) ended.")


async def delete(desk: Desk, request: Request) -> Response:
    f = await _form(desk, request, "password")
    token = await _signed_in(desk, request)
    try:
        req = pb.DeleteAccountRequest(password=f["password"])
        await account_calls.call(desk.backend, "DeleteAccount", req, token=token, source=_source(request))
    except NotLoggedInError:
        return _said(desk, request, "password not recognised", error=True)
    except RefusedError as err:
        return _said(desk, request, err.message, error=True)
    response = _said(desk, request, "Your account is deleted. Finished campaigns show a former player.")
    response.delete_cookie(ACCOUNT_COOKIE, path="/")
    return response
