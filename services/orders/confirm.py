"""Confirmed orders and the early close of a turn.

A player says his orders for the open turn are final; any later submission
of his takes that back.  When the game master has chosen the early close,
the turn closes as soon as every player with ships has confirmed, as
Diplicity does; a player whose ships a bot plays (civil disorder) never
holds the turn back.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, delete

from pate.core.world.state import WorldState
from pate.v1 import desk_pb2
from services.orders import admirals, campaigns, earlyclose, pause
from services.orders.turn_players import players_with_ships
from services.platform.errors import Code, DeskError
from services.platform.store import bots, desk_tables
from services.platform.store import repository as repo


def bot_played(conn: Connection, campaign: str) -> frozenset[str]:
    """Players whose ships the bot plays now (civil disorder or the game
    master's hand-over, docs/bots.md): a turn does not wait for them."""
    return frozenset(p for p, seat in bots.bot_players(conn, campaign).items() if seat.reason)


def clear(conn: Connection, campaign: str, turn: int, player: str) -> None:
    """A later change to his orders: his confirmation no longer holds."""
    t = desk_tables.order_confirmations
    conn.execute(delete(t).where(t.c.campaign == campaign, t.c.turn == turn, t.c.player == player))


def confirmations(
    conn: Connection, campaign: str, turn: int, world: WorldState
) -> list[desk_pb2.Confirmation]:
    done = earlyclose.confirmed_players(conn, campaign, turn)
    robots = bot_played(conn, campaign)
    return [
        desk_pb2.Confirmation(player_id=p, confirmed=p in done, bot=p in robots)
        for p in players_with_ships(world)
    ]


def confirm(
    conn: Connection, campaign: str, turn: int, player: str, confirmed: bool, now: datetime
) -> desk_pb2.ConfirmOrdersResponse:
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    if turn != row.turn or row.status != "OPEN":
        raise DeskError(Code.FAILED_PRECONDITION, f"turn: orders are confirmed in the open turn ({row.turn})")
    clear(conn, campaign, turn, player)
    if not confirmed:
        return desk_pb2.ConfirmOrdersResponse(confirmed=False)
    conn.execute(
        desk_tables.order_confirmations.insert().values(
            campaign=campaign, turn=turn, player=player, confirmed_at=now
        )
    )
    # a solo campaign closes once its humans have confirmed and the bot has played the rest
    closed = _close_if_all(conn, row, now) or admirals.close_if_all_confirmed(conn, campaign, turn, now)
    return desk_pb2.ConfirmOrdersResponse(confirmed=True, turn_closed=closed)


def _close_if_all(conn: Connection, row: repo.CampaignRow, now: datetime) -> bool:
    if not earlyclose.setting(conn, row.id).enabled or pause.paused(conn, row.id, row.turn):
        return False
    world = repo.load_world_cached(conn, row.id, row.turn)
    done = earlyclose.confirmed_players(conn, row.id, row.turn)
    robots = bot_played(conn, row.id)
    waiting = [p for p in players_with_ships(world) if p not in done and p not in robots]
    if waiting:
        return False
    conn.execute(
        desk_tables.early_close.update()
        .where(desk_tables.early_close.c.campaign == row.id)
        .values(closed_turn=row.turn, scheduled_deadline=row.deadline)
    )
    campaigns.close_turn(conn, row.id, row.turn, "confirmed", now)
    return True
