"""``pate lobby ...``: published campaigns, their seats, and the reliability record (docs/lobby.md).

    pate lobby browse [--scenario S] [--rules R] [--max-turn-hours H] [--free] [--page N]
    pate lobby show CAMPAIGN                       a listing and its seats
    pate lobby take CAMPAIGN PLAYER | ask CAMPAIGN PLAYER | leave CAMPAIGN PLAYER
    pate lobby record                              your reliability record
    pate lobby solo --campaign ID --scenario S --seat P
  the game master (--admin-token or PATE_ADMIN_TOKEN):
    pate lobby publish CAMPAIGN --policy first_come|approval --start when_full|by_game_master
                       [--seat P ...] [--time-zone Z] [--min-reliability N] [--description TEXT]
    pate lobby start CAMPAIGN | requests CAMPAIGN | approve CAMPAIGN ASK | refuse CAMPAIGN ASK
    pate lobby replace CAMPAIGN PLAYER             offer a running campaign's seat to a newcomer

An account's calls use the session of ``pate account login``; a taken seat is then played with
``pate account play``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("lobby", help="published campaigns: browse, take or ask for seats, your record")
    p.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")
    p.add_argument("--admin-token", default=None, help="the game master's calls (PATE_ADMIN_TOKEN)")
    acts = p.add_subparsers(dest="action", required=True)
    b = acts.add_parser("browse", help="listings with seats to take")
    b.add_argument("--scenario", default="")
    b.add_argument("--rules", default="", help="combat rule set")
    b.add_argument("--naval-rules", default="")
    b.add_argument("--max-turn-hours", type=int, default=0)
    b.add_argument("--free", action="store_true", help="only listings with a free seat")
    b.add_argument("--page", default="", help="the next page's token printed last time")
    b.set_defaults(handler=_browse)
    for name, handler, text in (
        ("show", _show, "a listing and its seats"),
        ("start", _start, "start a published campaign now (game master)"),
        ("requests", _requests, "the asks for seats, with each asker's record (game master)"),
    ):
        c = acts.add_parser(name, help=text)
        c.add_argument("campaign")
        c.set_defaults(handler=handler)
    for name, handler, text in (
        ("take", _take, "take a seat (first come)"),
        ("ask", _ask, "ask for a seat (approval)"),
        ("leave", _leave, "give a seat up (counts as a campaign left once it runs)"),
        ("replace", _replace, "offer a running campaign's seat to a newcomer (game master)"),
    ):
        c = acts.add_parser(name, help=text)
        c.add_argument("campaign")
        c.add_argument("player")
        c.set_defaults(handler=handler)
    for name, handler in (("approve", _approve), ("refuse", _refuse)):
        c = acts.add_parser(name, help=f"{name} an ask (game master)")
        c.add_argument("campaign")
        c.add_argument("ask_id")
        c.set_defaults(handler=handler)
    acts.add_parser("record", help="your reliability record").set_defaults(handler=_record)
    s = acts.add_parser("solo", help="a solo game: your seat, the bot every other")
    s.add_argument("--campaign", required=True)
    s.add_argument("--scenario", required=True)
    s.add_argument("--seat", required=True)
    s.add_argument("--rules", default="")
    s.add_argument("--naval-rules", default="")
    s.set_defaults(handler=_solo)
    pub = acts.add_parser("publish", help="publish a campaign still at its start (game master)")
    pub.add_argument("campaign")
    pub.add_argument("--policy", required=True, choices=("first_come", "approval"))
    pub.add_argument("--start", required=True, choices=("when_full", "by_game_master"))
    pub.add_argument("--seat", action="append", default=[], help="a player offered (default: every one)")
    pub.add_argument("--time-zone", default="UTC")
    pub.add_argument("--min-reliability", type=int, default=0)
    pub.add_argument("--description", default="")
    pub.set_defaults(handler=_publish)


def _rpc(
    args: argparse.Namespace, method: str, request: Any, *, account: bool = False, gm: bool = False
) -> Any:
    from pate.cli.account_client import token as _token
    from pate.cli.client import admin_metadata, bearer, call, orders_channel
    from pate.v1 import lobby_pb2_grpc

    md: Any = ()
    if account:
        md = bearer(_token())
    elif gm:
        md = admin_metadata(args.admin_token)
    with orders_channel(args.server) as ch:
        fn: Callable[..., Any] = getattr(lobby_pb2_grpc.LobbyStub(ch), method)
        return call(fn, request, md)


def _hours(seconds: int) -> str:
    return f"{seconds // 3600} h turns" if seconds else "no deadline"


def _print_listing(x: Any, seats: bool) -> None:
    deadline = f", next deadline {x.deadline_local}" if x.deadline_local else ""
    print(
        f"{x.campaign_id:<24} {x.scenario} ({x.combat_rules}/{x.naval_rules}), "
        f"{_hours(x.turn_seconds)}{deadline}; "
        f"{x.status}, {x.free_seats} free, {x.seat_policy}, min {x.min_reliability}%"
    )
    if seats:
        if x.description:
            print(f"  {x.description}")
        for s in x.seats:
            state = "taken" if s.taken else f"free ({s.kind})"
            later = f", plays from turn {s.plays_from}" if s.plays_from else ""
            print(f"  {state:<24} {s.words}{later}")


def _browse(args: argparse.Namespace) -> int:
    from pate.v1 import lobby_pb2 as pb

    req = pb.BrowseRequest(
        scenario=args.scenario,
        combat_rules=args.rules,
        naval_rules=args.naval_rules,
        max_turn_hours=args.max_turn_hours,
        free_seats=args.free,
        page_token=args.page,
    )
    reply = _rpc(args, "Browse", req)
    for x in reply.listings:
        _print_listing(x, seats=False)
    if not reply.listings:
        print("no campaign in the lobby matches")
    if reply.next_page_token:
        print(f"more: pate lobby browse --page {reply.next_page_token}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from pate.v1 import lobby_pb2 as pb

    _print_listing(_rpc(args, "GetListing", pb.LobbyCampaignRequest(campaign_id=args.campaign)), seats=True)
    return 0


def _seat_req(args: argparse.Namespace) -> Any:
    from pate.v1 import lobby_pb2 as pb

    return pb.LobbySeatRequest(campaign_id=args.campaign, player_id=args.player)


def _take(args: argparse.Namespace) -> int:
    took = _rpc(args, "TakeSeat", _seat_req(args), account=True)
    when = f" from turn {took.plays_from}" if took.plays_from else ""
    play = f"pate account play --campaign {took.campaign_id} --player {took.player_id}"
    print(f"{took.player_id} in {took.campaign_id} is yours{when}: {play}")
    if took.started:
        print("your seat filled the campaign: it has started")
    return 0


def _ask(args: argparse.Namespace) -> int:
    asked = _rpc(args, "AskSeat", _seat_req(args), account=True)
    print(f"asked for {asked.player_id} in {asked.campaign_id}: the game master answers ({asked.ask_id})")
    return 0


def _leave(args: argparse.Namespace) -> int:
    _rpc(args, "LeaveSeat", _seat_req(args), account=True)
    print(f"you gave {args.player} in {args.campaign} up")
    return 0


def _replace(args: argparse.Namespace) -> int:
    _print_listing(_rpc(args, "OpenReplacementSeat", _seat_req(args), gm=True), seats=True)
    return 0


def _record(args: argparse.Namespace) -> int:
    from pate.v1 import lobby_pb2 as pb

    r = _rpc(args, "GetReliability", pb.GetReliabilityRequest(), account=True)
    print(
        f"{r.display_name}: {r.percent}% reliable; {r.turns_sent} of {r.turns_due} turns sent, "
        f"{r.deadlines_missed} deadlines missed, {r.campaigns_finished} campaigns finished, "
        f"{r.campaigns_left} left"
    )
    return 0


def _solo(args: argparse.Namespace) -> int:
    from pate.v1 import lobby_pb2 as pb

    req = pb.StartSoloRequest(
        campaign_id=args.campaign,
        scenario=args.scenario,
        seat=args.seat,
        combat_rules=args.rules,
        naval_rules=args.naval_rules,
    )
    made = _rpc(args, "StartSolo", req, account=True)
    play = f"pate account play --campaign {made.campaign_id} --player {made.player_id}"
    print(f"solo game {made.campaign_id}: you play {made.player_id}: {play}")
    return 0


def _publish(args: argparse.Namespace) -> int:
    from pate.v1 import lobby_pb2 as pb

    req = pb.PublishRequest(
        campaign_id=args.campaign,
        description=args.description,
        time_zone=args.time_zone,
        seat_policy=args.policy,
        min_reliability=args.min_reliability,
        start=args.start,
        seats=args.seat,
    )
    _print_listing(_rpc(args, "Publish", req, gm=True), seats=True)
    return 0


def _start(args: argparse.Namespace) -> int:
    from pate.v1 import lobby_pb2 as pb

    _print_listing(
        _rpc(args, "StartCampaign", pb.LobbyCampaignRequest(campaign_id=args.campaign), gm=True), seats=False
    )
    return 0


def _requests(args: argparse.Namespace) -> int:
    from pate.v1 import lobby_pb2 as pb

    reply = _rpc(args, "ListRequests", pb.LobbyCampaignRequest(campaign_id=args.campaign), gm=True)
    for a in reply.asks:
        r = a.reliability
        print(
            f"{a.ask_id}  {a.state:<9} {a.player_id:<16} {a.display_name}: {r.percent}% "
            f"({r.deadlines_missed} missed of {r.turns_due}, {r.campaigns_left} left)"
        )
    if not reply.asks:
        print("no asks")
    return 0


def _decide(args: argparse.Namespace, method: str) -> int:
    from pate.v1 import lobby_pb2 as pb

    a = _rpc(args, method, pb.DecideRequest(campaign_id=args.campaign, ask_id=args.ask_id), gm=True)
    print(f"{a.display_name}'s ask for {a.player_id}: {a.state}")
    return 0


def _approve(args: argparse.Namespace) -> int:
    return _decide(args, "Approve")


def _refuse(args: argparse.Namespace) -> int:
    return _decide(args, "Refuse")
