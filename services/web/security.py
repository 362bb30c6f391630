"""The browser-facing safeguards of the web desk: the session cookie, CSRF
tokens, security headers and the size limit of requests."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

SESSION_COOKIE = "pate_session"
BROWSER_COOKIE = "pate_browser"  # random per browser: what the CSRF token is bound to
CSRF_FIELD = "csrf"
FLASH_COOKIE = "pate_flash"  # the one-time status message of the page a form redirects to
MAX_FLASH_BYTES = 3000  # under the 4 KiB a browser keeps of a cookie

# Pages load only their own script and style; report bodies live in a sandboxed frame.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'"
)
# A report page (the reports service's own HTML): its inline style, no script at all.  Same
# origin in its sandbox only so that the desk's page can read the frame's height and grow the
# frame to it (one scroll, not a frame scrolling inside the page): without allow-scripts nothing
# in the report runs.
REPORT_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; "
    "sandbox allow-same-origin"
)


class Csrf:
    """A token per login and per session (double submit, signed), two halves:

    - an HMAC of the browser cookie, which every login and logout makes afresh, so a page on
      another site can neither read nor forge it, and a browser cookie planted before login is
      worth nothing after it;
    - an HMAC of the browser cookie with the session token of the form's campaign (none on pages
      outside a campaign), so a token made for another session, or a browser cookie set by a
      sibling host after login, does not act in this one.

    A form whose first half is right but whose session has changed since it was opened (ran out,
    or replaced by a new login) is not acted on: it goes to the login page with its content kept,
    and the login re-issues it with a token of the new session."""

    FORGED, STALE, VALID = "forged", "stale", "valid"

    def __init__(self, secret: bytes) -> None:
        self.secret = secret

    def _mac(self, *parts: str) -> str:
        return hmac.new(self.secret, "\n".join(parts).encode(), hashlib.sha256).hexdigest()[:32]

    def token_for(self, browser: str, session: str = "") -> str:
        return self._mac("browser", browser) + self._mac("session", browser, session)

    def check(self, browser: str, session: str, given: str, *, bound: bool) -> str:
        """VALID, STALE (right browser, another session: only for ``bound`` forms) or FORGED."""
        if not browser or len(given) != 64:
            return self.FORGED
        if not hmac.compare_digest(self._mac("browser", browser), given[:32]):
            return self.FORGED
        if bound and not hmac.compare_digest(self._mac("session", browser, session), given[32:]):
            return self.STALE
        return self.VALID


class Flash:
    """A status message for the next page, in a cookie signed for this browser: the page
    shows what this server said after this browser's own form, never text from a URL."""

    def __init__(self, secret: bytes) -> None:
        self.key = hmac.new(secret, b"pate-flash", hashlib.sha256).digest()

    def _mac(self, browser: str, body: str) -> str:
        return hmac.new(self.key, f"{browser}\n{body}".encode(), hashlib.sha256).hexdigest()

    def seal(self, browser: str, data: dict[str, Any]) -> str:
        body = base64.urlsafe_b64encode(json.dumps(data, sort_keys=True).encode()).decode()[:MAX_FLASH_BYTES]
        return f"{body}.{self._mac(browser, body)}"

    def open(self, browser: str, value: str) -> dict[str, Any]:
        """The message, or {} for anything not sealed here for this browser."""
        body, _, mac = value.partition(".")
        if (
            not browser
            or len(value) > MAX_FLASH_BYTES + 80
            or not hmac.compare_digest(self._mac(browser, body), mac)
        ):
            return {}
        try:
            data = json.loads(base64.urlsafe_b64decode(body.encode()))
        except (ValueError, binascii.Error):
            return {}
        return data if isinstance(data, dict) else {}


def browser_id(request: Request) -> str:
    """The browser cookie, made on first sight (set on the response by the middleware)."""
    fresh: str | None = getattr(request.state, "new_browser", None)
    if fresh:  # made for this response (first sight, or a login)
        return fresh
    found: str = request.cookies.get(BROWSER_COOKIE, "")
    if not found or len(found) > 64:
        found = getattr(request.state, "new_browser", None) or secrets.token_urlsafe(24)
        request.state.new_browser = found
    return found


def set_cookie(response: Response, request: Request, name: str, value: str, max_age: int | None) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )


class SecurityHeaders:
    """Headers on every response; the browser cookie where it is new."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = time.perf_counter()

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                # the time this process took to answer (read by the benchmark and browsers' tools)
                spent = (time.perf_counter() - started) * 1000
                headers.append((b"server-timing", f"app;dur={spent:.1f}".encode()))
                names = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"same-origin"))
                headers.append((b"x-frame-options", b"SAMEORIGIN"))
                headers.append((b"cache-control", b"no-store"))
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuse a request body larger than ``limit`` bytes (413) before it is read whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit)(scope, receive, send)
            return
        seen = 0

        async def counted() -> MutableMapping[str, Any]:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLargeError
            return message

        try:
            await self.app(scope, counted, send)
        except BodyTooLargeError:
            await _too_large(self.limit)(scope, receive, send)


class BodyTooLargeError(Exception):
    pass


def _too_large(limit: int) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    return PlainTextResponse(f"request too large: at most {limit // 1024} KiB", status_code=413)
