"""Publishing a campaign in the lobby, starting it, and reading listings (docs/lobby.md).

A campaign is published while it is still at its start (turn 1, not yet played): publishing
stops its clock, so nobody's first deadline runs before the seats are filled; it starts when
the last seat is taken (start "when_full") or when its game master says so, and its first
deadline is then one turn length away.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from pate.core.world.state import Role
from pate.datafiles import load_nations
from pate.reports.seat_words import SeatFacts, seat_facts
from pate.v1 import lobby_pb2
from services.platform.errors import Code, DeskError
from services.platform.security.auth import check_id
from services.platform.store import account_tables as at
from services.platform.store import bots as botstore
from services.platform.store import lobby_tables as lt
from services.platform.store import repository as repo
from services.platform.store import tables

MAX_DESCRIPTION = 2000
MAX_SEATS = 200
POLICIES = ("first_come", "approval")
STARTS = ("when_full", "by_game_master")
AT_START = ("STARTING", "OPEN")
START_KIND = "start"


@dataclass(frozen=True, slots=True)
class Publish:
    campaign: str
    description: str
    time_zone: str
    seat_policy: str
    min_reliability: int
    start: str
    seats: tuple[str, ...]


def check_publish(r: lobby_pb2.PublishRequest) -> Publish:
    """Every field within its limit before any database work; errors name the field."""
    check_id("campaign_id", r.campaign_id)
    if len(r.description) > MAX_DESCRIPTION:
        raise DeskError(Code.INVALID_ARGUMENT, f"description: at most {MAX_DESCRIPTION} characters")
    zone = r.time_zone or "UTC"
    if len(zone) > 64 or zone not in available_timezones():
        raise DeskError(Code.INVALID_ARGUMENT, "time_zone: an IANA time zone name, e.g. Europe/Paris")
    if r.seat_policy not in POLICIES:
        raise DeskError(Code.INVALID_ARGUMENT, f"seat_policy: one of {' | '.join(POLICIES)}")
    if not 0 <= r.min_reliability <= 100:
        raise DeskError(Code.INVALID_ARGUMENT, "min_reliability: a percentage, 0 to 100")
    if r.start not in STARTS:
        raise DeskError(Code.INVALID_ARGUMENT, f"start: one of {' | '.join(STARTS)}")
    if len(r.seats) > MAX_SEATS or len(set(r.seats)) != len(r.seats):
        raise DeskError(Code.INVALID_ARGUMENT, f"seats: at most {MAX_SEATS} player ids, each once")
    for pid in r.seats:
        check_id("seats", pid)
    return Publish(
        r.campaign_id, r.description, zone, r.seat_policy, r.min_reliability, r.start, tuple(r.seats)
    )


def campaign_row(conn: Connection, campaign: str, lock: bool = False) -> repo.CampaignRow:
    check_id("campaign_id", campaign)
    row = repo.get_campaign(conn, campaign, lock=lock)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    return row


def listing_row(conn: Connection, campaign: str) -> Any:
    found = conn.execute(select(lt.lobby_listings).where(lt.lobby_listings.c.campaign == campaign)).first()
    if found is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: {campaign!r} is not in the lobby")
    return found


def publish(conn: Connection, ask: Publish, now: datetime) -> None:
    row = campaign_row(conn, ask.campaign, lock=True)
    if row.turn != 1 or row.status not in AT_START:
        raise DeskError(
            Code.FAILED_PRECONDITION, "campaign_id: only a campaign still at its start is published"
        )
    players = repo.load_world(conn, ask.campaign, 1).players.values()
    # a game master who plays a side too (admin and a state) keeps his seat: whoever took it
    # would run the campaign
    states = {p.id for p in players if p.state and Role.ADMIN not in p.roles}
    unknown = [pid for pid in ask.seats if pid not in states]
    if unknown:
        raise DeskError(
            Code.INVALID_ARGUMENT,
            f"seats: no player {unknown[0]!r} of a state in the campaign (nor the game master's)",
        )
    listed = lt.lobby_listings.c.campaign == ask.campaign
    if conn.execute(select(lt.lobby_listings.c.campaign).where(listed)).first() is not None:
        raise DeskError(Code.ALREADY_EXISTS, f"campaign_id: {ask.campaign!r} is in the lobby already")
    s = at.account_seats
    claimed = {r.player: r.account for r in conn.execute(select(s).where(s.c.campaign == ask.campaign))}
    conn.execute(
        insert(lt.lobby_listings).values(
            campaign=ask.campaign,
            description=ask.description,
            time_zone=ask.time_zone,
            seat_policy=ask.seat_policy,
            min_reliability=ask.min_reliability,
            start=ask.start,
            published_at=now,
        )
    )
    for pid in sorted(ask.seats or states):
        holder = claimed.get(pid)
        conn.execute(
            insert(lt.lobby_seats).values(
                campaign=ask.campaign,
                player=pid,
                kind=START_KIND,
                opened_at=now,
                account=holder,
                taken_at=now if holder else None,
            )
        )
    # the clock waits for the players: no deadline until the campaign starts
    repo.set_status(conn, ask.campaign, turn=1, expect=(row.status,), status=row.status, deadline=None)


def start(conn: Connection, campaign: str, now: datetime) -> None:
    """The campaign starts now: its first deadline one turn length away; the bot plays the
    seats still free until newcomers take them (they stay offered)."""
    row = campaign_row(conn, campaign, lock=True)
    found = listing_row(conn, campaign)
    if found.started_at is not None:
        raise DeskError(Code.FAILED_PRECONDITION, "campaign_id: the campaign has started already")
    if row.turn != 1 or row.status not in AT_START:
        raise DeskError(Code.FAILED_PRECONDITION, f"campaign_id: turn {row.turn} is {row.status}")
    deadline = now + timedelta(seconds=row.turn_seconds) if row.turn_seconds else None
    repo.set_status(conn, campaign, turn=1, expect=(row.status,), status=row.status, deadline=deadline)
    conn.execute(delete(tables.campaign_pauses).where(tables.campaign_pauses.c.campaign == campaign))
    listed = lt.lobby_listings.c.campaign == campaign
    conn.execute(update(lt.lobby_listings).where(listed).values(started_at=now))
    t = lt.lobby_seats
    free = conn.execute(select(t.c.player).where(and_(t.c.campaign == campaign, t.c.account.is_(None))))
    for player in free.scalars():
        botstore.put_player(conn, campaign, botstore.BotPlayer(player, 0, botstore.GAME_MASTER, 1))
        conn.execute(
            update(t)
            .where(and_(t.c.campaign == campaign, t.c.player == player))
            .values(kind=botstore.GAME_MASTER)
        )


def free_seats(conn: Connection, campaign: str) -> int:
    t = lt.lobby_seats
    where = and_(t.c.campaign == campaign, t.c.account.is_(None))
    return int(conn.execute(select(func.count()).select_from(t).where(where)).scalar() or 0)


# Seats said in words, per (campaign, turn): a world is read once for every browse of a turn.
_FACTS: OrderedDict[tuple[str, int], dict[str, SeatFacts]] = OrderedDict()
_FACTS_KEPT = 128
_FACTS_LOCK = threading.Lock()  # browses run on worker threads


def _facts(conn: Connection, campaign: str, turn: int) -> dict[str, SeatFacts]:
    key = (campaign, turn)
    with _FACTS_LOCK:
        found = _FACTS.get(key)
    if found is None:
        world = repo.load_world(conn, campaign, turn)
        states = load_nations().states
        found = {pid: seat_facts(world, pid, states) for pid, p in world.players.items() if p.state}
        with _FACTS_LOCK:
            _FACTS[key] = found
            while len(_FACTS) > _FACTS_KEPT:
                _FACTS.popitem(last=False)
    return found


def status_of(started: bool, row: repo.CampaignRow) -> str:
    if row.status == "FINISHED":
        return "finished"
    return "running" if started else "open"


def listing_pb(conn: Connection, campaign: str) -> lobby_pb2.Listing:
    row = campaign_row(conn, campaign)
    found = listing_row(conn, campaign)
    # a seat's ships as the campaign began (its scenario is public), never as they are now: which
    # ships a side has lost, or still has, is the fog of war's (rule 3.11), and anyone reads this
    facts = _facts(conn, campaign, 1)
    t = lt.lobby_seats
    out = lobby_pb2.Listing(
        campaign_id=campaign,
        name=row.name,
        scenario=row.scenario,
        combat_rules=row.combat_rules,
        naval_rules=row.naval_rules,
        turn_seconds=row.turn_seconds,
        time_zone=found.time_zone,
        description=found.description,
        seat_policy=found.seat_policy,
        min_reliability=found.min_reliability,
        start=found.start,
        status=status_of(found.started_at is not None, row),
        turn=row.turn,
    )
    out.published_at.FromDatetime(found.published_at)
    if row.deadline is not None:
        local = row.deadline.astimezone(ZoneInfo(out.time_zone))
        out.deadline_local = f"{local:%Y-%m-%d %H:%M} {out.time_zone}"
    for seat in conn.execute(select(t).where(t.c.campaign == campaign).order_by(t.c.player)):
        f = facts.get(seat.player)
        out.seats.add(
            player_id=seat.player,
            side=f.side if f else "",
            role=f.role if f else "",
            ships=f.ships if f else 0,
            words=f.words if f else seat.player,
            kind=seat.kind,
            taken=seat.account is not None,
            plays_from=seat.plays_from or 0,
        )
        out.free_seats += seat.account is None
    return out
