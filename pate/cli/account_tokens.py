"""``pate account token ...``, ``pate account update`` and ``pate account prune-unverified``
(docs/api.md, docs/accounts.md).

    pate account token create --name bot [--orders] [--all-seats | --seat C/P ...] [--days 90]
    pate account token list
    pate account token revoke [TOKEN_ID]        one token, or every one
    pate account update [--name N] [--time-zone Z | --utc] [--email E]   E: PATE_PASSWORD too
    pate account prune-unverified [--days 7] [--database URL]   operator: on the database

A new token is printed once, on standard output alone (so ``> file`` keeps it and nothing else).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

from pate.cli.main import UserError


def add_actions(acts: Any) -> None:
    t = acts.add_parser("token", help="API tokens for your own programs (docs/api.md)")
    ta = t.add_subparsers(dest="token_action", required=True)
    c = ta.add_parser("create", help="make a token; it is printed once")
    c.add_argument("--name", required=True)
    c.add_argument("--orders", action="store_true", help="orders too (default: reports only)")
    c.add_argument("--all-seats", action="store_true", help="every seat of yours")
    c.add_argument("--seat", action="append", default=[], help="CAMPAIGN/PLAYER (repeat)")
    c.add_argument("--days", type=int, default=90, help="1 to 365 (default 90)")
    c.set_defaults(handler=_create)
    ta.add_parser("list", help="your live tokens (never their secrets)").set_defaults(handler=_list)
    r = ta.add_parser("revoke", help="revoke one token by id, or every one")
    r.add_argument("token_id", nargs="?", default="")
    r.set_defaults(handler=_revoke)
    u = acts.add_parser("update", help="change your name, time zone or address")
    u.add_argument("--name", default="")
    zone = u.add_mutually_exclusive_group()
    zone.add_argument("--time-zone", default="", help="IANA name, e.g. Europe/Paris")
    zone.add_argument("--utc", action="store_true", help="no time zone: deadlines in UTC")
    u.add_argument("--email", default="", help="a new address (PATE_PASSWORD needed; a link is mailed)")
    u.set_defaults(handler=_update)
    p = acts.add_parser("prune-unverified", help="operator: delete accounts never verified")
    p.add_argument("--days", type=int, default=7, help="older than this many days (default 7)")
    p.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    p.set_defaults(handler=_prune)


def _seats(given: list[str]) -> list[Any]:
    from pate.v1 import accounts_pb2 as pb

    out = []
    for s in given:
        campaign, sep, player = s.partition("/")
        if not (sep and campaign and player):
            raise UserError(f"--seat {s!r}: CAMPAIGN/PLAYER")
        out.append(pb.ApiTokenSeat(campaign_id=campaign, player_id=player))
    return out


def _create(args: argparse.Namespace) -> int:
    from pate.cli.account_client import rpc as _rpc
    from pate.cli.account_client import token as _token
    from pate.v1 import accounts_pb2 as pb

    req = pb.CreateApiTokenRequest(
        name=args.name,
        read_only=not args.orders,
        all_seats=args.all_seats,
        seats=_seats(args.seat),
        expires_in_days=args.days,
    )
    out = _rpc(args, "CreateApiToken", req, token=_token())
    print(out.token)
    until = out.info.expires_at.ToDatetime(tzinfo=UTC)
    print(
        f"{out.info.prefix} ({out.info.name}) until {until:%Y-%m-%d %H:%M} UTC: shown this once",
        file=sys.stderr,
    )
    return 0


def _list(args: argparse.Namespace) -> int:
    from pate.cli.account_client import rpc as _rpc
    from pate.cli.account_client import token as _token
    from pate.v1 import accounts_pb2 as pb

    for t in _rpc(args, "ListApiTokens", pb.ListApiTokensRequest(), token=_token()).tokens:
        seats = "all seats" if t.all_seats else ", ".join(f"{s.campaign_id}/{s.player_id}" for s in t.seats)
        access = "reports" if t.read_only else "orders"
        until = t.expires_at.ToDatetime(tzinfo=UTC)
        used = (
            f"{t.last_used_at.ToDatetime(tzinfo=UTC):%Y-%m-%d %H:%M}"
            if t.HasField("last_used_at")
            else "never"
        )
        print(f"{t.token_id}  {t.name:<20} {access:<8} until {until:%Y-%m-%d} used {used}  {seats}")
    return 0


def _revoke(args: argparse.Namespace) -> int:
    from pate.cli.account_client import rpc as _rpc
    from pate.cli.account_client import token as _token
    from pate.v1 import accounts_pb2 as pb

    out = _rpc(args, "RevokeApiToken", pb.RevokeApiTokenRequest(token_id=args.token_id), token=_token())
    print(f"revoked {out.revoked} API token(s)")
    return 0


def _update(args: argparse.Namespace) -> int:
    from pate.cli.account_client import rpc as _rpc
    from pate.cli.account_client import secret as _secret
    from pate.cli.account_client import token as _token
    from pate.v1 import accounts_pb2 as pb

    password = _secret("PATE_PASSWORD", "your password: ") if args.email else ""
    req = pb.UpdateAccountRequest(
        display_name=args.name,
        time_zone=args.time_zone,
        clear_time_zone=args.utc,
        email=args.email,
        password=password,
    )
    out = _rpc(args, "UpdateAccount", req, token=_token())
    print(f"{out.display_name} <{out.email}>, {out.time_zone or 'UTC'}")
    if out.email_pending:
        print("a link went to the new address: the change happens once you follow it (pate account verify)")
    return 0


def _prune(args: argparse.Namespace) -> int:
    from pate.cli.turn import _open
    from services.platform.security.account_edits import prune_unverified

    if not 1 <= args.days <= 3650:
        raise UserError("--days: 1 to 3650")
    engine = _open(args.database)
    n = prune_unverified(engine, now=datetime.now(UTC), days=args.days)
    print(f"deleted {n} account(s) never verified within {args.days} days of signing up")
    return 0
