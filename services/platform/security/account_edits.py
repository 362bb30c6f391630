"""Changing an account (docs/accounts.md, "Changing your account"): the display name and the time
zone at once; a new email address only with the password, confirmed by a link mailed to it,
while the old address gets a note.  And the pruning of accounts never verified.

A new address that already has an account gets a note instead of a link and the reply is the
same, so that the change tells nobody whether an address has an account.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, and_, select, update

from services.platform.errors import Code, DeskError
from services.platform.security import account_store as store
from services.platform.security.accounts import Account, Accounts, _account, _mail_key
from services.platform.security.passwords import MAX_PASSWORD_LENGTH
from services.platform.security.sessions import token_digest
from services.platform.store import account_tables as at

UNVERIFIED_DAYS = 7  # an account whose address nobody confirmed in this time is deleted
EMAIL_TTL = timedelta(days=2)


@dataclass(frozen=True, slots=True)
class Change:
    display_name: str = ""  # empty: unchanged
    time_zone: str = ""  # empty: unchanged
    clear_time_zone: bool = False  # back to UTC
    email: str = ""  # empty: unchanged
    password: str = ""  # needed for a new address


def _checked(change: Change) -> tuple[str | None, str | None, str | None]:
    """(name, zone, email) as stored, None where unchanged; every field before any work."""
    name = store.check_display_name(change.display_name) if change.display_name else None
    if change.clear_time_zone and change.time_zone:
        raise DeskError(Code.INVALID_ARGUMENT, "time_zone: give a zone or clear_time_zone, not both")
    zone = store.check_time_zone(change.time_zone) if change.time_zone else None
    email = store.check_email(change.email) if change.email else None
    if len(change.password) > MAX_PASSWORD_LENGTH:
        raise DeskError(Code.INVALID_ARGUMENT, f"password: at most {MAX_PASSWORD_LENGTH} characters")
    return name, zone, email


def update_account(accounts: Accounts, token: str, change: Change, source: str) -> tuple[Account, bool]:
    """The account as it is now, and whether a link went to a new address."""
    me = accounts.authenticate(token)  # before anything else
    name, zone, email = _checked(change)
    moving = email is not None and email != me.email
    if moving:
        if not change.password:
            raise DeskError(Code.INVALID_ARGUMENT, "password: needed to change the address")
        accounts.check_password(me.email, change.password, source)  # throttled as a login
        accounts.mail_request(email or "", source)
    values: dict[str, Any] = {}
    if name is not None:
        values["display_name"] = name
    if zone is not None or change.clear_time_zone:
        values["time_zone"] = zone
    now = accounts.clock()
    a = at.accounts
    with accounts.engine.begin() as conn:
        if values:
            conn.execute(update(a).where(a.c.id == me.id).values(**values))
        if moving and email is not None:
            _mail_move(accounts, conn, me, email, now)
        row = conn.execute(select(a).where(a.c.id == me.id)).one()
    return _account(row), moving


def _mail_move(accounts: Accounts, conn: Connection, me: Account, email: str, now: datetime) -> None:
    taken = conn.execute(select(at.accounts.c.id).where(at.accounts.c.email == email)).first()
    if taken is not None:
        body = (
            "Someone asked to move a PATE account to this address, which already has an account.\n"
            "Nothing changed. If it was not you, ignore this mail."
        )
        key = f"move-taken:{now.timestamp():.0f}:{me.id}"
        store.queue_mail(conn, taken.id, email, key, "PATE: your account", body, now)
    else:
        token = store.issue_link(conn, me.id, "email", now=now, ttl=EMAIL_TTL)
        t = at.account_tokens
        conn.execute(update(t).where(t.c.token_sha256 == token_digest(token)).values(detail=email))
        body = (
            "Confirm this address for your PATE account with this link (valid "
            f"{EMAIL_TTL.days} days, once):\n{accounts.link('verify', token)}\n\n"
            "If you did not ask for it, ignore this mail: nothing changes."
        )
        store.queue_mail(
            conn, me.id, email, _mail_key("email", token), "PATE: confirm your new address", body, now
        )
    note = (
        "Someone logged in to your PATE account asked to change its address to another one.\n"
        "The change happens only once the new address is confirmed. If it was not you, change your "
        "password now: that ends every session and API token of the account."
    )
    store.queue_mail(
        conn, me.id, me.email, f"move-note:{now.timestamp():.0f}", "PATE: address change", note, now
    )


def prune_unverified(engine: Engine, *, now: datetime, days: int = UNVERIFIED_DAYS) -> int:
    """Delete the accounts whose address nobody confirmed within ``days`` of the sign-up (they
    never logged in, so they hold no seat); how many."""
    a = at.accounts
    stale = and_(a.c.verified_at.is_(None), a.c.created_at <= now - timedelta(days=days))
    with engine.begin() as conn:
        ids = [r.id for r in conn.execute(select(a.c.id).where(stale)).all()]
        for account in ids:
            store.forget_account(conn, account)
    return len(ids)
