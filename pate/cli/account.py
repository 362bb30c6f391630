"""``pate account ...``: an account that spans campaigns (docs/accounts.md).

    pate account signup --name "Horatio" --email nelson@example.org [--time-zone Europe/London]
    pate account verify TOKEN                      the token of the sign-up mail
    pate account login --email nelson@example.org
    pate account seats                             every campaign seat of the account
    pate account claim --campaign demo --player cornwallis   with the seat's generated password
    pate account play --campaign demo --player cornwallis    a seat session for pate orders ...
    pate account sessions | revoke [SESSION_ID]    list, end one or all sessions
    pate account reset --email E | --token TOKEN   ask for a link, or set a new password with it
    pate account password | delete | logout
    pate account token create|list|revoke, update, prune-unverified   (pate/cli/account_tokens.py)

Passwords come from PATE_PASSWORD (a new one from PATE_NEW_PASSWORD) or a prompt without echo,
never from an argument.  The account's token is kept in the token file (pate/cli/tokens.py) as
the session of campaign ``@account``; ``play`` keeps a seat's session as ``pate login`` does.
"""

from __future__ import annotations

import argparse
import hashlib
import os
from datetime import UTC
from typing import Any

from pate.cli.account_client import ACCOUNT
from pate.cli.account_client import rpc as _rpc
from pate.cli.account_client import secret as _secret
from pate.cli.account_client import token as _token
from pate.cli.main import UserError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("account", help="an account across campaigns: sign up, log in, claim seats")
    p.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")
    acts = p.add_subparsers(dest="action", required=True)
    s = acts.add_parser("signup", help="make an account; a link comes by mail")
    s.add_argument("--name", required=True, help="your display name")
    s.add_argument("--email", required=True)
    s.add_argument("--time-zone", default="", help="IANA name, e.g. Europe/Paris")
    s.set_defaults(handler=_signup)
    v = acts.add_parser("verify", help="confirm your address with the token of the mail")
    v.add_argument("token")
    v.set_defaults(handler=_verify)
    lg = acts.add_parser("login", help="log in to the account")
    lg.add_argument("--email", default=None, help="(PATE_EMAIL)")
    lg.set_defaults(handler=_login)
    for name, handler, text in (
        ("seats", _seats, "your seats in every campaign"),
        ("sessions", _sessions, "your live sessions"),
        ("password", _password, "change your password (every session ends)"),
        ("delete", _delete, "delete your account"),
        ("logout", _logout, "end this session"),
    ):
        acts.add_parser(name, help=text).set_defaults(handler=handler)
    r = acts.add_parser("revoke", help="end one session (by id) or every one")
    r.add_argument("session_id", nargs="?", default="")
    r.set_defaults(handler=_revoke)
    for name, handler, text in (
        ("claim", _claim, "take a seat with the password its game master gave you"),
        ("play", _play, "open a seat's session for the player commands"),
    ):
        c = acts.add_parser(name, help=text)
        c.add_argument("--campaign", required=True)
        c.add_argument("--player", required=True)
        c.set_defaults(handler=handler)
    rs = acts.add_parser("reset", help="--email: mail me a link; --token: set a new password")
    group = rs.add_mutually_exclusive_group(required=True)
    group.add_argument("--email")
    group.add_argument("--token")
    rs.set_defaults(handler=_reset)
    from pate.cli import account_tokens

    account_tokens.add_actions(acts)  # token create|list|revoke, update, prune-unverified


def _keep(args: argparse.Namespace, campaign: str, who: str, reply: Any) -> str:
    from pate.cli import tokens
    from pate.cli.client import server_addr

    expires = reply.expires_at.ToDatetime(tzinfo=UTC)
    if campaign == ACCOUNT:
        tokens.forget(ACCOUNT, None)  # one account at a time
    tokens.remember(
        tokens.StoredSession(
            campaign=campaign,
            player=who,
            token=reply.token,
            expires_at=expires.isoformat(),
            server=server_addr(args.server, "PATE_ORDERS_ADDR"),
        )
    )
    return f"{expires:%Y-%m-%d %H:%M} UTC"


def _signup(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    password = _secret("PATE_PASSWORD", "choose a password: ")
    req = pb.SignUpRequest(
        display_name=args.name, email=args.email, password=password, time_zone=args.time_zone
    )
    print(_rpc(args, "SignUp", req).message)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    _rpc(args, "Verify", pb.VerifyRequest(token=args.token.strip()))
    print("address confirmed: pate account login --email YOU")
    return 0


def _login(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    email = args.email or os.environ.get("PATE_EMAIL", "")
    if not email:
        raise UserError("give --email (or PATE_EMAIL)")
    reply = _rpc(
        args, "Login", pb.AccountLoginRequest(email=email, password=_secret("PATE_PASSWORD", "password: "))
    )
    until = _keep(args, ACCOUNT, email.strip().lower(), reply)
    print(f"logged in as {reply.display_name} until {until}")
    return 0


def _seats(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    reply = _rpc(args, "ListSeats", pb.ListSeatsRequest(), token=_token())
    zone = f", {reply.time_zone}" if reply.time_zone else ""
    print(f"{reply.display_name} <{reply.email}>{zone}")
    for s in reply.seats:
        print(f"  {s.campaign_id:<24} {s.player_id:<20} {s.state or '-':<12} {s.status} turn {s.turn}")
    if not reply.seats:
        print("  no seats yet: pate account claim --campaign C --player P")
    return 0


def _claim(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    password = _secret("PATE_PASSWORD", f"the seat password of {args.player} in {args.campaign}: ")
    req = pb.ClaimSeatRequest(campaign_id=args.campaign, player_id=args.player, password=password)
    seat = _rpc(args, "ClaimSeat", req, token=_token()).seat
    print(f"claimed {seat.player_id} in {seat.campaign_id}; its password is spent: play it from your account")
    return 0


def _play(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    req = pb.OpenSeatRequest(campaign_id=args.campaign, player_id=args.player)
    reply = _rpc(args, "OpenSeat", req, token=_token())
    until = _keep(args, args.campaign, args.player, reply)
    print(
        f"playing {args.player} in {args.campaign} until {until}: pate orders ... --campaign {args.campaign}"
    )
    return 0


def _sessions(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    for s in _rpc(args, "ListSessions", pb.ListSessionsRequest(), token=_token()).sessions:
        seat = f"{s.campaign_id}/{s.player_id}" if s.campaign_id else "account"
        expires = s.expires_at.ToDatetime(tzinfo=UTC)
        print(f"{s.session_id}  {seat:<40} until {expires:%Y-%m-%d %H:%M} UTC")
    return 0


def _revoke(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    req = pb.RevokeAccountSessionsRequest(session_id=args.session_id)
    print(f"revoked {_rpc(args, 'RevokeSessions', req, token=_token()).revoked} session(s)")
    return 0


def _reset(args: argparse.Namespace) -> int:
    from pate.v1 import accounts_pb2 as pb

    if args.email:
        print(_rpc(args, "RequestReset", pb.RequestResetRequest(email=args.email)).message)
        return 0
    new = _secret("PATE_NEW_PASSWORD", "new password: ")
    _rpc(args, "ResetPassword", pb.ResetPasswordRequest(token=args.token.strip(), new_password=new))
    print("password set; every session of the account has ended: pate account login")
    return 0


def _password(args: argparse.Namespace) -> int:
    from pate.cli import tokens
    from pate.v1 import accounts_pb2 as pb

    old = _secret("PATE_PASSWORD", "current password: ")
    new = _secret("PATE_NEW_PASSWORD", "new password: ")
    req = pb.ChangePasswordRequest(password=old, new_password=new)
    reply = _rpc(args, "ChangePassword", req, token=_token())
    email = next((s.player for s in tokens.load() if s.campaign == ACCOUNT), "")
    until = _keep(args, ACCOUNT, email, reply)
    print(f"password changed; every other session has ended; this one lasts until {until}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    from pate.cli import tokens
    from pate.v1 import accounts_pb2 as pb

    password = _secret("PATE_PASSWORD", "your password, to delete the account: ")
    _rpc(args, "DeleteAccount", pb.DeleteAccountRequest(password=password), token=_token())
    tokens.forget(ACCOUNT, None)
    print("account deleted; finished campaigns show a former player in your seats")
    return 0


def _logout(args: argparse.Namespace) -> int:
    from pate.cli import tokens
    from pate.v1 import accounts_pb2 as pb

    token = _token()
    own_id = hashlib.sha256(token.encode()).hexdigest()[:16]  # a session's id: its digest's head
    try:
        _rpc(args, "RevokeSessions", pb.RevokeAccountSessionsRequest(session_id=own_id), token=token)
    except UserError as err:
        if not str(err).startswith("UNAUTHENTICATED"):
            raise
        # already expired or revoked on the server: forgetting it is all there is to do
    tokens.forget(ACCOUNT, None)
    print("logged out of your account")
    return 0
