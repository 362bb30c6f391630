"""Deadlines in the viewer's own time zone (docs/web.md, "Time zones").

A browser logged in to an account whose time zone is set carries it in a cookie of its own
(``pate_tz``, set when the account logs in or its page is opened, gone with the account's
cookie); the desk shows each deadline in that zone beside UTC, each labelled.  The cookie only
changes what is shown: it is checked against the server's list of IANA names before use, and
without the account's cookie it counts for nothing.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import Response

from services.web import security

ZONE_COOKIE = "pate_tz"
ACCOUNT_COOKIE = "pate_account"  # account_pages' cookie: the zone counts only beside it
_ZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+/-]{0,63}")


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def known(zone: str) -> str:
    """The zone if the server knows it, else "" (UTC)."""
    return zone if _ZONE.fullmatch(zone) and zone in _zones() else ""


def zone_of(request: Request) -> str:
    if not request.cookies.get(ACCOUNT_COOKIE):
        return ""
    return known(request.cookies.get(ZONE_COOKIE, "")[:64])


def keep(response: Response, request: Request, zone: str, max_age: int | None = None) -> None:
    """Remember the account's zone for the pages (or forget it, zone empty)."""
    zone = known(zone)
    if zone and zone != "UTC":
        security.set_cookie(response, request, ZONE_COOKIE, zone, max_age=max_age)
    else:
        response.delete_cookie(ZONE_COOKIE, path="/")


def in_zone(when: datetime, zone: str) -> str:
    """``when`` (UTC) in ``zone``, labelled: "2026-12-04 10:00 Europe/Paris"."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    local = when.astimezone(zoneinfo.ZoneInfo(zone)) if known(zone) else when.astimezone(UTC)
    return f"{local:%Y-%m-%d %H:%M} {known(zone) or 'UTC'}"
