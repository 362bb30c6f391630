"""``pate absence declare|cancel|show|allowance`` and ``pate standing set|show|clear``: a
player's absence and his standing instructions to the bot admiral (docs/bots.md "Absence",
docs/formats/standing.md), through the Absences service of a running server.

They use the session of ``pate login`` (pate/cli/login.py); ``allowance`` is the game master's
and takes the administrator token."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pate.cli import numbers
from pate.cli.main import UserError

ALLOWANCE = numbers.whole(0, 15, "turns")


def _player_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", default=None, help="which logged-in player, when several (PATE_PLAYER)")
    p.add_argument("--campaign", required=True, help="a campaign you logged in to (pate login)")
    p.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("absence", help="declare turns away: the bot admiral plays your seat")
    a = p.add_subparsers(dest="absence_command", required=True)
    d = a.add_parser("declare", help="the bot plays turns FROM to TO (both included)")
    _player_args(d)
    d.add_argument("from_turn", type=numbers.TURN)
    d.add_argument("to_turn", type=numbers.TURN)
    c = a.add_parser("cancel", help="end the absence from turn FROM now, or after turn --to")
    _player_args(c)
    c.add_argument("from_turn", type=numbers.TURN)
    c.add_argument("--to", dest="to_turn", type=numbers.TURN, default=0, help="its new last turn")
    s = a.add_parser("show", help="your absences and what is left of the allowance")
    _player_args(s)
    g = a.add_parser("allowance", help="game master: absent turns each player may declare (0 to 15)")
    g.add_argument("--server", default=None)
    g.add_argument("--admin-token", default=None)
    g.add_argument("campaign")
    g.add_argument("turns", type=ALLOWANCE)
    for q in (d, c, s, g):
        q.set_defaults(handler=_absence)

    p = sub.add_parser("standing", help="your standing instructions to the bot admiral")
    t = p.add_subparsers(dest="standing_command", required=True)
    w = t.add_parser("set", help="set them from a file (docs/formats/standing.md), - for standard input")
    _player_args(w)
    w.add_argument("file", type=Path)
    for name, helptext in (("show", "print them"), ("clear", "remove them")):
        q = t.add_parser(name, help=helptext)
        _player_args(q)
    for q in t.choices.values():
        q.set_defaults(handler=_standing)


def _channel(args: argparse.Namespace) -> Any:
    from pate.cli.client import orders_channel

    return orders_channel(args.server)


def _absence(args: argparse.Namespace) -> int:
    from pate.cli.client import admin_metadata, call, player_metadata
    from pate.v1 import absence_pb2 as pb
    from pate.v1 import absence_pb2_grpc

    cmd = args.absence_command
    md = (
        admin_metadata(args.admin_token)
        if cmd == "allowance"
        else player_metadata(args.campaign, args.player)
    )
    with _channel(args) as ch:
        stub = absence_pb2_grpc.AbsencesStub(ch)
        if cmd == "allowance":
            req = pb.SetAbsenceAllowanceRequest(campaign_id=args.campaign, allowance=args.turns)
            got = call(stub.SetAbsenceAllowance, req, md)
            print(f"{got.campaign_id}: each player may be away {got.allowance} turns")
            return 0
        if cmd == "declare":
            ask = pb.DeclareAbsenceRequest(
                campaign_id=args.campaign, from_turn=args.from_turn, to_turn=args.to_turn
            )
            state = call(stub.DeclareAbsence, ask, md)
        elif cmd == "cancel":
            end = pb.CancelAbsenceRequest(
                campaign_id=args.campaign, from_turn=args.from_turn, to_turn=args.to_turn
            )
            state = call(stub.CancelAbsence, end, md)
        else:
            state = call(stub.GetAbsence, pb.GetAbsenceRequest(campaign_id=args.campaign), md)
    print(describe(state))
    return 0


def describe(state: Any) -> str:
    lines = [f"{state.player_id} in {state.campaign_id}, turn {state.turn} of {state.last_turn}"]
    if state.HasField("deadline"):
        lines.append(f"deadline of turn {state.turn}: {state.deadline.ToDatetime():%Y-%m-%d %H:%M} UTC")
    lines += [f"away: turns {a.from_turn} to {a.to_turn}" for a in state.absences] or ["no absence declared"]
    lines.append(f"allowance: {state.used} of {state.allowance} turns used")
    if state.absent_now:
        lines.append("the bot admiral plays your seat this turn")
    return "\n".join(lines)


def _standing(args: argparse.Namespace) -> int:
    from pate.cli.client import call, player_metadata
    from pate.v1 import absence_pb2 as pb
    from pate.v1 import absence_pb2_grpc

    cmd = args.standing_command
    text = _read(args.file) if cmd == "set" else ""
    md = player_metadata(args.campaign, args.player)
    with _channel(args) as ch:
        stub = absence_pb2_grpc.AbsencesStub(ch)
        if cmd == "show":
            got = call(
                stub.GetStandingInstructions, pb.GetStandingInstructionsRequest(campaign_id=args.campaign), md
            )
            print(
                got.text if got.text else "# no standing instructions",
                end="" if got.text.endswith("\n") else "\n",
            )
            return 0
        req = pb.SetStandingInstructionsRequest(campaign_id=args.campaign, text=text)
        got = call(stub.SetStandingInstructions, req, md)
    print(
        f"{got.instructions} standing instructions kept"
        if got.instructions
        else "standing instructions cleared"
    )
    return 0


def _read(path: Path) -> str:
    try:
        return sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as err:
        raise UserError(f"file: {err.strerror}: {path}") from None
    except UnicodeDecodeError as err:
        raise UserError(f"file: {path} is not UTF-8 text (byte {err.start})") from None
