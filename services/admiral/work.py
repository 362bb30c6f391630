"""One sweep of the bot admiral service: every open turn's bot seats played.

The service is a client of the platform like a human player (docs/bots.md):
for each player the bot holds in an open turn and has not yet played, it
opens a session for him (BotAdmirals.BotLogin, with the administrator token
the game master's tools hold too), reads his report of the turn before
through the Reports API, decides with the pure bot admiral
(``pate.admiral``) and the player's standing instructions BotLogin hands it,
sends the orders through the OrderDesk under one request id a turn (a retry
is answered as the first time), tells the orders service they were the bot's
(NoteBotOrders) and logs out.  It never reads the database.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache

import grpc

from pate.admiral.decide import Decision, decide
from pate.admiral.levels import Level
from pate.admiral.standing import Instruction, StandingError, parse_standing
from pate.core.rules.context import TurnContext
from pate.core.world.state import TurnKind
from pate.datafiles import load_shipped_scenario
from pate.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    bots_pb2,
    bots_pb2_grpc,
    common_pb2,
    desk_pb2,
    desk_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
    reports_pb2,
    reports_pb2_grpc,
    sessions_pb2,
    sessions_pb2_grpc,
)
from services.platform.telemetry import tracing
from services.platform.telemetry.logging import get_logger

log = get_logger("admiral")
TIMEOUT = 30.0
SEATS_AT_ONCE = 4


@dataclass
class Stubs:
    admin: admin_pb2_grpc.CampaignAdminStub
    bots: bots_pb2_grpc.BotAdmiralsStub
    desk: orders_pb2_grpc.OrderDeskStub
    player_desk: desk_pb2_grpc.PlayerDeskStub
    sessions: sessions_pb2_grpc.SessionsStub
    reports: reports_pb2_grpc.ReportsStub

    @classmethod
    def of(cls, orders: grpc.Channel, reports: grpc.Channel) -> Stubs:
        return cls(
            admin_pb2_grpc.CampaignAdminStub(orders),
            bots_pb2_grpc.BotAdmiralsStub(orders),
            orders_pb2_grpc.OrderDeskStub(orders),
            desk_pb2_grpc.PlayerDeskStub(orders),
            sessions_pb2_grpc.SessionsStub(orders),
            reports_pb2_grpc.ReportsStub(reports),
        )


def request_id(turn: int, player: str) -> str:
    return f"admiral:{turn}:{player}"


Metadata = tuple[tuple[str, str], ...]


def credentials(admin_token: str, admiral_token: str) -> Metadata:
    """What the admiral's calls carry: its own narrower token when it has one
    (PATE_ADMIRAL_TOKEN: campaigns read, the bot's seats played, nothing a game master does),
    else the administrator's."""
    if admiral_token:
        return (("x-pate-admiral-token", admiral_token),)
    return (("x-pate-admin-token", admin_token),)


def sweep(stubs: Stubs, admin: Metadata, ctx: TurnContext, level: Level, only: Collection[str] = ()) -> int:
    """Every bot seat not yet played of the open turns of the campaigns named (of every
    campaign when none are); the number played."""
    seats = _unplayed(stubs, admin, only)

    def one(seat: tuple[admin_pb2.Campaign, str]) -> None:
        c, player = seat
        with tracing.span("admiral.play", attributes={"campaign": c.id, "turn": c.turn, "player": player}):
            play(stubs, admin, ctx, level, c, player)

    # A few seats at once: a seat's time is mostly waiting on the services (six calls), and a
    # solo turn closes only when the last is played.  Each seat is its own session and request
    # id, as before; the orders service serialises the early close under the campaign's lock.
    with ThreadPoolExecutor(max_workers=max(1, min(SEATS_AT_ONCE, len(seats)))) as pool:
        for _ in pool.map(one, seats):  # the first failure is raised, once the others are done
            pass
    return len(seats)


def _unplayed(
    stubs: Stubs, admin: tuple[tuple[str, str], ...], only: Collection[str] = ()
) -> list[tuple[admin_pb2.Campaign, str]]:
    """The bot seats of open turns not yet played.  Looked up untraced: an idle sweep now and
    then would make a trace each time, saying nothing; a seat played is one trace."""
    found = []
    with tracing.untraced():
        if only:  # the campaigns WaitForWork named: not every campaign on the server
            listed = [
                stubs.admin.GetCampaign(
                    admin_pb2.GetCampaignRequest(campaign_id=c), metadata=admin, timeout=TIMEOUT
                )
                for c in only
            ]
        else:
            listed = list(
                stubs.admin.ListCampaigns(
                    admin_pb2.ListCampaignsRequest(), metadata=admin, timeout=TIMEOUT
                ).campaigns
            )
        for c in listed:
            if c.status != admin_pb2.TURN_STATUS_OPEN:
                continue
            seats = stubs.bots.GetBotSeats(
                bots_pb2.GetBotSeatsRequest(campaign_id=c.id), metadata=admin, timeout=TIMEOUT
            )
            done = {(t.turn, t.player_id) for t in seats.bot_turns}
            found += [
                (c, seat.player_id)
                for seat in seats.seats
                if seat.since_turn <= c.turn and (c.turn, seat.player_id) not in done
            ]
    return found


def play(
    stubs: Stubs,
    admin: tuple[tuple[str, str], ...],
    ctx: TurnContext,
    level: Level,
    c: admin_pb2.Campaign,
    player: str,
) -> None:
    login = bots_pb2.BotSeatRequest(campaign_id=c.id, player_id=player)
    seat = stubs.bots.BotLogin(login, metadata=admin, timeout=TIMEOUT)
    md = (("authorization", f"Bearer {seat.token}"),)
    try:
        got = stubs.reports.GetReport(
            reports_pb2.GetReportRequest(campaign_id=c.id, turn=c.turn - 1, format="json"),
            metadata=md,
            timeout=TIMEOUT,
        )
        standing = standing_for(seat.standing_instructions, c.id, player)
        decision = decide(
            json.loads(got.body),
            ctx.map,
            ctx.rules,
            level,
            c.seed,
            turn_kind(c.scenario, c.turn),
            c.combat_rules or "pate",
            c.naval_rules or "pate",
            standing,
        )
        rid = request_id(c.turn, player)
        _send(stubs, md, c, decision, rid)
        note = bots_pb2.NoteBotOrdersRequest(
            campaign_id=c.id, turn=c.turn, player_id=player, client_request_id=rid
        )
        stubs.bots.NoteBotOrders(note, metadata=admin, timeout=TIMEOUT)
        log.info(
            "bot_played",
            campaign=c.id,
            turn=c.turn,
            player=player,
            orders=len(decision.orders),
            standing=len(standing),
        )
    finally:
        stubs.sessions.Logout(sessions_pb2.LogoutRequest(), metadata=md, timeout=TIMEOUT)


def standing_for(text: str, campaign: str, player: str) -> tuple[Instruction, ...]:
    """The player's standing instructions, which the orders service checked when he set them;
    a text that no longer parses (a format changed since) is logged and not followed."""
    try:
        return parse_standing(text)
    except StandingError as err:
        log.warning("standing_unreadable", campaign=campaign, player=player, refusals=len(err.refusals))
        return ()


def _send(
    stubs: Stubs, md: tuple[tuple[str, str], ...], c: admin_pb2.Campaign, d: Decision, rid: str
) -> None:
    moves = [
        common_pb2.StoresMoveOrder(origin=m.origin, destination=m.destination, amount=m.amount)
        for m in d.stores_moves
    ]
    if d.orders or moves:
        req = orders_pb2.SubmitOrdersRequest(
            campaign_id=c.id,
            turn=c.turn,
            client_request_id=rid,
            orders_text=d.orders_text(),
            stores_moves=moves,
        )
        try:
            stubs.desk.SubmitOrders(req, metadata=md, timeout=TIMEOUT)
        except grpc.RpcError as err:
            # the ships keep their defaults (4.11); the refusal is logged, the seat counted as played
            log.error("bot_orders_refused", campaign=c.id, turn=c.turn, status=str(err.code()))
    if d.assignments:
        officers = [
            desk_pb2.OfficerAssignment(ship_id=a.ship_id, commander=a.commander or "", deputy=a.deputy or "")
            for a in d.assignments
        ]
        try:
            stubs.player_desk.AssignOfficers(
                desk_pb2.AssignOfficersRequest(campaign_id=c.id, turn=c.turn, assignments=officers),
                metadata=md,
                timeout=TIMEOUT,
            )
        except grpc.RpcError as err:
            log.error("bot_assignments_refused", campaign=c.id, turn=c.turn, status=str(err.code()))


@cache
def _calendar(scenario: str) -> tuple[TurnKind, ...]:
    try:
        return load_shipped_scenario(scenario).world.turn_kinds
    except (FileNotFoundError, ValueError):
        return ()  # a scenario given inline: its calendar is not published here


def turn_kind(scenario: str, turn: int) -> TurnKind:
    """Rule 6.12: the coming turn's kind, from the scenario's published calendar."""
    kinds = _calendar(scenario)
    return kinds[turn - 1] if 0 < turn <= len(kinds) else TurnKind.CAMPAIGN
