"""The campaign seats of an account (docs/accounts.md): claiming a seat with the password its
game master generated, listing the seats, opening a seat's session from the account, and the
deletion of an account, which leaves a "former player" in the seats of finished campaigns.

Claiming spends the seat's password: the seat's hash becomes ``NO_LOGIN`` (no password matches
it) and the seat's sessions end, so whoever else knew the generated password is out, and the
same password cannot claim the seat twice.  The seat's row in ``players`` and every game record
stay as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from services.platform.errors import Code, DeskError
from services.platform.security import account_store, sessions
from services.platform.security.accounts import Accounts
from services.platform.security.auth import Authenticator, check_id
from services.platform.security.passwords import NO_LOGIN
from services.platform.store import account_tables as at
from services.platform.store import repository as repo
from services.platform.store import seat_holds, tables
from services.platform.store.db import reader

FORMER_PLAYER = "former player"  # what a seat shows once its account is deleted
_SEATS = at.account_seats


@dataclass(frozen=True, slots=True)
class Seat:
    campaign: str
    player: str
    state: str
    status: str  # the campaign's
    turn: int


def list_seats(conn: Connection, account: str) -> list[Seat]:
    c, p = tables.campaigns, tables.players
    rows = conn.execute(
        select(_SEATS.c.campaign, _SEATS.c.player, p.c.state, c.c.status, c.c.turn)
        .join(c, c.c.id == _SEATS.c.campaign)
        .join(p, and_(p.c.campaign == _SEATS.c.campaign, p.c.id == _SEATS.c.player))
        .where(_SEATS.c.account == account)
        .order_by(_SEATS.c.campaign, _SEATS.c.player)
    ).all()
    return [Seat(r.campaign, r.player, r.state or "", r.status, r.turn) for r in rows]


def seat_holder(conn: Connection, campaign: str, player: str) -> str | None:
    """Who holds a seat: None when no account claimed it, FORMER_PLAYER after a deletion, else
    the display name of the account."""
    return seat_holders(conn, campaign, player).get(player)


def seat_holders(conn: Connection, campaign: str, player: str | None = None) -> dict[str, str]:
    """Player id -> who holds that seat of ``campaign`` (of ``player``'s alone when given), for
    the seats an account claimed or took: its display name, or FORMER_PLAYER after a deletion."""
    a = at.accounts
    query = select(_SEATS.c.player, _SEATS.c.account, a.c.display_name).outerjoin(
        a, a.c.id == _SEATS.c.account
    )
    query = query.where(_SEATS.c.campaign == campaign)
    if player is not None:
        query = query.where(_SEATS.c.player == player)
    return {
        r.player: FORMER_PLAYER if r.account is None else str(r.display_name)
        for r in conn.execute(query.order_by(_SEATS.c.player))
    }


def check_playing(conn: Connection, campaign: str, player: str) -> None:
    """A newcomer who took the seat as a replacement opens it from the turn he plays
    (docs/lobby.md): the bot plays it until then."""
    first = seat_holds.plays_from(conn, campaign, player)
    camp = repo.get_campaign(conn, campaign)
    if camp is not None and camp.turn < first:
        raise DeskError(
            Code.FAILED_PRECONDITION, f"you play this seat from turn {first}; the bot plays it until then"
        )


class AccountSeats:
    """The seat side of accounts, over the seat login's authenticator (one database)."""

    def __init__(self, accounts: Accounts, auth: Authenticator) -> None:
        self.accounts = accounts
        self.auth = auth

    def claim(self, token: str, campaign: str, player: str, password: str, source: str) -> Seat:
        """Authenticate the account (cheap), then check the seat's password as a seat login
        does (throttled, argon2), then take the seat once."""
        me = self.accounts.authenticate(token)
        check_id("campaign_id", campaign)
        check_id("player_id", player)
        row = self.auth.check_password(campaign, player, password, source)
        now = self.auth.clock()
        with self.auth.engine.begin() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(_SEATS).values(campaign=campaign, player=player, account=me.id, claimed_at=now)
                    )
            except IntegrityError:
                raise DeskError(Code.FAILED_PRECONDITION, "this seat was claimed already") from None
            p = tables.players
            spent = conn.execute(
                update(p)
                .where(
                    and_(p.c.campaign == campaign, p.c.id == player, p.c.password_hash == row.password_hash)
                )
                .values(password_hash=NO_LOGIN)
            )
            if spent.rowcount != 1:  # the game master set a new password meanwhile
                raise DeskError(Code.FAILED_PRECONDITION, "the seat's password changed: ask for the new one")
            sessions.revoke_player(conn, campaign, player, now=now)
            camp = repo.get_campaign(conn, campaign)
        self.auth.live.forget_player(campaign, player)
        return Seat(campaign, player, row.state or "", camp.status if camp else "", camp.turn if camp else 0)

    def seats(self, token: str) -> list[Seat]:
        me = self.accounts.authenticate(token)
        with reader(self.auth.engine) as conn:
            return list_seats(conn, me.id)

    def open_seat(self, token: str, campaign: str, player: str) -> tuple[str, sessions.Session, Any]:
        """A seat session (the token OrderDesk and Reports take) for a seat of the account."""
        check_id("campaign_id", campaign)
        check_id("player_id", player)
        now = self.auth.clock()
        with self.auth.engine.begin() as conn:
            me = self.accounts.authenticate_in(conn, token)
            mine = conn.execute(
                select(_SEATS.c.account).where(
                    and_(_SEATS.c.campaign == campaign, _SEATS.c.player == player, _SEATS.c.account == me.id)
                )
            ).first()
            row = repo.get_player(conn, campaign, player) if mine is not None else None
            if row is None:
                raise DeskError(Code.NOT_FOUND, "no such seat of yours: claim it first")
            check_playing(conn, campaign, player)
            seat_token, session = sessions.issue(conn, campaign, player, now=now, ttl=self.auth.session_ttl)
            account_store.link_seat_session(conn, me.id, seat_token)
        return seat_token, session, row

    def revoke(self, token: str, session_id: str = "") -> int:
        me = self.accounts.authenticate(token)
        revoked = self.accounts.revoke(token, session_id)
        self._forget_cached(me.id)
        return revoked

    def reset(self, link: str, new_password: str) -> None:
        self._forget_cached(self.accounts.reset(link, new_password))

    def change_password(
        self, token: str, password: str, new_password: str, source: str
    ) -> tuple[str, datetime]:
        me = self.accounts.authenticate(token)
        fresh = self.accounts.change_password(token, password, new_password, source)
        self._forget_cached(me.id)
        return fresh

    def _forget_cached(self, account: str) -> None:
        """The seat sessions this process remembers for a moment (sessioncache.py) go with
        the database's: a revoked one is refused here at once."""
        with reader(self.auth.engine) as conn:
            for seat in list_seats(conn, account):
                self.auth.live.forget_player(seat.campaign, seat.player)

    def delete(self, token: str, password: str, source: str) -> None:
        """Remove the person: the account, its links, sessions and mail, and the notification
        choices of its seats (his address).  A finished campaign keeps a former player in the
        seat; an unfinished one gets the seat back (its game master gives it a new password)."""
        me = self.accounts.authenticate(token)
        self.accounts.check_password(me.email, password, source)
        self._forget_cached(me.id)
        with self.auth.engine.begin() as conn:
            for seat in list_seats(conn, me.id):
                where = and_(_SEATS.c.campaign == seat.campaign, _SEATS.c.player == seat.player)
                if seat.status == "FINISHED":
                    conn.execute(update(_SEATS).where(where).values(account=None))
                else:
                    conn.execute(delete(_SEATS).where(where))
                for t in (tables.notify_prefs, tables.notifications):  # both hold his address
                    conn.execute(
                        delete(t).where(and_(t.c.campaign == seat.campaign, t.c.player == seat.player))
                    )
            seat_holds.forget_account(conn, me.id)  # the lobby's seats, asks and record (docs/lobby.md)
            account_store.forget_account(conn, me.id)
