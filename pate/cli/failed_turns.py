"""``pate campaign failed|retry|reopen|resolve-defaults``: what the game master does with a
turn that could not be resolved (docs/operations.md, "A failed turn").  ``retry`` is the one
retry of a turn: the service looks at the turn and publishes again a failed turn's message,
or the event a waiting turn never received (docs/operations.md, "Stuck turns")."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime

from pate.cli import numbers
from pate.cli.main import UserError

COMMANDS = (
    ("failed", "list the campaigns whose turn failed, with the stage and the reason"),
    (
        "retry",
        "send a turn on again: a failed turn's message (after a fix is deployed), or the event"
        " a turn that has not failed waits for (`pate turn stuck`)",
    ),
    ("reopen", "open the failed turn again so that players change their orders"),
    ("resolve-defaults", "resolve the failed turn with one player's orders replaced by the defaults (4.11)"),
)


def add_parsers(cs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, helptext in COMMANDS:
        c = cs.add_parser(name, help=helptext, description=helptext)
        c.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")
        c.add_argument("--admin-token", default=None)
        if name != "failed":
            c.add_argument("campaign")
            turn_help = (
                "the turn to retry (the campaign's current one)" if name == "retry" else "the failed turn"
            )
            c.add_argument("--turn", type=numbers.TURN, required=True, help=turn_help)
        if name == "reopen":
            c.add_argument("--deadline", default=None, help="ISO 8601 deadline of the reopened turn (UTC)")
        if name == "resolve-defaults":
            c.add_argument("--player", required=True, help="the player whose orders are replaced")
        c.set_defaults(handler=_run, failed_command=name)


def _run(args: argparse.Namespace) -> int:
    from google.protobuf.json_format import MessageToDict

    from pate.cli.client import admin_metadata, call, orders_channel
    from pate.v1 import admin_pb2, admin_pb2_grpc

    md = admin_metadata(args.admin_token)
    with orders_channel(args.server) as ch:
        stub = admin_pb2_grpc.CampaignAdminStub(ch)
        if args.failed_command == "failed":
            for c in call(stub.ListFailedTurns, admin_pb2.ListFailedTurnsRequest(), md).campaigns:
                print(json.dumps(MessageToDict(c), sort_keys=True))
            return 0
        if args.failed_command == "retry":
            retry = admin_pb2.RetryTurnRequest(campaign_id=args.campaign, turn=args.turn)
            reply = call(stub.RetryTurn, retry, md)
        elif args.failed_command == "reopen":
            req = admin_pb2.ReopenTurnRequest(campaign_id=args.campaign, turn=args.turn)
            if args.deadline:
                req.deadline.FromDatetime(_deadline(args.deadline))
            reply = call(stub.ReopenTurn, req, md)
        else:
            req_d = admin_pb2.ResolveWithDefaultsRequest(
                campaign_id=args.campaign, turn=args.turn, player_id=args.player
            )
            reply = call(stub.ResolveWithDefaults, req_d, md)
    print(json.dumps(MessageToDict(reply), sort_keys=True))
    return 0


def _deadline(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise UserError(f"--deadline: {text[:40]!r} is not an ISO 8601 date and time") from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
