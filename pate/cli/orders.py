"""``pate orders submit|show`` and ``pate reports get``: a player's client.

They use the session of ``pate login`` (pate/cli/login.py); no password here."""

from __future__ import annotations

import argparse
import sys
import uuid
from pathlib import Path

from pate.cli import numbers
from pate.cli.main import UserError


def _player_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", default=None, help="which logged-in player, when several (PATE_PLAYER)")
    p.add_argument("--campaign", required=True, help="a campaign you logged in to (pate login)")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("orders", help="send orders to the Ship Order Desk")
    os_ = p.add_subparsers(dest="orders_command", required=True)
    s = os_.add_parser("submit", help="submit an order file (docs/formats/orders.md)")
    _player_args(s)
    s.add_argument("--turn", type=numbers.TURN, required=True)
    s.add_argument("--file", type=Path, required=True, help="order file, or - for standard input")
    s.add_argument("--request-id", default=None, help="client request id (default: a new one)")
    s.add_argument("--server", default=None)
    s.set_defaults(handler=_submit)
    w = os_.add_parser("show", help="show the orders your ships will carry out this turn")
    _player_args(w)
    w.add_argument("--turn", type=numbers.TURN, default=0)
    w.add_argument("ships", nargs="*")
    w.add_argument("--server", default=None)
    w.set_defaults(handler=_show)

    r = sub.add_parser("reports", help="read your reports")
    rs = r.add_subparsers(dest="reports_command", required=True)
    g = rs.add_parser("get", help="print a report")
    _player_args(g)
    g.add_argument("--turn", type=numbers.TURN, required=True)
    g.add_argument("--of", dest="of_player", default="", help="another player's (naval ministers)")
    g.add_argument("--format", choices=("text", "html", "json"), default="text")
    g.add_argument("--server", default=None)
    g.set_defaults(handler=_report)


def _submit(args: argparse.Namespace) -> int:
    from pate.cli.client import call, orders_channel, player_metadata
    from pate.v1 import orders_pb2, orders_pb2_grpc

    # the file first: a mistake of one's own is said before anything about the session
    try:
        text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
    except OSError as err:
        raise UserError(f"--file: {err.strerror}: {args.file}") from None
    except UnicodeDecodeError as err:
        raise UserError(f"--file: {args.file} is not UTF-8 text (byte {err.start})") from None
    md = player_metadata(args.campaign, args.player)
    req = orders_pb2.SubmitOrdersRequest(
        campaign_id=args.campaign,
        turn=args.turn,
        orders_text=text,
        client_request_id=args.request_id or uuid.uuid4().hex,
    )
    with orders_channel(args.server) as ch:
        resp = call(orders_pb2_grpc.OrderDeskStub(ch).SubmitOrders, req, md)
    note = " (already accepted earlier)" if resp.replayed else ""
    print(f"accepted {resp.accepted} orders{note}: {', '.join(resp.ship_ids)}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from pate.cli.client import call, orders_channel, player_metadata
    from pate.core.orders.text import format_order
    from pate.v1 import orders_pb2, orders_pb2_grpc
    from services.orders.mapping import order_from_pb

    md = player_metadata(args.campaign, args.player)
    req = orders_pb2.GetEffectiveOrdersRequest(campaign_id=args.campaign, turn=args.turn, ship_ids=args.ships)
    with orders_channel(args.server) as ch:
        resp = call(orders_pb2_grpc.OrderDeskStub(ch).GetEffectiveOrders, req, md)
    for e in resp.orders:
        origin = f"copied from {e.copied_from}" if e.copied_from else e.source
        print(f"# {e.order.ship_id}: {origin}")
        print(format_order(order_from_pb(e.order)))
    return 0


def _report(args: argparse.Namespace) -> int:
    from pate.cli.client import call, player_metadata, reports_channel
    from pate.v1 import reports_pb2, reports_pb2_grpc

    md = player_metadata(args.campaign, args.player)
    req = reports_pb2.GetReportRequest(
        campaign_id=args.campaign, turn=args.turn, player_id=args.of_player, format=args.format
    )
    with reports_channel(args.server) as ch:
        resp = call(reports_pb2_grpc.ReportsStub(ch).GetReport, req, md)
    print(resp.body)
    return 0
