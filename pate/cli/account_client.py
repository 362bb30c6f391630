"""What the ``pate account`` commands share: a password from the environment or a prompt, a call
of pate.v1.Accounts, and the account's token from the token file (pate/cli/tokens.py)."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable
from typing import Any

from pate.cli.main import UserError

ACCOUNT = "@account"  # the token file's campaign of account sessions: no campaign id has '@'


def secret(variable: str, prompt: str) -> str:
    value = os.environ.get(variable, "")
    if value:
        return value
    if not sys.stdin.isatty():
        raise UserError(f"set {variable} or run this in a terminal (a password is never an argument)")
    return getpass.getpass(prompt)


def rpc(args: argparse.Namespace, method: str, request: Any, *, token: str = "") -> Any:
    from pate.cli.client import bearer, call, orders_channel
    from pate.v1 import accounts_pb2_grpc

    with orders_channel(args.server) as ch:
        fn: Callable[..., Any] = getattr(accounts_pb2_grpc.AccountsStub(ch), method)
        return call(fn, request, bearer(token) if token else ())


def token() -> str:
    from pate.cli import tokens

    stored = [s for s in tokens.load() if s.campaign == ACCOUNT and not s.expired()]
    if not stored:
        raise UserError("not logged in to your account: run pate account login --email YOU")
    return stored[-1].token
