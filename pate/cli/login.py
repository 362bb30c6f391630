"""``pate login`` and ``pate logout``: open and close a player's session.

    pate login --campaign demo --player cornwallis     prompts for the password
    PATE_PASSWORD=... pate login --campaign demo --player cornwallis
    pate logout --campaign demo [--player P] [--all]

The password is read from PATE_PASSWORD or asked for without echo; it is
never an argument (arguments are visible to every user of the machine).
The token is kept in the token file (pate/cli/tokens.py) until it expires.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from datetime import UTC

from pate.cli.main import UserError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("login", help="log in to a campaign once; later commands use the session")
    p.add_argument("--campaign", required=True)
    p.add_argument("--player", default=None, help="your player id (PATE_PLAYER)")
    p.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")
    p.set_defaults(handler=_login)
    o = sub.add_parser("logout", help="end your session (--all: every session of yours)")
    o.add_argument("--campaign", required=True)
    o.add_argument("--player", default=None)
    o.add_argument("--all", action="store_true", help="end every session of the player, everywhere")
    o.add_argument("--server", default=None)
    o.set_defaults(handler=_logout)


def read_password(prompt: str) -> str:
    password = os.environ.get("PATE_PASSWORD", "")
    if password:
        return password
    if not sys.stdin.isatty():
        raise UserError(
            "set PATE_PASSWORD or run pate login in a terminal (the password is never an argument)"
        )
    return getpass.getpass(prompt)


def _login(args: argparse.Namespace) -> int:
    from pate.cli import tokens
    from pate.cli.client import call, orders_channel, server_addr
    from pate.v1 import sessions_pb2, sessions_pb2_grpc

    player = args.player or os.environ.get("PATE_PLAYER", "")
    if not player:
        raise UserError("give --player (or PATE_PLAYER)")
    password = read_password(f"password of {player} in {args.campaign}: ")
    req = sessions_pb2.LoginRequest(campaign_id=args.campaign, player_id=player, password=password)
    with orders_channel(args.server) as ch:
        reply = call(sessions_pb2_grpc.SessionsStub(ch).Login, req, ())
    expires = reply.expires_at.ToDatetime(tzinfo=UTC)
    path = tokens.remember(
        tokens.StoredSession(
            campaign=reply.campaign_id,
            player=reply.player_id,
            token=reply.token,
            expires_at=expires.isoformat(),
            server=server_addr(args.server, "PATE_ORDERS_ADDR"),
        )
    )
    print(
        f"logged in as {reply.player_id} in {reply.campaign_id} until {expires:%Y-%m-%d %H:%M} UTC ({path})"
    )
    return 0


def _logout(args: argparse.Namespace) -> int:
    from pate.cli import tokens
    from pate.cli.client import bearer, call, orders_channel
    from pate.v1 import sessions_pb2, sessions_pb2_grpc

    stored = tokens.find(args.campaign, args.player)
    with orders_channel(args.server or stored.server or None) as ch:
        try:
            call(
                sessions_pb2_grpc.SessionsStub(ch).Logout,
                sessions_pb2.LogoutRequest(all=args.all),
                bearer(stored.token),
            )
        except UserError as err:
            if not str(err).startswith("UNAUTHENTICATED"):
                raise
            # already expired or revoked on the server: forgetting it is all there is to do
    tokens.forget(stored.campaign, stored.player)
    print(f"logged out: {stored.player} in {stored.campaign}")
    return 0
