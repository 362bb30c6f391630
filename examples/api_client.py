"""Play a seat of yours with an API token (docs/api.md): the smallest program that does what the
web desk does, through the same gRPC API.

    PATE_API_TOKEN=pate_at_... python examples/api_client.py --orders-addr HOST:PORT \\
        --reports-addr HOST:PORT --campaign demo --player cornwallis \\
        [--orders examples/orders/cornwallis-channel.txt] [--confirm] [--wait SECONDS] [--ca ca.pem]

It opens a seat session with the token (Accounts.OpenSeat), reads the open turn
(PlayerDesk.GetMyCampaign) and the latest report (Reports), sends the orders file if given
(OrderDesk.SubmitOrders, under one request id: a retry is answered as the first time),
confirms them if asked, and with --wait polls until the next turn opens.  Exit 0 when all
went through; a refusal prints the server's words and exits 1.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid

import grpc

from pate.v1 import (
    accounts_pb2,
    accounts_pb2_grpc,
    desk_pb2,
    desk_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
    reports_pb2,
    reports_pb2_grpc,
)


def channel(addr: str, ca: str | None) -> grpc.Channel:
    if not ca:
        return grpc.insecure_channel(addr)
    with open(ca, "rb") as f:
        return grpc.secure_channel(addr, grpc.ssl_channel_credentials(f.read()))


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def play(args: argparse.Namespace, api_token: str) -> None:
    orders = channel(args.orders_addr, args.ca)
    reports = channel(args.reports_addr, args.ca)
    req = accounts_pb2.OpenSeatRequest(campaign_id=args.campaign, player_id=args.player)
    seat = accounts_pb2_grpc.AccountsStub(orders).OpenSeat(req, metadata=bearer(api_token), timeout=30)
    md, cid = bearer(seat.token), args.campaign  # the seat session: what every later call carries
    rep = reports_pb2_grpc.ReportsStub(reports)
    listed = rep.ListReports(reports_pb2.ListReportsRequest(campaign_id=cid), metadata=md, timeout=30)
    if listed.reports:
        latest = max(r.turn for r in listed.reports)
        req_r = reports_pb2.GetReportRequest(campaign_id=cid, turn=latest, format="text")
        body = rep.GetReport(req_r, metadata=md, timeout=30).body
        print(f"report of turn {latest}: {len(body.splitlines())} lines")
    if not (args.orders or args.confirm or args.wait):
        return  # a read-only token stops here: the order desk refuses its session
    desk = desk_pb2_grpc.PlayerDeskStub(orders)
    mine = desk.GetMyCampaign(desk_pb2.GetMyCampaignRequest(campaign_id=cid), metadata=md, timeout=30)
    turn = mine.campaign.turn
    print(f"{args.player} ({mine.state}) in {cid}: turn {turn}, {len(mine.ships)} ships to order")
    if args.orders:
        with open(args.orders, encoding="utf-8") as f:
            text = f.read()
        sent = orders_pb2.SubmitOrdersRequest(
            campaign_id=cid, turn=turn, client_request_id=str(uuid.uuid4()), orders_text=text
        )
        out = orders_pb2_grpc.OrderDeskStub(orders).SubmitOrders(sent, metadata=md, timeout=30)
        print(f"orders accepted: {out.accepted} ({', '.join(out.ship_ids)})")
    if args.confirm:
        done = desk.ConfirmOrders(
            desk_pb2.ConfirmOrdersRequest(campaign_id=cid, turn=turn, confirmed=True), metadata=md
        )
        print("confirmed" + (": the turn closed" if done.turn_closed else ""))
    until = time.monotonic() + args.wait
    while args.wait and time.monotonic() < until:  # a turn opens at its deadline: poll gently
        now = desk.GetMyCampaign(desk_pb2.GetMyCampaignRequest(campaign_id=cid), metadata=md, timeout=30)
        if now.campaign.turn > turn:
            print(f"turn {now.campaign.turn} is open")
            return
        time.sleep(min(60.0, args.wait / 10))
    if args.wait:
        print("no new turn yet")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--orders-addr", required=True)
    p.add_argument("--reports-addr", required=True)
    p.add_argument("--campaign", required=True)
    p.add_argument("--player", required=True)
    p.add_argument("--orders", help="an order file (docs/formats/orders.md)")
    p.add_argument("--confirm", action="store_true", help="confirm the turn's orders")
    p.add_argument("--wait", type=float, default=0.0, help="seconds to wait for the next turn")
    p.add_argument("--ca", help="the server's CA certificate (TLS); none: plaintext")
    args = p.parse_args(argv)
    token = os.environ.get("PATE_API_TOKEN", "")
    if not token:
        print("set PATE_API_TOKEN (pate account token create ...)", file=sys.stderr)
        return 2
    try:
        play(args, token)
    except grpc.RpcError as err:
        print(f"refused: {err.code().name}: {err.details()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
