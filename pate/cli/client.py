"""gRPC client plumbing for the command line: addresses, credentials, errors."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

import grpc

from pate.cli.main import UserError

T = TypeVar("T")


DEFAULTS = {"PATE_ORDERS_ADDR": "127.0.0.1:50051", "PATE_REPORTS_ADDR": "127.0.0.1:50054"}


def server_addr(addr: str | None, default_var: str) -> str:
    return addr or os.environ.get(default_var, "") or DEFAULTS[default_var]


def channel(addr: str | None, default_var: str) -> grpc.Channel:
    """TLS, verifying the server against PATE_TLS_CA, when that is set (docs/security.md)."""
    from services.platform.config import ConfigError
    from services.platform.security.tls import channel as tls_channel

    try:
        return tls_channel(server_addr(addr, default_var))
    except ConfigError as err:
        raise UserError(str(err)) from None


def orders_channel(addr: str | None = None) -> grpc.Channel:
    return channel(addr, "PATE_ORDERS_ADDR")


def reports_channel(addr: str | None = None) -> grpc.Channel:
    return channel(addr, "PATE_REPORTS_ADDR")


def admin_metadata(token: str | None = None) -> tuple[tuple[str, str], ...]:
    token = token or os.environ.get("PATE_ADMIN_TOKEN", "")
    if not token:
        raise UserError("set PATE_ADMIN_TOKEN (or --admin-token) to act as administrator")
    return (("x-pate-admin-token", token),)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def player_metadata(campaign: str, player: str | None) -> tuple[tuple[str, str], ...]:
    """The session token ``pate login`` stored for the campaign (and player)."""
    from pate.cli import tokens

    return bearer(tokens.find(campaign, player or os.environ.get("PATE_PLAYER") or None).token)


def call(
    fn: Callable[..., T], request: object, metadata: tuple[tuple[str, str], ...], timeout: float = 30
) -> T:
    """One unary call; a gRPC error becomes a one-line user error."""
    try:
        return fn(request, metadata=metadata, timeout=timeout)
    except grpc.RpcError as err:
        code = err.code().name if hasattr(err, "code") else "ERROR"
        details = err.details() if hasattr(err, "details") else str(err)
        raise UserError(f"{code}: {details}") from None
