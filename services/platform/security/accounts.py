"""Accounts that span campaigns (docs/accounts.md): sign-up, email verification, login, password
reset and change, and deletion of the person.

No answer tells whether an address has an account: sign-up and reset reply alike for known and
unknown addresses (what differs is only the mail the address's owner receives), and a login
with an unknown address is checked against a dummy hash, so that neither its answer nor its
time differs from a wrong password's.  Password checks go through the shared login throttle,
per account and per source address as the seat login's (throttle.py); the requests that send
mail go through a throttle of their own, so nobody can flood an inbox or the mail server.
Every call of a signed-in account is authenticated (one indexed read) before anything costly.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from services.platform.errors import Code, DeskError
from services.platform.security import account_store as store
from services.platform.security import api_tokens
from services.platform.security.passwords import DEFAULT_HASHER, MAX_PASSWORD_LENGTH, hash_matches
from services.platform.security.sessions import token_digest
from services.platform.security.throttle import LoginThrottle, ThrottlePolicy, digest
from services.platform.store import account_tables as at
from services.platform.store.db import reader
from services.platform.telemetry.metrics import LOGINS_FAILED

DEFAULT_ACCOUNT_SESSION_TTL = 12 * 3600.0
# Mail-sending requests (sign-up, reset) per address and per source: a few at once, then one a
# minute per address and five a minute per source; far below what floods an inbox.
MAIL_POLICY = ThrottlePolicy(
    source_burst=3.0,
    source_per_minute=1.0,
    account_burst=5.0,
    account_per_minute=1.0,
    address_burst=10.0,
    address_per_minute=5.0,
    settle_seconds=0.0,
)
UNKNOWN = "unknown email or wrong password"
MAIL_ON_ITS_WAY = "if the address can be used, a mail is on its way to it"


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    display_name: str
    email: str
    time_zone: str
    verified: bool


def account_key(email: str) -> str:
    """The throttle's key of an address (never the key of a seat: that has a campaign in it)."""
    return digest(f"account/{email}")


def _mail_key(purpose: str, token: str) -> str:
    """The outbox key of a link's mail: from the token's digest, which gives nothing of the token."""
    return f"{purpose}:{token_digest(token)[:16]}"


def _account(row: Any) -> Account:
    return Account(row.id, row.display_name, row.email, row.time_zone or "", row.verified_at is not None)


class Accounts:
    """The accounts of one database (thread-safe: state in the database).  Blocking calls: the
    RPC layer runs them off the event loop."""

    def __init__(
        self,
        engine: Engine,
        *,
        session_ttl: float = DEFAULT_ACCOUNT_SESSION_TTL,
        throttle: LoginThrottle | None = None,
        mail_throttle: LoginThrottle | None = None,
        hasher: Any = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        link_base: str = "",
    ) -> None:
        self.engine = engine
        self.session_ttl = session_ttl
        self.clock = clock
        self.throttle = throttle or LoginThrottle(engine, clock=clock)
        self.mail_throttle = mail_throttle or LoginThrottle(engine, MAIL_POLICY, clock=clock)
        self.hasher = hasher or DEFAULT_HASHER
        self.link_base = link_base  # e.g. https://desk.example.org/account (PATE_ACCOUNT_LINK_BASE)
        self._dummy: str | None = None

    # --- the throttles --------------------------------------------------------------------

    def _reserve(self, throttle: LoginThrottle, key: str, source: str) -> None:
        wait = throttle.reserve(key, source)
        if wait > 0:
            LOGINS_FAILED.labels(reason="throttled").inc()
            raise DeskError(Code.RESOURCE_EXHAUSTED, f"too many attempts: try again in {math.ceil(wait)} s")

    def _mail_request(self, email: str, source: str) -> None:
        # keys of their own: the buckets of the login throttle have other sizes
        self._reserve(self.mail_throttle, digest(f"mail/{email}"), "mail:" + source)

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash("no such account")
        return self._dummy

    def _link(self, what: str, token: str) -> str:
        return f"{self.link_base}/{what}?token={token}" if self.link_base else token

    def link(self, what: str, token: str) -> str:
        """What a mail carries for a link token (account_edits.py mails one too)."""
        return self._link(what, token)

    def mail_request(self, email: str, source: str) -> None:
        """Take a mail-sending request from the mail throttle (RESOURCE_EXHAUSTED past it)."""
        self._mail_request(email, source)

    # --- sign-up and verification ---------------------------------------------------------

    def sign_up(self, display_name: str, email: str, password: str, time_zone: str, source: str) -> None:
        """Always the same answer.  A new address gets a verification link; a known one a mail
        saying so (with a reset link), so its owner learns of the attempt and nobody else does."""
        name = store.check_display_name(display_name)
        email = store.check_email(email)
        store.check_new_password("password", password)
        zone = store.check_time_zone(time_zone)
        self._mail_request(email, source)
        hashed = self.hasher.hash(password)  # paid for known addresses too: the time tells nothing
        now = self.clock()
        with self.engine.begin() as conn:
            row = self._by_email(conn, email)
            if row is not None:
                self._mail_known(conn, row, now)
                return
            account = "a" + secrets.token_hex(12)
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(at.accounts).values(
                            id=account,
                            display_name=name,
                            email=email,
                            password_hash=hashed,
                            time_zone=zone,
                            created_at=now,
                        )
                    )
            except IntegrityError:  # the same address signed up a moment ago
                return
            token = store.issue_link(conn, account, "verify", now=now, ttl=store.VERIFY_TTL)
            body = (
                # no word of the requester's in it (not even his name): whoever signs up with a
                # stranger's address cannot make PATE mail that stranger a text of his own
                "Welcome to PATE.\n\nConfirm your address with this link (valid "
                f"{store.VERIFY_TTL.days} days, once):\n{self._link('verify', token)}\n\n"
                "If you did not sign up, ignore this mail."
            )
            store.queue_mail(
                conn, account, email, _mail_key("verify", token), "PATE: confirm your address", body, now
            )

    def _mail_known(self, conn: Connection, row: Any, now: datetime) -> None:
        token = store.issue_link(conn, row.id, "reset", now=now, ttl=store.RESET_TTL)
        body = (
            "Someone asked to sign up to PATE with this address, which already has an account.\n"
            "If it was you, log in; if you forgot your password, set a new one with this link "
            f"(valid one hour, once):\n{self._link('reset', token)}\n\nOtherwise ignore this mail."
        )
        store.queue_mail(conn, row.id, row.email, _mail_key("known", token), "PATE: your account", body, now)

    def verify(self, token: str) -> None:
        now = self.clock()
        with self.engine.begin() as conn:
            account = store.spend_link(conn, token, "verify", now=now)
            if account is None:
                # the link of an address change is spent here too: one page, one command for both
                if store.confirm_email(conn, token, now=now):
                    return
                raise DeskError(Code.UNAUTHENTICATED, "the link is unknown, used or expired")
            a = at.accounts
            conn.execute(
                update(a).where(a.c.id == account, a.c.verified_at.is_(None)).values(verified_at=now)
            )

    # --- login and sessions ---------------------------------------------------------------

    def check_password(self, email: str, password: str, source: str) -> Any:
        """The account's row when the password is right, behind the throttle (blocking)."""
        email = email.strip().lower()
        if not email or not password:
            raise DeskError(Code.UNAUTHENTICATED, UNKNOWN)
        if len(email) > store.MAX_EMAIL or len(password) > MAX_PASSWORD_LENGTH:
            raise DeskError(
                Code.INVALID_ARGUMENT,
                f"email: at most {store.MAX_EMAIL} characters, password: at most {MAX_PASSWORD_LENGTH}",
            )
        key = account_key(email)
        self._reserve(self.throttle, key, source)
        with reader(self.engine) as conn:
            row = self._by_email(conn, email)
        stored = row.password_hash if row is not None else self._dummy_hash()
        if not hash_matches(stored, password, hasher=self.hasher) or row is None:
            LOGINS_FAILED.labels(reason="wrong").inc()
            raise DeskError(Code.UNAUTHENTICATED, UNKNOWN)
        self.throttle.succeeded(key, source)
        return row

    def login(self, email: str, password: str, source: str) -> tuple[str, datetime, Account]:
        row = self.check_password(email, password, source)
        if row.verified_at is None:  # said only to whoever knows the password
            raise DeskError(
                Code.FAILED_PRECONDITION, "confirm your address first: follow the link mailed at sign-up"
            )
        with self.engine.begin() as conn:
            token, expires = store.open_session(conn, row.id, now=self.clock(), ttl=self.session_ttl)
        return token, expires, _account(row)

    def authenticate(self, token: str) -> Account:
        """The account of a session token: one indexed read, before any other work."""
        with reader(self.engine) as conn:
            return self.authenticate_in(conn, token)

    def authenticate_in(self, conn: Connection, token: str) -> Account:
        account = store.session_account(conn, token, now=self.clock())
        row = (
            None
            if account is None
            else conn.execute(select(at.accounts).where(at.accounts.c.id == account)).first()
        )
        if row is None:
            raise DeskError(Code.UNAUTHENTICATED, "account session unknown, expired or revoked: log in again")
        return _account(row)

    def sessions(self, token: str) -> list[store.SessionInfo]:
        me = self.authenticate(token)
        with reader(self.engine) as conn:
            return store.list_sessions(conn, me.id, now=self.clock())

    def revoke(self, token: str, session_id: str = "") -> int:
        me = self.authenticate(token)
        with self.engine.begin() as conn:
            return store.revoke_sessions(conn, me.id, now=self.clock(), session_id=session_id)

    # --- passwords ------------------------------------------------------------------------

    def request_reset(self, email: str, source: str) -> None:
        """Always the same answer; a reset link goes only to an address that has an account."""
        email = store.check_email(email)
        self._mail_request(email, source)
        now = self.clock()
        with self.engine.begin() as conn:
            row = self._by_email(conn, email)
            if row is None:
                return
            token = store.issue_link(conn, row.id, "reset", now=now, ttl=store.RESET_TTL)
            body = (
                "Set a new PATE password with this link (valid one hour, once):\n"
                f"{self._link('reset', token)}\n\nIf you did not ask for it, ignore this mail: "
                "your password stays as it is."
            )
            store.queue_mail(
                conn, row.id, row.email, _mail_key("reset", token), "PATE: new password", body, now
            )

    def reset(self, token: str, new_password: str) -> str:
        """Spend the link, then set the password (which also confirms the address: the link
        came by mail) and end every session of the account; the account's id."""
        store.check_new_password("new_password", new_password)
        if not store.plausible_token(token):
            raise DeskError(Code.UNAUTHENTICATED, "the link is unknown, used or expired")
        now = self.clock()
        with self.engine.begin() as conn:
            account = store.spend_link(conn, token, "reset", now=now)
            if account is None:
                raise DeskError(Code.UNAUTHENTICATED, "the link is unknown, used or expired")
        hashed = self.hasher.hash(new_password)  # only for a link that was live: no work for guesses
        with self.engine.begin() as conn:
            a = at.accounts
            row = conn.execute(select(a.c.verified_at).where(a.c.id == account)).first()
            values: dict[str, Any] = {"password_hash": hashed}
            if row is not None and row.verified_at is None:
                values["verified_at"] = now
            conn.execute(update(a).where(a.c.id == account).values(**values))
            store.revoke_sessions(conn, account, now=now)
            api_tokens.revoke(conn, account, now=now)  # whoever had the password may have made one
        return account

    def change_password(
        self, token: str, password: str, new_password: str, source: str
    ) -> tuple[str, datetime]:
        """Every session ends, the caller's too; he gets a new one."""
        me = self.authenticate(token)
        store.check_new_password("new_password", new_password)
        self.check_password(me.email, password, source)
        hashed = self.hasher.hash(new_password)
        now = self.clock()
        with self.engine.begin() as conn:
            conn.execute(update(at.accounts).where(at.accounts.c.id == me.id).values(password_hash=hashed))
            store.revoke_sessions(conn, me.id, now=now)
            api_tokens.revoke(conn, me.id, now=now)
            return store.open_session(conn, me.id, now=now, ttl=self.session_ttl)

    def _by_email(self, conn: Connection, email: str) -> Any:
        return conn.execute(select(at.accounts).where(at.accounts.c.email == email)).first()
