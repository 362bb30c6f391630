"""From which turn the holder of a seat taken as a replacement plays it and reads its reports
(docs/lobby.md, "Replacement seats").  The reports service and the account's OpenSeat read
these; a seat never replaced answers 0 (no bound).  The bounds stay while the seat is offered
again: its last newcomer holds it until someone takes it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, and_, delete, select, update

from services.platform.store.lobby_tables import lobby_asks, lobby_seats, reliability_left, reliability_turns


def _bound(conn: Connection, column: str, campaign: str, player: str) -> int:
    t = lobby_seats
    found = conn.execute(
        select(t.c[column]).where(and_(t.c.campaign == campaign, t.c.player == player))
    ).scalar()
    return int(found or 0)


def reports_from(conn: Connection, campaign: str, player: str) -> int:
    """The first turn whose reports the seat's present holder may read."""
    return _bound(conn, "reports_from", campaign, player)


def plays_from(conn: Connection, campaign: str, player: str) -> int:
    """The first turn the seat's present holder plays (opens the seat)."""
    return _bound(conn, "plays_from", campaign, player)


def held_since(conn: Connection, campaign: str, player: str) -> tuple[int, datetime | None]:
    """(reports_from, taken_at) of a seat taken as a replacement: what its holder may read of
    the seat's past (its messages too) starts there; (0, None) for a seat never replaced."""
    t = lobby_seats
    found = conn.execute(
        select(t.c.reports_from, t.c.taken_at).where(and_(t.c.campaign == campaign, t.c.player == player))
    ).first()
    if found is None or found.reports_from is None:
        return 0, None
    return int(found.reports_from), found.taken_at


def forget_account(conn: Connection, account: str) -> None:
    """A deleted account leaves the lobby: its seats there are free again (a running campaign's
    game master gives the seat to the next player, as a claimed seat's), its asks and its record
    go with the person."""
    conn.execute(
        update(lobby_seats).where(lobby_seats.c.account == account).values(account=None, taken_at=None)
    )
    for t in (lobby_asks, reliability_turns, reliability_left):
        conn.execute(delete(t).where(t.c.account == account))
