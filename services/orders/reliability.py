"""The reliability record of accounts (docs/lobby.md, "Reliability"), counted at each turn's
close beside civil disorder (services/orders/campaigns.close_turn), and what the lobby does to
its seats at that moment.

Each seat an account holds in the closing turn, with ships to order, is a turn due unless the
bot holds it for an announced absence (bot_players.reason "absent") or its holder plays it only
from a later turn (a replacement's newcomer).  A due turn is sent when the seat's own orders
came in, or its orders were confirmed, as civil disorder counts presence.  One row per
(account, campaign, turn): a close processed twice counts once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, and_, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from services.orders.turn_players import players_with_ships
from services.platform.store import account_tables as at
from services.platform.store import bots as store
from services.platform.store import desk_tables, tables
from services.platform.store import lobby_tables as lt
from services.platform.store import repository as repo

ABSENT = "absent"  # the bot holds the seat for an announced absence: neither due nor missed
LEFT_WEIGHT = 5  # a campaign left weighs as this many missed deadlines in the percentage


@dataclass(frozen=True, slots=True)
class Record:
    turns_due: int
    turns_sent: int
    deadlines_missed: int
    campaigns_finished: int
    campaigns_left: int
    percent: int


# The queries of every close, built once: building a statement cost as much as running it.
@cache
def _holders_query() -> Select[Any]:
    s = at.account_seats
    return select(s.c.player, s.c.account).where(
        and_(s.c.campaign == bindparam("campaign"), s.c.account.is_not(None))
    )


@cache
def _starting_next_query() -> Select[Any]:
    t = lt.lobby_seats
    return select(t.c.player).where(
        and_(
            t.c.campaign == bindparam("campaign"),
            t.c.plays_from == bindparam("turn"),
            t.c.account.is_not(None),
        )
    )


@cache
def _listing_query() -> Select[Any]:
    return select(lt.lobby_listings.c.started_at).where(lt.lobby_listings.c.campaign == bindparam("campaign"))


def holders(conn: Connection, campaign: str) -> dict[str, str]:
    """player -> account, for the seats accounts hold in the campaign."""
    rows = conn.execute(_holders_query(), {"campaign": campaign})
    return {r.player: r.account for r in rows}


def _present(conn: Connection, campaign: str, turn: int) -> set[str]:
    t = desk_tables.order_confirmations
    confirmed = conn.execute(select(t.c.player).where(and_(t.c.campaign == campaign, t.c.turn == turn)))
    return store.own_senders(conn, campaign, turn) | set(confirmed.scalars())


def _later_starters(conn: Connection, campaign: str) -> dict[str, int]:
    t = lt.lobby_seats
    rows = conn.execute(
        select(t.c.player, t.c.plays_from).where(
            and_(t.c.campaign == campaign, t.c.account.is_not(None), t.c.plays_from.is_not(None))
        )
    )
    return {r.player: int(r.plays_from) for r in rows}


def count_turn(conn: Connection, campaign: str, turn: int) -> int:
    """The close of ``turn``: a row for each seat due; how many were new."""
    held = holders(conn, campaign)
    if not held:
        return 0
    known = store.bot_players(conn, campaign)
    starts = _later_starters(conn, campaign)
    ordering = set(players_with_ships(repo.load_world(conn, campaign, turn)))
    present = _present(conn, campaign, turn)
    added = 0
    for player, account in sorted(held.items()):
        bot = known.get(player)
        if (
            player not in ordering
            or (bot is not None and bot.reason == ABSENT)
            or starts.get(player, 0) > turn
        ):
            continue
        row = {"account": account, "campaign": campaign, "turn": turn, "player": player}
        try:
            with conn.begin_nested():
                conn.execute(insert(lt.reliability_turns).values(**row, sent=player in present))
            added += 1
        except IntegrityError:
            continue  # counted at an earlier close of this turn
    return added


def note_left(conn: Connection, account: str, campaign: str, player: str, turn: int, now: datetime) -> None:
    """The account gave the seat up, or was replaced: once per campaign."""
    t = lt.reliability_left
    key = and_(t.c.account == account, t.c.campaign == campaign)
    if conn.execute(select(t.c.turn).where(key)).first() is None:
        conn.execute(
            insert(t).values(account=account, campaign=campaign, player=player, turn=turn, left_at=now)
        )


def record(conn: Connection, account: str) -> Record:
    t = lt.reliability_turns
    mine = t.c.account == account
    due = int(conn.execute(select(func.count()).select_from(t).where(mine)).scalar() or 0)
    sent = int(
        conn.execute(select(func.count()).select_from(t).where(mine, t.c.sent.is_(True))).scalar() or 0
    )
    left_t = lt.reliability_left
    left = int(
        conn.execute(select(func.count()).select_from(left_t).where(left_t.c.account == account)).scalar()
        or 0
    )
    s, c = at.account_seats, tables.campaigns
    finished = int(
        conn.execute(
            select(func.count(func.distinct(s.c.campaign)))
            .select_from(s.join(c, c.c.id == s.c.campaign))
            .where(s.c.account == account, c.c.status == "FINISHED")
        ).scalar()
        or 0
    )
    return Record(due, sent, due - sent, finished, left, percent(due, sent, left))


def percent(due: int, sent: int, left: int) -> int:
    """Turns sent over turns due, a campaign left weighing LEFT_WEIGHT missed deadlines; 100
    for an account with no record yet (a newcomer is trusted until he misses)."""
    weight = due + LEFT_WEIGHT * left
    return 100 if weight == 0 else (100 * sent) // weight


def at_close(conn: Connection, campaign: str, turn: int) -> None:
    """Everything the lobby does when ``turn`` closes, after civil disorder has counted it."""
    count_turn(conn, campaign, turn)
    _hand_back(conn, campaign, turn)
    _offer_civil_disorder(conn, campaign)


def _hand_back(conn: Connection, campaign: str, turn: int) -> None:
    """A newcomer who plays from the next turn: the bot stops with this one."""
    rows = conn.execute(_starting_next_query(), {"campaign": campaign, "turn": turn + 1}).scalars()
    for player in rows:
        store.put_player(conn, campaign, store.BotPlayer(player, 0, None, None))


def _offer_civil_disorder(conn: Connection, campaign: str) -> None:
    """A listed campaign's seats in civil disorder are offered to newcomers; an offer not taken
    is withdrawn once its holder plays again."""
    started = conn.execute(_listing_query(), {"campaign": campaign}).first()
    if started is None or started.started_at is None:
        return  # not in the lobby, or its seats still offered from the start
    t = lt.lobby_seats
    bots = store.bot_players(conn, campaign).values()
    pl = tables.players
    found = conn.execute(select(pl.c.id, pl.c.roles_json).where(pl.c.campaign == campaign))
    masters = {r.id for r in found if "admin" in json.loads(r.roles_json)}
    # a game master who plays a side keeps his seat in civil disorder: whoever took it would run
    # the campaign (services/orders/lobby/taking.py refuses it too)
    disorder = {p.player for p in bots if p.reason == store.CIVIL_DISORDER} - masters
    rows = {r.player: r for r in conn.execute(select(t).where(t.c.campaign == campaign))}
    now = tables.utcnow()
    for player in sorted(disorder):
        row = rows.get(player)
        if row is None:
            conn.execute(
                insert(t).values(campaign=campaign, player=player, kind=store.CIVIL_DISORDER, opened_at=now)
            )
        elif row.account is not None:
            _set_taker(conn, campaign, player, None, now, kind=store.CIVIL_DISORDER)
    held = holders(conn, campaign)
    for player, row in sorted(rows.items()):
        if player in disorder or row.kind != store.CIVIL_DISORDER or row.account is not None:
            continue
        if player in held:  # he plays again: the offer is withdrawn, the seat his as before
            _set_taker(conn, campaign, player, held[player], now)
        else:
            conn.execute(delete(t).where(and_(t.c.campaign == campaign, t.c.player == player)))


def _set_taker(
    conn: Connection, campaign: str, player: str, account: str | None, now: datetime, kind: str = ""
) -> None:
    """Who took the seat (None: offered again).  The bounds of its last newcomer stay: he may
    still be the one who holds it."""
    t = lt.lobby_seats
    values: dict[str, object] = {"account": account, "taken_at": now if account else None}
    if kind:
        values.update(kind=kind, opened_at=now)
    conn.execute(update(t).where(and_(t.c.campaign == campaign, t.c.player == player)).values(**values))
