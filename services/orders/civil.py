"""Civil disorder and the game master's hand-over to the bot (docs/bots.md).

When a turn closes, each player who had ships to order and sent no orders
himself (the bot's submissions do not count) has missed a deadline; after
the campaign's ``civil_disorder_after`` deadlines missed in a row the bot
plays him from the next turn, until a turn in which he sends orders again:
from the turn after that one he plays himself (his own orders of that turn,
sent after the bot's, already replace them, rule 4.1).  The game master may
hand any player to the bot, and take him back, at any time.  A player who declared an
absence (services/orders/absence.py) misses no deadline in its turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, select

from pate.v1 import bots_pb2
from services.orders.turn_players import players_with_ships
from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.security.auth import check_id
from services.platform.store import absences, desk_tables
from services.platform.store import bots as store
from services.platform.store import repository as repo

MAX_AFTER = 15  # rule 3.1: a campaign lasts 15 turns
BOT_SESSION_SECONDS = 900.0  # long enough for one turn's orders, no longer


def count_missed(conn: Connection, campaign: str, turn: int) -> None:
    """At the close of ``turn``: who missed its deadline, and who the bot
    plays from the next turn."""
    after = store.civil_disorder_after(conn, campaign)
    known = store.bot_players(conn, campaign)
    if not after and not known:
        return  # no rule and no seat: nothing to keep
    world = repo.load_world(conn, campaign, turn)
    # a player who confirmed his orders (even the defaults, or the bot's) is present
    own = store.own_senders(conn, campaign, turn) | _confirmed(conn, campaign, turn)
    for pid in players_with_ships(world):
        p = known.get(pid, store.BotPlayer(pid, 0, None, None))
        if pid in own:
            back = p.reason == store.CIVIL_DISORDER
            store.put_player(
                conn,
                campaign,
                store.BotPlayer(pid, 0, None if back else p.reason, None if back else p.since_turn),
            )
            continue
        if p.reason == store.ABSENT:
            continue  # an absence he declared (services/orders/absence.py): no deadline missed
        missed = p.missed + 1
        if p.reason is None and after and missed >= after:
            p = store.BotPlayer(pid, missed, store.CIVIL_DISORDER, turn + 1)
        store.put_player(conn, campaign, store.BotPlayer(pid, missed, p.reason, p.since_turn))


def _confirmed(conn: Connection, campaign: str, turn: int) -> set[str]:
    t = desk_tables.order_confirmations
    rows = conn.execute(select(t.c.player).where(t.c.campaign == campaign, t.c.turn == turn))
    return {r.player for r in rows}


def seats_pb(conn: Connection, campaign: str) -> bots_pb2.BotSeats:
    players = store.bot_players(conn, campaign)
    return bots_pb2.BotSeats(
        campaign_id=campaign,
        civil_disorder_after=store.civil_disorder_after(conn, campaign),
        seats=[
            bots_pb2.BotSeat(player_id=p.player, reason=p.reason, since_turn=p.since_turn or 0)
            for p in players.values()
            if p.reason is not None
        ],
        missed={p.player: p.missed for p in players.values() if p.missed},
        bot_turns=[bots_pb2.BotTurn(turn=t, player_id=pid) for t, pid in store.bot_turns(conn, campaign)],
        solo=store.solo(conn, campaign),
    )


def check_campaign(conn: Connection, campaign: str) -> repo.CampaignRow:
    check_id("campaign_id", campaign)
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    return row


def _player(conn: Connection, campaign: str, player: str) -> None:
    check_id("player_id", player)
    found = repo.get_player(conn, campaign, player)
    if found is None or not found.state:
        raise DeskError(Code.NOT_FOUND, f"player_id: no player {player!r} with a state in {campaign}")


def hand_to_bot(conn: Connection, campaign: str, player: str) -> bots_pb2.BotSeats:
    row = check_campaign(conn, campaign)
    _player(conn, campaign, player)
    p = store.bot_players(conn, campaign).get(player, store.BotPlayer(player, 0, None, None))
    store.put_player(conn, campaign, store.BotPlayer(player, p.missed, store.GAME_MASTER, row.turn))
    return seats_pb(conn, campaign)


def take_back(conn: Connection, campaign: str, player: str) -> bots_pb2.BotSeats:
    check_campaign(conn, campaign)
    _player(conn, campaign, player)
    store.put_player(conn, campaign, store.BotPlayer(player, 0, None, None))
    return seats_pb(conn, campaign)


def set_civil_disorder(conn: Connection, campaign: str, after: int) -> bots_pb2.BotSeats:
    check_campaign(conn, campaign)
    if not 0 <= after <= MAX_AFTER:
        raise DeskError(Code.INVALID_ARGUMENT, f"after_missed: give 0 (never) to {MAX_AFTER} deadlines")
    store.set_civil_disorder(conn, campaign, after)
    return seats_pb(conn, campaign)


def _seated(conn: Connection, campaign: str, player: str) -> repo.CampaignRow:
    row = check_campaign(conn, campaign)
    _player(conn, campaign, player)
    p = store.bot_players(conn, campaign).get(player)
    if p is None or p.reason is None:
        raise DeskError(Code.FAILED_PRECONDITION, f"player_id: the bot does not play {player} now")
    return row


def bot_login(conn: Connection, campaign: str, player: str, now: datetime) -> bots_pb2.BotLoginResponse:
    _seated(conn, campaign, player)
    token, _ = sessions.issue(conn, campaign, player, now=now, ttl=BOT_SESSION_SECONDS)
    return bots_pb2.BotLoginResponse(
        token=token, standing_instructions=standing_for_bot(conn, campaign, player)
    )


def standing_for_bot(conn: Connection, campaign: str, player: str) -> str:
    """The player's standing instructions (docs/formats/standing.md) when the bot plays him for
    an absence or civil disorder: his wishes for when he is away; a game master's hand-over
    is the game master's, and the bot judges alone."""
    seat = store.bot_players(conn, campaign).get(player)
    if seat is None or seat.reason not in (store.ABSENT, store.CIVIL_DISORDER):
        return ""
    return absences.standing_text(conn, campaign, player)


def note_bot_orders(conn: Connection, request: bots_pb2.NoteBotOrdersRequest) -> None:
    _seated(conn, request.campaign_id, request.player_id)
    rid = request.client_request_id
    if not 1 <= len(rid) <= 128 or request.turn < 1:
        raise DeskError(Code.INVALID_ARGUMENT, "client_request_id: 1 to 128 characters, and a turn from 1")
    store.note_bot_orders(conn, request.campaign_id, request.turn, request.player_id, rid)


MAX_HUMANS = 64


def make_solo(conn: Connection, campaign: str, humans: Sequence[str]) -> bots_pb2.BotSeats:
    row = check_campaign(conn, campaign)
    if len(humans) > MAX_HUMANS:
        raise DeskError(Code.INVALID_ARGUMENT, f"humans: at most {MAX_HUMANS} players")
    for pid in humans:
        _player(conn, campaign, pid)
    world = repo.load_world(conn, campaign, row.turn)
    held = store.bot_players(conn, campaign)
    for pid in sorted(p.id for p in world.players.values() if p.state and p.id not in humans):
        missed = held[pid].missed if pid in held else 0
        store.put_player(conn, campaign, store.BotPlayer(pid, missed, store.GAME_MASTER, row.turn))
    store.set_solo(conn, campaign)
    return seats_pb(conn, campaign)
