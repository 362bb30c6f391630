"""The game master's early close: a turn closes once every player with ships
has confirmed; the next deadline keeps the schedule or runs from the close."""

from __future__ import annotations

from sqlalchemy import Connection, select

from pate.v1 import desk_pb2
from services.platform.errors import Code, DeskError
from services.platform.store import desk_tables
from services.platform.store import repository as repo


def confirmed_players(conn: Connection, campaign: str, turn: int) -> frozenset[str]:
    """The players who have confirmed their orders of ``turn`` (and not taken it back)."""
    t = desk_tables.order_confirmations
    rows = conn.execute(select(t.c.player).where(t.c.campaign == campaign, t.c.turn == turn))
    return frozenset(r.player for r in rows)


def setting(conn: Connection, campaign: str) -> desk_pb2.EarlyClose:
    t = desk_tables.early_close
    row = conn.execute(select(t).where(t.c.campaign == campaign)).first()
    if row is None:
        return desk_pb2.EarlyClose()
    return desk_pb2.EarlyClose(enabled=bool(row.enabled), keep_schedule=bool(row.keep_schedule))


def set_setting(conn: Connection, campaign: str, wanted: desk_pb2.EarlyClose) -> desk_pb2.EarlyClose:
    if repo.get_campaign(conn, campaign, lock=True) is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    t = desk_tables.early_close
    values = {"enabled": wanted.enabled, "keep_schedule": wanted.keep_schedule}
    if conn.execute(select(t.c.campaign).where(t.c.campaign == campaign)).first() is None:
        conn.execute(t.insert().values(campaign=campaign, **values))
    else:
        conn.execute(t.update().where(t.c.campaign == campaign).values(**values))
    return setting(conn, campaign)
