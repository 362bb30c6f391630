"""Taking a seat from the lobby, asking for one, the game master's answers, replacement seats
and giving a seat up (docs/lobby.md).

A seat taken becomes the account's as a claimed seat does (services/orders/account_seats.py):
a row in ``account_seats``, the seat's password hash ``NO_LOGIN``, its sessions ended; the
account opens it with Accounts.OpenSeat.  A seat is taken once: the take is a conditional
UPDATE of its free row (two takes at once: one changes the row, the other finds it taken),
under the campaign's row lock, and one account holds one seat per campaign (a unique key).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from pate.core.world.state import Role
from services.orders import absence, reliability
from services.orders.lobby import listing
from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.security.auth import check_id
from services.platform.security.passwords import NO_LOGIN
from services.platform.store import account_tables as at
from services.platform.store import bots as botstore
from services.platform.store import lobby_tables as lt
from services.platform.store import repository as repo
from services.platform.store import tables

_SEATS, _LOBBY, _ASKS = at.account_seats, lt.lobby_seats, lt.lobby_asks
ASK_ID_HEX = 16
# Asks waiting for a game master's answer: an account's across every campaign, and a campaign's
# from every account (each of its game master's ListRequests reads them all).
MAX_WAITING_PER_ACCOUNT = 10
MAX_WAITING_PER_CAMPAIGN = 200


@dataclass(frozen=True, slots=True)
class Taken:
    campaign: str
    player: str
    plays_from: int
    reports_from: int
    started: bool


def _seat_key(t: Any, campaign: str, player: str) -> Any:
    return and_(t.c.campaign == campaign, t.c.player == player)


def offered(conn: Connection, campaign: str, player: str) -> Any:
    check_id("player_id", player)
    row = conn.execute(select(_LOBBY).where(_seat_key(_LOBBY, campaign, player))).first()
    if row is None or _game_masters(conn, campaign, player):
        raise DeskError(Code.NOT_FOUND, f"player_id: no seat {player!r} offered in {campaign}")
    return row


def _game_masters(conn: Connection, campaign: str, player: str) -> bool:
    """Whether the seat is its campaign's game master's (a scenario may give him a side to play
    too): never the lobby's to give, however it came to be offered."""
    pl = repo.get_player(conn, campaign, player)
    return pl is not None and Role.ADMIN.value in json.loads(pl.roles_json)


def check_may_take(conn: Connection, account: str, campaign: str, player: str, minimum: bool = True) -> Any:
    """The campaign listed and not over, the seat free, none of the account's in it, and his
    record at the game master's minimum.  Returns the seat's lobby row."""
    row = listing.campaign_row(conn, campaign, lock=True)
    found = listing.listing_row(conn, campaign)
    if row.status == "FINISHED":
        raise DeskError(Code.FAILED_PRECONDITION, "campaign_id: the campaign has finished")
    seat = offered(conn, campaign, player)
    if seat.account is not None:
        raise DeskError(Code.FAILED_PRECONDITION, "player_id: this seat was taken")
    mine = and_(_SEATS.c.campaign == campaign, _SEATS.c.account == account)
    if conn.execute(select(_SEATS.c.player).where(mine)).first() is not None:
        raise DeskError(Code.FAILED_PRECONDITION, "campaign_id: you hold a seat in this campaign already")
    if minimum and found.min_reliability:
        score = reliability.record(conn, account).percent
        if score < found.min_reliability:
            raise DeskError(
                Code.PERMISSION_DENIED,
                f"campaign_id: your reliability is {score}%, this campaign asks {found.min_reliability}%",
            )
    return seat


def take(
    conn: Connection, account: str, campaign: str, player: str, now: datetime, approved: bool = False
) -> Taken:
    check_id("campaign_id", campaign)
    check_may_take(conn, account, campaign, player, minimum=not approved)
    found = listing.listing_row(conn, campaign)
    if found.seat_policy != "first_come" and not approved:
        raise DeskError(
            Code.FAILED_PRECONDITION, "player_id: this campaign's seats are given on approval: ask"
        )
    row = listing.campaign_row(conn, campaign)
    running = found.started_at is not None
    reports_from, plays_from = (row.turn, row.turn + 1) if running else (None, None)
    try:
        with conn.begin_nested():
            took = conn.execute(
                update(_LOBBY)
                .where(and_(_seat_key(_LOBBY, campaign, player), _LOBBY.c.account.is_(None)))
                .values(account=account, taken_at=now, reports_from=reports_from, plays_from=plays_from)
            )
    except IntegrityError:
        raise DeskError(
            Code.FAILED_PRECONDITION, "campaign_id: you hold a seat in this campaign already"
        ) from None
    if took.rowcount != 1:
        raise DeskError(Code.FAILED_PRECONDITION, "player_id: this seat was taken")
    _become_holder(conn, account, campaign, player, row, now)
    if running:
        _bot_until(conn, campaign, player, row)
    started = False
    if not running and found.start == "when_full" and listing.free_seats(conn, campaign) == 0:
        listing.start(conn, campaign, now)
        started = True
    return Taken(campaign, player, plays_from or 0, reports_from or 0, started)


def _become_holder(
    conn: Connection, account: str, campaign: str, player: str, row: repo.CampaignRow, now: datetime
) -> None:
    """The seat is the account's, as a claimed seat: the former holder leaves (counted), the
    seat's password is spent and its sessions end."""
    key = _seat_key(_SEATS, campaign, player)
    before = conn.execute(select(_SEATS.c.account).where(key)).first()
    if before is not None and before.account is not None and before.account != account:
        reliability.note_left(conn, before.account, campaign, player, row.turn, now)
    conn.execute(delete(_SEATS).where(key))
    conn.execute(insert(_SEATS).values(campaign=campaign, player=player, account=account, claimed_at=now))
    p = tables.players
    conn.execute(
        update(p).where(and_(p.c.campaign == campaign, p.c.id == player)).values(password_hash=NO_LOGIN)
    )
    sessions.revoke_player(conn, campaign, player, now=now)
    _forget_holder_address(conn, campaign, player)
    absence.seat_changes_hands(conn, campaign, player, now)


def _forget_holder_address(conn: Connection, campaign: str, player: str) -> None:
    """The seat's notification choices and the mail queued by them hold its holder's address:
    a holder who leaves or is replaced hears no more of the seat (its allies' messages, its
    reports), as when he deletes his account (services/orders/account_seats.py)."""
    for t in (tables.notify_prefs, tables.notifications):
        conn.execute(delete(t).where(and_(t.c.campaign == campaign, t.c.player == player)))


def _bot_until(conn: Connection, campaign: str, player: str, row: repo.CampaignRow) -> None:
    """A newcomer plays from the next turn: the bot plays the open turn (its hand-back is at
    this turn's close, services/orders/reliability.py); between turns it lets go at once."""
    held = botstore.bot_players(conn, campaign).get(player)
    if row.status != "OPEN":
        botstore.put_player(conn, campaign, botstore.BotPlayer(player, 0, None, None))
    elif held is None or held.reason in (None, botstore.ABSENT):  # his predecessor's absence ended
        missed = held.missed if held else 0
        botstore.put_player(
            conn, campaign, botstore.BotPlayer(player, missed, botstore.GAME_MASTER, row.turn)
        )


def ask(conn: Connection, account: str, campaign: str, player: str, now: datetime) -> str:
    check_id("campaign_id", campaign)
    check_may_take(conn, account, campaign, player)
    if listing.listing_row(conn, campaign).seat_policy != "approval":
        raise DeskError(Code.FAILED_PRECONDITION, "player_id: this campaign's seats are first come: take it")
    _check_waiting(conn, account, campaign)
    ask_id = secrets.token_hex(ASK_ID_HEX // 2)
    try:
        with conn.begin_nested():
            conn.execute(
                insert(_ASKS).values(
                    id=ask_id,
                    campaign=campaign,
                    player=player,
                    account=account,
                    state="waiting",
                    asked_at=now,
                )
            )
    except IntegrityError:
        raise DeskError(
            Code.ALREADY_EXISTS, "campaign_id: you asked for a seat in this campaign already"
        ) from None
    return ask_id


def _waiting(conn: Connection, where: Any) -> int:
    count = select(func.count()).select_from(_ASKS).where(and_(where, _ASKS.c.state == "waiting"))
    return int(conn.execute(count).scalar() or 0)


def _check_waiting(conn: Connection, account: str, campaign: str) -> None:
    if _waiting(conn, _ASKS.c.account == account) >= MAX_WAITING_PER_ACCOUNT:
        raise DeskError(
            Code.RESOURCE_EXHAUSTED,
            f"campaign_id: {MAX_WAITING_PER_ACCOUNT} of your asks wait for an answer already",
        )
    if _waiting(conn, _ASKS.c.campaign == campaign) >= MAX_WAITING_PER_CAMPAIGN:
        raise DeskError(
            Code.RESOURCE_EXHAUSTED,
            f"campaign_id: {MAX_WAITING_PER_CAMPAIGN} asks wait for this game master's answer already",
        )


def asks(conn: Connection, campaign: str) -> list[Any]:
    listing.campaign_row(conn, campaign)
    listing.listing_row(conn, campaign)
    a = at.accounts
    return list(
        conn.execute(
            select(_ASKS, a.c.display_name)
            .join(a, a.c.id == _ASKS.c.account)
            .where(_ASKS.c.campaign == campaign)
            .order_by(_ASKS.c.asked_at, _ASKS.c.id)
        )
    )


def ask_row(conn: Connection, campaign: str, ask_id: str) -> Any:
    check_id("campaign_id", campaign)
    if not (len(ask_id) == ASK_ID_HEX and all(ch in "0123456789abcdef" for ch in ask_id)):
        raise DeskError(Code.INVALID_ARGUMENT, "ask_id: the 16 hex digits of an ask")
    a = at.accounts
    row = conn.execute(
        select(_ASKS, a.c.display_name)
        .join(a, a.c.id == _ASKS.c.account)
        .where(and_(_ASKS.c.id == ask_id, _ASKS.c.campaign == campaign))
    ).first()
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"ask_id: no ask {ask_id} in {campaign}")
    return row


def decide(conn: Connection, campaign: str, ask_id: str, approve: bool, now: datetime) -> Any:
    found = ask_row(conn, campaign, ask_id)
    if found.state != "waiting":
        raise DeskError(Code.FAILED_PRECONDITION, f"ask_id: this ask was {found.state} already")
    if approve:
        take(conn, found.account, campaign, found.player, now, approved=True)
    conn.execute(
        update(_ASKS)
        .where(_ASKS.c.id == ask_id)
        .values(state="approved" if approve else "refused", decided_at=now)
    )
    return ask_row(conn, campaign, ask_id)


def open_replacement(conn: Connection, campaign: str, player: str, now: datetime) -> None:
    """The game master offers a seat of a running campaign; its holder plays it until a newcomer
    takes it.  A campaign not in the lobby gets a plain listing (first come, no minimum)."""
    row = listing.campaign_row(conn, campaign, lock=True)
    if row.status == "FINISHED":
        raise DeskError(Code.FAILED_PRECONDITION, "campaign_id: the campaign has finished")
    check_id("player_id", player)
    pl = repo.get_player(conn, campaign, player)
    if pl is None or not pl.state:
        raise DeskError(Code.NOT_FOUND, f"player_id: no player {player!r} with a state in {campaign}")
    if _game_masters(conn, campaign, player):  # whoever took it would run the campaign
        raise DeskError(Code.FAILED_PRECONDITION, "player_id: the game master's own seat is never offered")
    listed = lt.lobby_listings.c.campaign == campaign
    if conn.execute(select(lt.lobby_listings.c.campaign).where(listed)).first() is None:
        conn.execute(
            insert(lt.lobby_listings).values(
                campaign=campaign,
                description="",
                time_zone="UTC",
                seat_policy="first_come",
                min_reliability=0,
                start="by_game_master",
                published_at=now,
                started_at=now,
            )
        )
    elif listing.listing_row(conn, campaign).started_at is None:
        raise DeskError(
            Code.FAILED_PRECONDITION, "campaign_id: not started yet: its seats are offered already"
        )
    key = _seat_key(_LOBBY, campaign, player)
    values = {"kind": botstore.GAME_MASTER, "opened_at": now, "account": None, "taken_at": None}
    if conn.execute(update(_LOBBY).where(key).values(**values)).rowcount == 0:
        conn.execute(insert(_LOBBY).values(campaign=campaign, player=player, **values))


def leave(conn: Connection, account: str, campaign: str, player: str, now: datetime) -> None:
    """The account gives the seat up: the bot plays it from now, it is offered again when the
    campaign is in the lobby, and a campaign already running counts as left."""
    check_id("campaign_id", campaign)
    check_id("player_id", player)
    row = listing.campaign_row(conn, campaign, lock=True)
    key = _seat_key(_SEATS, campaign, player)
    if conn.execute(select(_SEATS.c.account).where(and_(key, _SEATS.c.account == account))).first() is None:
        raise DeskError(Code.NOT_FOUND, "player_id: no such seat of yours")
    if row.status == "FINISHED":
        raise DeskError(
            Code.FAILED_PRECONDITION, "campaign_id: the campaign has finished; the seat stays yours"
        )
    listed = conn.execute(select(lt.lobby_listings).where(lt.lobby_listings.c.campaign == campaign)).first()
    running = listed is None or listed.started_at is not None
    conn.execute(delete(_SEATS).where(key))
    sessions.revoke_player(conn, campaign, player, now=now)
    _forget_holder_address(conn, campaign, player)
    if running:
        reliability.note_left(conn, account, campaign, player, row.turn, now)
        held = botstore.bot_players(conn, campaign).get(player)
        botstore.put_player(
            conn,
            campaign,
            botstore.BotPlayer(player, held.missed if held else 0, botstore.GAME_MASTER, row.turn),
        )
    if listed is not None:
        kind = "left" if running else listing.START_KIND
        lkey = _seat_key(_LOBBY, campaign, player)
        values = {"kind": kind, "opened_at": now, "account": None, "taken_at": None}
        if conn.execute(update(_LOBBY).where(lkey).values(**values)).rowcount == 0:
            conn.execute(insert(_LOBBY).values(campaign=campaign, player=player, **values))
