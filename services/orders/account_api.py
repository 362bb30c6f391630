"""API tokens over accounts (docs/api.md): making, listing and revoking them with the account's
session, and opening a seat session with one, which is how a player's own program plays.

Opening a seat with a token is throttled as a login is (the shared login throttle, keyed by
the token's id and by the source address), so a program cannot be used to guess secrets; the
seat must be in the token's scope and still the account's, and never a game master's seat.
"""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy import and_, select

from pate.core.world.state import Role
from services.orders import desk
from services.orders.account_seats import check_playing
from services.platform.errors import Code, DeskError
from services.platform.security import account_store, api_tokens, sessions
from services.platform.security.accounts import Accounts
from services.platform.security.api_tokens import ApiToken
from services.platform.security.auth import Authenticator, check_id
from services.platform.security.throttle import digest
from services.platform.store import account_tables as at
from services.platform.store import repository as repo
from services.platform.store.db import reader
from services.platform.telemetry.metrics import LOGINS_FAILED

NOT_YOURS = "no such seat of yours: claim it first"


class AccountApi:
    def __init__(self, accounts: Accounts, auth: Authenticator) -> None:
        self.accounts = accounts
        self.auth = auth

    def create(
        self,
        token: str,
        name: str,
        *,
        read_only: bool,
        all_seats: bool,
        seats: list[tuple[str, str]],
        days: int,
    ) -> tuple[str, ApiToken]:
        me = self.accounts.authenticate(token)  # before any other work
        name = api_tokens.check_name(name)
        days = api_tokens.check_days(days)
        chosen = api_tokens.check_seats(seats, all_seats)
        with self.auth.engine.begin() as conn:
            return api_tokens.create(
                conn,
                me.id,
                name,
                read_only=read_only,
                all_seats=all_seats,
                seats=chosen,
                days=days,
                now=self.auth.clock(),
            )

    def listed(self, token: str) -> list[ApiToken]:
        me = self.accounts.authenticate(token)
        with reader(self.auth.engine) as conn:
            return api_tokens.listed(conn, me.id, now=self.auth.clock())

    def revoke(self, token: str, token_id: str) -> int:
        me = self.accounts.authenticate(token)
        token_id = api_tokens.check_id_text(token_id) if token_id else ""
        with self.auth.engine.begin() as conn:
            n = api_tokens.revoke(conn, me.id, now=self.auth.clock(), token_id=token_id)
            held = conn.execute(select(at.account_seats).where(at.account_seats.c.account == me.id)).all()
        for seat in held:  # this process forgets the ended sessions at once (sessioncache.py)
            self.auth.live.forget_player(seat.campaign, seat.player)
        return n

    def _authenticate(self, token: str, source: str) -> ApiToken:
        """The live token, behind the login throttle (keyed by its id and the source)."""
        token_id = api_tokens.parse(token)
        if token_id is None:
            LOGINS_FAILED.labels(reason="wrong").inc()
            raise DeskError(Code.UNAUTHENTICATED, api_tokens.UNKNOWN)
        key = digest(f"api/{token_id}")
        wait = self.accounts.throttle.reserve(key, source)
        if wait > 0:
            LOGINS_FAILED.labels(reason="throttled").inc()
            raise DeskError(Code.RESOURCE_EXHAUSTED, f"too many attempts: try again in {math.ceil(wait)} s")
        with reader(self.auth.engine) as conn:
            found = api_tokens.lookup(conn, token, now=self.auth.clock())
        if found is None:
            LOGINS_FAILED.labels(reason="wrong").inc()
            raise DeskError(Code.UNAUTHENTICATED, api_tokens.UNKNOWN)
        self.accounts.throttle.succeeded(key, source)
        return found

    def open_seat(
        self, token: str, campaign: str, player: str, source: str
    ) -> tuple[str, sessions.Session, Any]:
        """A seat session for a seat in the token's scope: read-only for a read-only token,
        never past the token's expiry."""
        check_id("campaign_id", campaign)
        check_id("player_id", player)
        found = self._authenticate(token, source)
        if not found.reaches(campaign, player):
            raise DeskError(Code.NOT_FOUND, NOT_YOURS)
        now = self.auth.clock()
        s = at.account_seats
        with self.auth.engine.begin() as conn:
            held = conn.execute(
                select(s.c.account).where(
                    and_(s.c.campaign == campaign, s.c.player == player, s.c.account == found.account)
                )
            ).first()
            row = repo.get_player(conn, campaign, player) if held is not None else None
            if row is None:
                raise DeskError(Code.NOT_FOUND, NOT_YOURS)
            if Role.ADMIN in desk.actor_of(row).roles:
                raise DeskError(Code.PERMISSION_DENIED, "an API token never opens a game master's seat")
            check_playing(conn, campaign, player)  # a replacement's newcomer: not before his turn
            seat_token, session = sessions.issue(
                conn,
                campaign,
                player,
                now=now,
                ttl=self.auth.session_ttl,
                read_only=found.read_only,
                until=found.expires_at,
            )
            account_store.link_seat_session(conn, found.account, seat_token, api_token=found.id)
            api_tokens.used(conn, found.id, now)
        return seat_token, session, row
