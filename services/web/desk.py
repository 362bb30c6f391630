"""What every page of the web Ship Order Desk shares: the ``Desk`` (the backend, the Jinja2
templates, the CSRF signer and this browser's sessions), the page handler type and ``redirect``.

The page modules (``pages``, ``gm``, ``minister``, ``notify_page``, ``reports_pages``) import from
here; ``routes`` assembles them into the application, and nothing imports ``routes`` but the
entry point (``services.web.main``) and the tests.

The session cookie holds the session tokens of the campaigns this browser is
logged into (HttpOnly, SameSite=Strict, Secure under TLS); every form carries
a CSRF token; every page a Content-Security-Policy.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import jinja2
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.templating import Jinja2Templates

from services.web import security, time_zones, wording
from services.web.backend import Backend, Session
from services.web.backend_errors import NotLoggedInError
from services.web.config import WebSettings

HERE = Path(__file__).parent
MAX_SESSIONS = 8  # campaigns one browser may be logged into at once
COOKIE_SEPARATOR = "~"  # between the sessions of one browser (a cookie-safe character)
KEPT_LIMIT = 64 * 1024  # the form content kept across a login


class Desk:
    """What every page handler needs: the backend, the templates, the CSRF signer."""

    def __init__(self, backend: Backend, settings: WebSettings) -> None:
        self.backend = backend
        self.settings = settings
        self.csrf = security.Csrf(settings.secret)
        self.flashes = security.Flash(settings.secret)
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        env.filters["roles"] = wording.roles
        env.filters["ship_type"] = wording.ship_type
        env.filters["in_zone"] = time_zones.in_zone
        self.templates = Jinja2Templates(env=env)

    def render(self, request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        ctx.setdefault("campaigns", self.logged_in(request))
        ctx.setdefault("zone", time_zones.zone_of(request))  # the account's, for deadlines
        ctx["csrf_token"] = self.csrf.token_for(security.browser_id(request), self.bound_session(request))
        ctx["csrf_field"] = security.CSRF_FIELD
        response: HTMLResponse = self.templates.TemplateResponse(request, name, ctx, status_code=status)
        self._keep_browser(request, response)
        if security.FLASH_COOKIE in request.cookies:  # shown once
            response.delete_cookie(security.FLASH_COOKIE, path="/")
        return response

    def flash(self, request: Request) -> dict[str, Any]:
        """The status message this browser's last form left for this page ({} when none)."""
        return self.flashes.open(
            request.cookies.get(security.BROWSER_COOKIE, ""), request.cookies.get(security.FLASH_COOKIE, "")
        )

    def redirect_with(self, request: Request, url: str, **message: Any) -> Response:
        """Redirect after a form, the status message in a signed cookie, not in the URL."""
        response = redirect(url)
        sealed = self.flashes.seal(security.browser_id(request), message)
        security.set_cookie(response, request, security.FLASH_COOKIE, sealed, max_age=120)
        self._keep_browser(request, response)
        return response

    def _keep_browser(self, request: Request, response: Response) -> None:
        new = getattr(request.state, "new_browser", None)
        if new:
            security.set_cookie(response, request, security.BROWSER_COOKIE, new, max_age=None)

    # --- sessions -------------------------------------------------------

    def entries(self, request: Request) -> list[str]:
        raw = request.cookies.get(security.SESSION_COOKIE, "")
        return [e for e in raw.split(COOKIE_SEPARATOR) if e and len(e) <= 400][:MAX_SESSIONS]

    def logged_in(self, request: Request) -> list[Session]:
        """The sessions of this browser whose time is not up (the orders
        service still checks each on use: revoked ones fail there)."""
        out = []
        for entry in self.entries(request):
            try:
                out.append(Session.from_cookie(entry))
            except NotLoggedInError:
                continue
        return out

    def session_for(self, request: Request, campaign: str) -> Session:
        """This browser's session in the campaign, or NotLoggedInError."""
        expired = False
        for entry in self.entries(request):
            try:
                s = Session.from_cookie(entry)
            except NotLoggedInError:
                expired = True
                continue
            if s.campaign == campaign:
                return s
        raise NotLoggedInError(
            "your session has expired: log in again" if expired else "log in to this campaign"
        )

    def bound_session(self, request: Request) -> str:
        """The session token the CSRF tokens of this page bind: that of the page's campaign
        (a session opened by this very request first; an expired one still counts, so that its
        form reaches the login page), or none outside a campaign."""
        fresh: Session | None = getattr(request.state, "fresh_session", None)
        campaign = request.path_params.get("campaign", "") or (fresh.campaign if fresh else "")
        if not campaign:
            return ""
        if fresh is not None and fresh.campaign == campaign:
            return fresh.token
        found = self.entry_of(request, campaign)
        return found[1] if found else ""

    def entry_of(self, request: Request, campaign: str) -> tuple[str, str] | None:
        """(player, session token) of this browser's cookie entry for the campaign, expired or not."""
        for entry in self.entries(request):
            parts = entry.split(Session.SEPARATOR)
            if len(parts) == 4 and parts[0] == campaign:
                return parts[1], parts[3]
        return None

    def renew_browser(self, request: Request) -> None:
        """At login and logout, before the page answered with: a fresh browser cookie, so
        the CSRF tokens of this login are its own (a planted cookie does not survive it)."""
        request.state.new_browser = secrets.token_urlsafe(24)

    @staticmethod
    def _cookie_value(sessions: list[Session]) -> str:
        return COOKIE_SEPARATOR.join(s.cookie() for s in sessions[:MAX_SESSIONS])

    def store_sessions(self, request: Request, response: Response, sessions: list[Session]) -> None:
        self._keep_browser(request, response)
        if sessions:
            value = self._cookie_value(sessions)
            age = max(1, int(max(s.expires_at for s in sessions) - time.time()))
            security.set_cookie(response, request, security.SESSION_COOKIE, value, max_age=age)
        else:
            response.delete_cookie(security.SESSION_COOKIE, path="/")

    async def form(self, request: Request) -> dict[str, str]:
        """The posted form, after its CSRF token (403 and nothing done when wrong)."""
        form = await _read_form(request)
        values: dict[str, str] = {}
        for key, value in form.multi_items():
            if isinstance(value, str):
                values[key] = value
        given = values.pop(security.CSRF_FIELD, "")
        browser = request.cookies.get(security.BROWSER_COOKIE, "")
        bound = bool(request.path_params.get("campaign"))  # login and logout: the browser only
        verdict = self.csrf.check(browser, self.bound_session(request), given, bound=bound)
        if verdict == security.Csrf.FORGED:
            raise HTTPException(403, "the form's security token is missing or wrong: reload the page")
        if verdict == security.Csrf.STALE:  # nothing is done; what was typed is kept
            request.state.kept_form = values
            raise StaleFormError("your session changed since this form was opened: log in again")
        return values

    async def upload(self, request: Request, name: str) -> str:
        form = await _read_form(request)
        item = form.get(name)
        if item is None or isinstance(item, str):
            return ""
        data = await item.read(self.settings.max_body_bytes + 1)
        return data.decode("utf-8", errors="replace")

    def login_page(
        self,
        request: Request,
        campaign: str,
        message: str = "",
        kept: dict[str, str] | None = None,
        *,
        ended: bool = False,
        player: str = "",
    ) -> HTMLResponse:
        """The login form, the player id filled in from this browser's entry for the campaign.
        ``ended``: that session is over (expired, revoked): its entry leaves the cookie, and the
        page no longer shows it as logged in."""
        kept_json = json.dumps(kept or {})
        if len(kept_json) > KEPT_LIMIT:
            kept_json = "{}"
        entry = self.entry_of(request, campaign) if campaign else None
        sessions = self.logged_in(request)
        if ended and entry:
            sessions = [s for s in sessions if s.campaign != campaign]
        notice = "You are logged out." if self.flash(request).get("logged_out") else ""
        response = self.render(
            request,
            "login.html",
            status=401 if message else 200,
            campaigns=sessions,
            campaign=campaign,
            player=player or (entry[0][:64] if entry else ""),
            message=message,
            notice=notice,
            kept=kept_json,
        )
        if ended and entry:
            self.store_sessions(request, response, sessions)
        return response


class StaleFormError(NotLoggedInError):
    """A form whose CSRF token was made for another session of this browser than its current one."""


Handler = Callable[[Desk, Request], Awaitable[Response]]


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def _read_form(request: Request) -> FormData:
    """A client that leaves in the middle of its body (a slow upload given up, or an attacker
    trickling bytes) gets a plain 400 that no one reads, not a 500 with a traceback in the log."""
    try:
        return await request.form(max_files=1, max_fields=2000)
    except ClientDisconnect:
        raise HTTPException(400, "the request ended before its body did") from None
