"""The bot admirals' rows (migration 0008; docs/bots.md): a campaign's civil
disorder rule, each player's missed deadlines and bot seat, and the order
submissions the bot sent."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, and_, delete, select, update

from services.platform.store import tables

GAME_MASTER = "game_master"
CIVIL_DISORDER = "civil_disorder"
ABSENT = "absent"  # an absence the player declared (services/orders/absence.py)


@dataclass(frozen=True, slots=True)
class BotPlayer:
    player: str
    missed: int
    reason: str | None  # None: the player plays himself
    since_turn: int | None


def civil_disorder_after(conn: Connection, campaign: str) -> int:
    t = tables.bot_rules
    found = conn.execute(select(t.c.civil_disorder_after).where(t.c.campaign == campaign)).scalar()
    return int(found or 0)


def set_civil_disorder(conn: Connection, campaign: str, after: int) -> None:
    _set_rules(conn, campaign, after, solo(conn, campaign))


def solo(conn: Connection, campaign: str) -> bool:
    t = tables.bot_rules
    return bool(conn.execute(select(t.c.solo).where(t.c.campaign == campaign)).scalar())


def set_solo(conn: Connection, campaign: str) -> None:
    _set_rules(conn, campaign, civil_disorder_after(conn, campaign), True)


def _set_rules(conn: Connection, campaign: str, after: int, is_solo: bool) -> None:
    t = tables.bot_rules
    conn.execute(delete(t).where(t.c.campaign == campaign))
    conn.execute(t.insert().values(campaign=campaign, civil_disorder_after=after, solo=is_solo))


def bot_players(conn: Connection, campaign: str) -> dict[str, BotPlayer]:
    t = tables.bot_players
    rows = conn.execute(select(t).where(t.c.campaign == campaign).order_by(t.c.player)).all()
    return {r.player: BotPlayer(r.player, r.missed, r.reason, r.since_turn) for r in rows}


def put_player(conn: Connection, campaign: str, p: BotPlayer) -> None:
    t = tables.bot_players
    key = and_(t.c.campaign == campaign, t.c.player == p.player)
    values = {"missed": p.missed, "reason": p.reason, "since_turn": p.since_turn}
    if conn.execute(update(t).where(key).values(**values)).rowcount == 0:
        conn.execute(t.insert().values(campaign=campaign, player=p.player, **values))


def note_bot_orders(conn: Connection, campaign: str, turn: int, player: str, request_id: str) -> None:
    t = tables.bot_orders
    key = and_(
        t.c.campaign == campaign, t.c.turn == turn, t.c.player == player, t.c.client_request_id == request_id
    )
    if conn.execute(select(t.c.turn).where(key)).first() is None:
        conn.execute(
            t.insert().values(campaign=campaign, turn=turn, player=player, client_request_id=request_id)
        )


def bot_request_ids(conn: Connection, campaign: str, turn: int) -> dict[str, set[str]]:
    """Player -> the request ids of the bot's submissions for him this turn."""
    t = tables.bot_orders
    rows = conn.execute(
        select(t.c.player, t.c.client_request_id).where(and_(t.c.campaign == campaign, t.c.turn == turn))
    ).all()
    out: dict[str, set[str]] = {}
    for r in rows:
        out.setdefault(r.player, set()).add(r.client_request_id)
    return out


def bot_turns(conn: Connection, campaign: str) -> list[tuple[int, str]]:
    t = tables.bot_orders
    rows = conn.execute(
        select(t.c.turn, t.c.player).where(t.c.campaign == campaign).distinct().order_by(t.c.turn, t.c.player)
    ).all()
    return [(r.turn, r.player) for r in rows]


def own_senders(conn: Connection, campaign: str, turn: int) -> set[str]:
    """The players who sent orders themselves this turn (not through the
    bot); store moves count only for a minister the bot did not play (the
    stores table keeps no request id)."""
    bots = bot_request_ids(conn, campaign, turn)
    o = tables.orders
    rows = conn.execute(
        select(o.c.author_player, o.c.client_request_id)
        .where(and_(o.c.campaign == campaign, o.c.turn == turn))
        .distinct()
    ).all()
    out = {r.author_player for r in rows if r.client_request_id not in bots.get(r.author_player, set())}
    m = tables.stores_moves
    movers = conn.execute(
        select(m.c.author_player).where(and_(m.c.campaign == campaign, m.c.turn == turn)).distinct()
    ).scalars()
    return out | {p for p in movers if p not in bots}
