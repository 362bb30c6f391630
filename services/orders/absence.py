"""A player's declared absence (docs/bots.md "Absence"): the bot plays his seat for the turns
he named, within the allowance of absent turns the game master sets for the campaign.

An absence is a range of turns, both ends included.  The bot holds him (bot_players.reason
"absent") from the opening of its first turn to the opening of the turn after its last, unless
the game master handed him to the bot, which comes first.  His own orders of an absent turn
still replace the bot's (rule 4.1), and an absent turn is no deadline missed
(civil.count_missed).  A turn is spent once it has closed: cancelling gives back the open
turn (he is back before its deadline, which is his again) and those still to come.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

from pate.v1 import absence_pb2
from services.orders import civil
from services.platform.errors import Code, DeskError
from services.platform.security.field_shapes import MAX_TURN  # a bigger number is refused before any read
from services.platform.store import absences as store
from services.platform.store import bots
from services.platform.store import repository as repo

MAX_ALLOWANCE = 15  # rule 3.1: a campaign lasts 15 turns


def earliest(row: repo.CampaignRow) -> int:
    """The first turn an absence may still take: the open turn (or the first, not yet open),
    else the next one; a turn closed already was due."""
    return row.turn if row.status in ("STARTING", "OPEN") else row.turn + 1


def _live(conn: Connection, campaign: str) -> repo.CampaignRow:
    row = civil.check_campaign(conn, campaign)
    if row.status == "FINISHED":
        raise DeskError(Code.FAILED_PRECONDITION, f"campaign_id: {campaign} is over")
    return row


def check_turns(from_turn: int, to_turn: int) -> None:
    """The numbers' bounds, before any read (the request's limits hold them too, over gRPC)."""
    if not 1 <= from_turn <= MAX_TURN:
        raise DeskError(Code.INVALID_ARGUMENT, f"from_turn: a turn from 1 to {MAX_TURN}")
    if not 0 <= to_turn <= MAX_TURN:
        raise DeskError(Code.INVALID_ARGUMENT, f"to_turn: a turn up to {MAX_TURN}")


def declare(
    conn: Connection, campaign: str, player: str, from_turn: int, to_turn: int, now: datetime
) -> absence_pb2.AbsenceState:
    check_turns(from_turn, to_turn)
    row = _live(conn, campaign)
    first = earliest(row)
    if from_turn < first:
        raise DeskError(Code.INVALID_ARGUMENT, f"from_turn: turn {first} or later (turn {row.turn} is due)")
    if not from_turn <= to_turn <= row.turns:
        raise DeskError(Code.INVALID_ARGUMENT, f"to_turn: from turn {from_turn} to the last, {row.turns}")
    mine = store.of_campaign(conn, campaign, player)
    for a in mine:
        if a.from_turn <= to_turn and from_turn <= a.to_turn:
            raise DeskError(
                Code.FAILED_PRECONDITION,
                f"from_turn: overlaps your absence of turns {a.from_turn}-{a.to_turn}",
            )
    asked = store.Absence(player, from_turn, to_turn)
    left = store.allowance(conn, campaign) - sum(a.turns for a in mine)
    if asked.turns > left:
        raise DeskError(Code.FAILED_PRECONDITION, f"to_turn: {asked.turns} turns asked, {max(left, 0)} left")
    store.add(conn, campaign, asked, now)
    if row.status == "OPEN":
        seat_absentees(conn, campaign, row.turn)
    return state_pb(conn, campaign, player)


def cancel(
    conn: Connection, campaign: str, player: str, from_turn: int, to_turn: int
) -> absence_pb2.AbsenceState:
    """Shorten the absence to end at ``to_turn``, or as early as may be (0): the turns already
    closed are spent."""
    check_turns(from_turn, to_turn)
    row = _live(conn, campaign)
    found = next((a for a in store.of_campaign(conn, campaign, player) if a.from_turn == from_turn), None)
    if found is None:
        raise DeskError(Code.NOT_FOUND, f"from_turn: you declared no absence from turn {from_turn}")
    soonest = earliest(row) - 1  # the last turn closed, or before
    if found.to_turn <= soonest:
        raise DeskError(Code.FAILED_PRECONDITION, "from_turn: that absence is over")
    end = soonest if to_turn == 0 else to_turn
    if not soonest <= end < found.to_turn:
        raise DeskError(
            Code.INVALID_ARGUMENT,
            f"to_turn: 0, or a turn from {max(soonest, found.from_turn)} to {found.to_turn - 1}",
        )
    store.shorten(conn, campaign, found, max(end, found.from_turn - 1))
    if row.status == "OPEN":
        seat_absentees(conn, campaign, row.turn)
    return state_pb(conn, campaign, player)


def seat_changes_hands(conn: Connection, campaign: str, player: str, now: datetime) -> None:
    """A newcomer holds the seat now: his predecessor's standing instructions go (they told the
    bot what he meant, from what he saw), and so do the turns of his absences not yet closed
    (the newcomer never asked the bot to play them for him).  Turns closed stay spent."""
    row = civil.check_campaign(conn, campaign)
    store.set_standing_text(conn, campaign, player, "", now)
    soonest = earliest(row) - 1
    for a in store.of_campaign(conn, campaign, player):
        if a.to_turn > soonest:
            store.shorten(conn, campaign, a, max(soonest, a.from_turn - 1))


def seat_absentees(conn: Connection, campaign: str, turn: int) -> None:
    """At the opening of ``turn`` (and when an absence covering the open turn is declared or
    ended): the bot holds the players absent in it and lets go of those back from an absence.
    A game master's hand-over is left as it is."""
    away = {a.player for a in store.of_campaign(conn, campaign) if a.covers(turn)}
    seats = bots.bot_players(conn, campaign)
    for pid in sorted(away):
        p = seats.get(pid, bots.BotPlayer(pid, 0, None, None))
        if p.reason in (None, bots.CIVIL_DISORDER):
            bots.put_player(conn, campaign, bots.BotPlayer(pid, p.missed, bots.ABSENT, turn))
    for pid, p in sorted(seats.items()):
        if p.reason == bots.ABSENT and pid not in away:
            bots.put_player(conn, campaign, bots.BotPlayer(pid, p.missed, None, None))


def state_pb(conn: Connection, campaign: str, player: str) -> absence_pb2.AbsenceState:
    row = repo.get_campaign(conn, campaign)
    mine = store.of_campaign(conn, campaign, player)
    seat = bots.bot_players(conn, campaign).get(player)
    out = absence_pb2.AbsenceState(
        campaign_id=campaign,
        player_id=player,
        allowance=store.allowance(conn, campaign),
        used=sum(a.turns for a in mine),
        absences=[absence_pb2.Absence(from_turn=a.from_turn, to_turn=a.to_turn) for a in mine],
        turn=row.turn if row is not None else 0,
        absent_now=seat is not None and seat.reason == bots.ABSENT,
        last_turn=row.turns if row is not None else 0,
    )
    if row is not None and row.deadline is not None:
        out.deadline.FromDatetime(row.deadline)  # to turn a date he has in mind into a turn
    return out


def set_allowance(conn: Connection, campaign: str, turns: int) -> absence_pb2.AbsenceAllowance:
    if not 0 <= turns <= MAX_ALLOWANCE:
        raise DeskError(Code.INVALID_ARGUMENT, f"allowance: 0 to {MAX_ALLOWANCE} turns")
    civil.check_campaign(conn, campaign)
    store.set_allowance(conn, campaign, turns)
    return absence_pb2.AbsenceAllowance(campaign_id=campaign, allowance=turns)
