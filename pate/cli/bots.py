"""``pate campaign bots|hand-to-bot|take-back|civil-disorder``: the game
master's bot admirals on a running server (docs/bots.md)."""

from __future__ import annotations

import argparse
import json

from pate.cli import numbers


def add_parsers(cs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, helptext in (
        ("bots", "show a campaign's civil disorder rule, bot seats and missed deadlines"),
        ("hand-to-bot", "have the bot admiral play a player until taken back"),
        ("take-back", "take a player back from the bot admiral"),
        ("civil-disorder", "the bot plays a player after this many missed deadlines in a row (0: never)"),
    ):
        c = cs.add_parser(name, help=helptext)
        c.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")
        c.add_argument("--admin-token", default=None)
        c.add_argument("campaign")
        if name in ("hand-to-bot", "take-back"):
            c.add_argument("player")
        if name == "civil-disorder":
            c.add_argument(
                "after", type=numbers.whole(0, 15, "deadlines"), help="deadlines missed in a row, 0 to 15"
            )
        c.set_defaults(handler=_run, bots_command=name)


def _run(args: argparse.Namespace) -> int:
    from google.protobuf.json_format import MessageToDict

    from pate.cli.client import admin_metadata, call, orders_channel
    from pate.v1 import bots_pb2, bots_pb2_grpc

    md = admin_metadata(args.admin_token)
    with orders_channel(args.server) as ch:
        stub = bots_pb2_grpc.BotAdmiralsStub(ch)
        cmd = args.bots_command
        if cmd == "bots":
            got = call(stub.GetBotSeats, bots_pb2.GetBotSeatsRequest(campaign_id=args.campaign), md)
        elif cmd == "civil-disorder":
            req = bots_pb2.SetCivilDisorderRequest(campaign_id=args.campaign, after_missed=args.after)
            got = call(stub.SetCivilDisorder, req, md)
        else:
            seat = bots_pb2.BotSeatRequest(campaign_id=args.campaign, player_id=args.player)
            got = call(stub.HandToBot if cmd == "hand-to-bot" else stub.TakeBack, seat, md)
    print(json.dumps(MessageToDict(got), sort_keys=True))
    return 0
