"""Who is calling: the one authentication path of OrderDesk, Reports and Sessions.

A call is authenticated by a session token (metadata ``authorization: Bearer
<token>``, issued by Sessions.Login) or, for older clients, by
``x-pate-player`` and ``x-pate-password``.  A token costs one indexed read;
a password costs an argon2id check behind the shared login throttle
(services/platform/security/throttle.py), which is why clients log in once.

Both the orders and the reports processes build an ``Authenticator`` over
the shared database: the sessions and the throttle live there, not in
process memory.
"""

from __future__ import annotations

import functools
import ipaddress
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine

from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.security.passwords import (
    DEFAULT_HASHER,
    MAX_PASSWORD_LENGTH,
    RecentLogins,
    hash_matches,
)
from services.platform.security.sessioncache import SessionCache
from services.platform.security.throttle import LoginThrottle, account_key
from services.platform.store import repository as repo
from services.platform.store.db import reader
from services.platform.telemetry.metrics import LOGINS_FAILED

DEFAULT_SESSION_TTL = 12 * 3600.0  # seconds (PATE_SESSION_TTL_SECONDS)
MAX_ID_LENGTH = 64  # campaign and player ids (the width of their columns)
BEARER = "bearer "
_UNKNOWN = "unknown player or wrong password"
READ_ONLY = "session token: opened by a read-only API token, it reads reports only"


@dataclass(frozen=True, slots=True)
class Credentials:
    token: str = ""
    player: str = ""
    password: str = ""
    source: str = ""  # the caller's address (the throttle's key), without the port


def peer_address(peer: str) -> str:
    """``ipv4:1.2.3.4:5678`` -> ``1.2.3.4``; ``ipv6:[::1]:5678`` -> ``::1``."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv6" and rest.startswith("["):
        return rest[1:].partition("]")[0]
    if kind == "ipv4":
        return rest.rpartition(":")[0]
    return peer[:100]


def is_trusted(addr: str, trusted_proxies: frozenset[str]) -> bool:
    """``addr`` is one of the addresses, or inside one of the networks, of PATE_TRUSTED_PROXIES."""
    if addr in trusted_proxies:
        return True
    networks = [n for n in trusted_proxies if "/" in n]
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return False  # a unix socket peer, say
    # a server bound to [::] sees IPv4 peers as ::ffff:a.b.c.d
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return any(
        ip in net or (mapped is not None and mapped in net) for net in map(ipaddress.ip_network, networks)
    )


def source_of(peer: str, md: Mapping[str, str], trusted_proxies: frozenset[str] = frozenset()) -> str:
    """The caller's address; a trusted front end (PATE_TRUSTED_PROXIES, e.g.
    the web desk) may name the address it acts for in ``x-forwarded-for``."""
    addr = peer_address(peer)
    forwarded = md.get("x-forwarded-for", "")
    if forwarded and is_trusted(addr, trusted_proxies):
        first = forwarded.split(",")[0].strip()
        try:
            return str(ipaddress.ip_address(first))
        except ValueError:
            return addr
    return addr


def credentials(md: Mapping[str, str], source: str) -> Credentials:
    """The credentials of a call's metadata; a malformed ``authorization`` is refused."""
    auth = md.get("authorization", "")
    token = ""
    if auth:
        if not auth.lower().startswith(BEARER):
            raise DeskError(Code.UNAUTHENTICATED, "authorization: expected 'Bearer <session token>'")
        token = auth[len(BEARER) :].strip()
        if not token:
            raise DeskError(Code.UNAUTHENTICATED, "authorization: the session token is empty")
    return Credentials(
        token=token, player=md.get("x-pate-player", ""), password=md.get("x-pate-password", ""), source=source
    )


@functools.cache
def authenticator_for(engine: Engine, session_ttl: float) -> Authenticator:
    """One authenticator per engine in a process (the servicers of one server share it)."""
    return Authenticator(engine, session_ttl=session_ttl)


def check_id(field: str, value: str) -> None:
    """Refuse an id no campaign or player can have before it reaches the database
    (a NUL or a megabyte of text must not become a query)."""
    if not 1 <= len(value) <= MAX_ID_LENGTH or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise DeskError(
            Code.INVALID_ARGUMENT, f"{field}: 1 to {MAX_ID_LENGTH} characters, no control characters"
        )


class Authenticator:
    """Checks passwords (throttled) and session tokens against one database."""

    def __init__(
        self,
        engine: Engine,
        *,
        session_ttl: float = DEFAULT_SESSION_TTL,
        throttle: LoginThrottle | None = None,
        hasher: Any = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.engine = engine
        self.session_ttl = session_ttl
        self.clock = clock
        self.throttle = throttle or LoginThrottle(engine, clock=clock)
        self.hasher = hasher or DEFAULT_HASHER
        self._recent = RecentLogins()
        self._dummy: str | None = None
        self.live = SessionCache(clock)

    # --- the password path (Login, and older clients) --------------------------------

    def check_password(self, campaign: str, player: str, password: str, source: str) -> Any:
        """The player's row when the password is right (blocking: call it off the event loop).

        The throttle is asked first and takes a check from the buckets; an
        unknown player is checked against a dummy hash, so neither the time
        nor the answer tells which names exist."""
        if not player or not password:
            LOGINS_FAILED.labels(reason="missing").inc()
            raise DeskError(
                Code.UNAUTHENTICATED,
                "log in first (Sessions.Login) and send 'authorization: Bearer <token>'",
            )
        check_id("campaign_id", campaign)
        check_id("player_id", player)
        if len(password) > MAX_PASSWORD_LENGTH:
            raise DeskError(Code.INVALID_ARGUMENT, f"password: at most {MAX_PASSWORD_LENGTH} characters")
        with reader(self.engine) as conn:
            if repo.get_campaign(conn, campaign) is None:
                raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
            row = repo.get_player(conn, campaign, player)
        stored = row.password_hash if row is not None else None
        key = account_key(campaign, player)
        if stored and self._recent.known(key, stored, password):
            return row
        wait = self.throttle.reserve(key, source)
        if wait > 0:
            LOGINS_FAILED.labels(reason="throttled").inc()
            raise DeskError(
                Code.RESOURCE_EXHAUSTED, f"too many wrong passwords: try again in {math.ceil(wait)} s"
            )
        ok = hash_matches(stored or self._dummy_hash(), password, hasher=self.hasher) and stored is not None
        if not ok or row is None or stored is None:
            LOGINS_FAILED.labels(reason="wrong").inc()
            raise DeskError(Code.UNAUTHENTICATED, _UNKNOWN)
        self.throttle.succeeded(key, source)
        self._recent.remember(key, stored, password)
        return row

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash("no such player")
        return self._dummy

    # --- sessions -------------------------------------------------------------------

    def login(
        self, campaign: str, player: str, password: str, source: str
    ) -> tuple[str, sessions.Session, Any]:
        """Check the password and open a session: (token, session, player row)."""
        row = self.check_password(campaign, player, password, source)
        with self.engine.begin() as conn:
            token, session = sessions.issue(conn, campaign, row.id, now=self.clock(), ttl=self.session_ttl)
        return token, session, row

    def session(self, token: str) -> sessions.Session:
        with reader(self.engine) as conn:
            found = sessions.lookup(conn, token, now=self.clock())
        if found is None:
            raise DeskError(Code.UNAUTHENTICATED, "session token unknown, expired or revoked: log in again")
        return found

    def logout(self, token: str, *, everywhere: bool = False) -> int:
        found = self.session(token)
        with self.engine.begin() as conn:
            if everywhere:
                revoked = sessions.revoke_player(conn, found.campaign, found.player, now=self.clock())
            else:
                revoked = sessions.revoke(conn, token, now=self.clock())
        if everywhere:
            self.live.forget_player(found.campaign, found.player)
        else:
            self.live.forget_token(token)
        return revoked

    def revoke_player(self, campaign: str, player: str) -> int:
        with self.engine.begin() as conn:
            revoked = sessions.revoke_player(conn, campaign, player, now=self.clock())
        self.live.forget_player(campaign, player)
        return revoked

    # --- every authenticated call -----------------------------------------------------

    def caller(self, campaign: str, creds: Credentials, *, read_only_ok: bool = False) -> Any:
        """The player row behind a call to ``campaign`` (blocking).  A read-only session (an
        API token's, docs/api.md) is taken only where ``read_only_ok``: the reports service."""
        if not creds.token:
            return self.check_password(campaign, creds.player, creds.password, creds.source)
        with reader(self.engine) as conn:
            return self.token_caller(conn, campaign, creds, read_only_ok=read_only_ok)

    def token_caller(
        self, conn: Connection, campaign: str, creds: Credentials, *, read_only_ok: bool = False
    ) -> Any:
        """The player row behind a session token, read on the caller's own
        connection (so a request can authenticate and read in one transaction)."""
        found = sessions.lookup(conn, creds.token, now=self.clock())
        if found is None:
            raise DeskError(Code.UNAUTHENTICATED, "session token unknown, expired or revoked: log in again")
        if found.read_only and not read_only_ok:
            raise DeskError(Code.PERMISSION_DENIED, READ_ONLY)
        if found.campaign != campaign:
            raise DeskError(Code.UNAUTHENTICATED, "session token: it is for another campaign")
        if creds.player and creds.player != found.player:
            raise DeskError(Code.UNAUTHENTICATED, "session token: it belongs to another player")
        row = repo.get_player(conn, campaign, found.player)
        if row is None:
            raise DeskError(Code.UNAUTHENTICATED, "session token: the player no longer exists")
        self.live.remember(creds.token, found, row)
        return row

    def recent_caller(self, campaign: str, creds: Credentials) -> Any | None:
        """The player row behind a session token the database confirmed a moment
        ago (sessioncache), without reading it; None when not known, and for any
        doubt (another campaign or player), which ``token_caller`` then answers."""
        found = self.live.get(creds.token) if creds.token else None
        if found is None:
            return None
        session, row = found
        if (
            session.read_only
            or session.campaign != campaign
            or (creds.player and creds.player != session.player)
        ):
            return None
        return row
