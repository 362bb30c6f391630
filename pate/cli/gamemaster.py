"""``pate campaign pause|resume|deadline|password|revoke``: what the game master does on the
web pages, from the command line (the same RPCs, with PATE_ADMIN_TOKEN)."""

from __future__ import annotations

import argparse
import getpass
import sys
from datetime import UTC, datetime

from pate.cli import numbers
from pate.cli.main import UserError


def add_commands(cs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    helps = {
        "pause": "pause the open turn's deadline",
        "resume": "resume a paused campaign (the time that was left runs again)",
        "deadline": "set the open turn's deadline",
        "password": "set a player's password (ends the player's sessions)",
        "revoke": "end every session of a player",
    }
    for name, helptext in helps.items():
        c = cs.add_parser(name, help=helptext)
        c.add_argument("campaign")
        c.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")
        c.add_argument("--admin-token", default=None)
        if name == "deadline":
            c.add_argument("--turn", type=numbers.TURN, required=True, help="the open turn")
            c.add_argument("at", help="ISO 8601 time, e.g. 2026-12-24T18:00:00Z")
        if name in ("password", "revoke"):
            c.add_argument("player")
        if name == "password":
            c.add_argument("--stdin", action="store_true", help="read the password from standard input")
        c.set_defaults(handler=_run, gm_command=name)


def parse_deadline(text: str) -> datetime:
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UserError(f"deadline: {text[:40]!r} is not an ISO 8601 time (2026-12-24T18:00:00Z)") from None
    if at.tzinfo is None:
        raise UserError("deadline: give the time zone (Z for UTC, or +01:00)")
    return at.astimezone(UTC)


def _password(args: argparse.Namespace) -> str:
    secret = sys.stdin.readline().rstrip("\n") if args.stdin else getpass.getpass("new password: ")
    if not secret:
        raise UserError("password: empty")
    return secret


def _run(args: argparse.Namespace) -> int:
    from google.protobuf.timestamp_pb2 import Timestamp

    from pate.cli.client import admin_metadata, call, orders_channel
    from pate.v1 import admin_pb2, admin_pb2_grpc, desk_pb2, desk_pb2_grpc, sessions_pb2, sessions_pb2_grpc

    md = admin_metadata(args.admin_token)
    cmd, campaign = args.gm_command, args.campaign
    with orders_channel(args.server) as ch:
        if cmd in ("pause", "resume"):
            gm = desk_pb2_grpc.GameMasterStub(ch)
            rpc = gm.PauseCampaign if cmd == "pause" else gm.ResumeCampaign
            state = call(rpc, desk_pb2.PauseRequest(campaign_id=campaign), md)
            left = f", {state.remaining_seconds} s of the deadline left" if state.remaining_seconds else ""
            print(f"{campaign}: {'paused' if state.paused else 'running'}{left}")
        elif cmd == "deadline":
            stamp = Timestamp()
            stamp.FromDatetime(parse_deadline(args.at))
            req = admin_pb2.SetDeadlineRequest(campaign_id=campaign, turn=args.turn, deadline=stamp)
            c = call(admin_pb2_grpc.CampaignAdminStub(ch).SetDeadline, req, md)
            print(
                f"{campaign}: turn {args.turn} closes at {c.deadline.ToDatetime(UTC):%Y-%m-%d %H:%M:%S} UTC"
            )
        elif cmd == "password":
            req_p = admin_pb2.SetPlayerPasswordRequest(
                campaign_id=campaign, player_id=args.player, password=_password(args)
            )
            call(admin_pb2_grpc.CampaignAdminStub(ch).SetPlayerPassword, req_p, md)
            print(f"{campaign}: password of {args.player} set; the player's sessions are ended")
        else:
            req_r = sessions_pb2.RevokeSessionsRequest(campaign_id=campaign, player_id=args.player)
            done = call(sessions_pb2_grpc.SessionsStub(ch).RevokeSessions, req_r, md)
            print(f"{campaign}: {done.revoked} session(s) of {args.player} ended")
    return 0
