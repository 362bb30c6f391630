"""Small helpers shared by the gRPC servicers: running database work off the
event loop, reading credentials, and turning errors into statuses."""

from __future__ import annotations

import asyncio
import functools
import hmac
import json
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NoReturn, TypeVar

import grpc
from sqlalchemy import Connection, Engine

from pate.core.world.state import Role
from services.platform.bus.outbox import events_added, forget_added
from services.platform.bus.relay import wake_relays
from services.platform.errors import Code, DeskError
from services.platform.security.auth import Authenticator, Credentials, credentials, source_of
from services.platform.security.quoting import bounded
from services.platform.store.db import reader

T = TypeVar("T")

# CPU-heavy work of a request (parsing an order file or a scenario, argon2) runs
# here, off the event loop and bounded: health checks and other calls keep being
# answered while it runs, and a flood of heavy requests queues instead of
# multiplying threads.  PATE_CPU_WORKERS (default 2) sets its size.
_RAW_CPU_WORKERS = os.environ.get("PATE_CPU_WORKERS", "").strip()
CPU_WORKERS = int(_RAW_CPU_WORKERS) if _RAW_CPU_WORKERS.isdecimal() and 0 < int(_RAW_CPU_WORKERS) < 65 else 2
_CPU_POOL = ThreadPoolExecutor(max_workers=CPU_WORKERS, thread_name_prefix="pate-cpu")


async def run_cpu(work: Callable[[], T]) -> T:
    """Run CPU-bound ``work`` in the bounded pool."""
    return await asyncio.get_running_loop().run_in_executor(_CPU_POOL, work)


STATUS = {
    Code.INVALID_ARGUMENT: grpc.StatusCode.INVALID_ARGUMENT,
    Code.NOT_FOUND: grpc.StatusCode.NOT_FOUND,
    Code.ALREADY_EXISTS: grpc.StatusCode.ALREADY_EXISTS,
    Code.FAILED_PRECONDITION: grpc.StatusCode.FAILED_PRECONDITION,
    Code.PERMISSION_DENIED: grpc.StatusCode.PERMISSION_DENIED,
    Code.UNAUTHENTICATED: grpc.StatusCode.UNAUTHENTICATED,
    Code.RESOURCE_EXHAUSTED: grpc.StatusCode.RESOURCE_EXHAUSTED,
}


async def in_transaction(engine: Engine, work: Callable[[Connection], T]) -> T:
    """Run ``work`` in one transaction on a worker thread.  Events it queued in the outbox
    (a turn closed) wake the process's relay once committed, so they leave at once rather
    than at its next poll."""

    def run() -> tuple[T, bool]:
        with engine.begin() as conn:
            forget_added(conn)
            out = work(conn)
            added = events_added(conn)
        return out, added

    out, added = await asyncio.to_thread(run)
    if added:
        wake_relays()
    return out


async def in_reader(engine: Engine, work: Callable[[Connection], T]) -> T:
    """Run read-only ``work`` on a worker thread (SQLite: without the write lock)."""

    def run() -> T:
        with reader(engine) as conn:
            return work(conn)

    return await asyncio.to_thread(run)


def metadata(context: grpc.aio.ServicerContext) -> dict[str, str]:
    return {k: v for k, v in (context.invocation_metadata() or ()) if isinstance(v, str)}


def call_credentials(context: grpc.aio.ServicerContext, trusted_proxies: frozenset[str]) -> Credentials:
    """The session token or password of a call, and the address it came from."""
    md = metadata(context)
    return credentials(md, source_of(context.peer() or "", md, trusted_proxies))


async def caller_row(
    auth: Authenticator,
    context: grpc.aio.ServicerContext,
    campaign: str,
    trusted_proxies: frozenset[str],
    *,
    read_only_ok: bool = False,
) -> Any:
    """The player row behind a call's session token (or password), off the event loop;
    DeskError when there is none (UNAUTHENTICATED, NOT_FOUND, RESOURCE_EXHAUSTED), or when the
    session is read-only and the call is not a read of reports (PERMISSION_DENIED)."""
    creds = call_credentials(context, trusted_proxies)
    return await asyncio.to_thread(functools.partial(auth.caller, campaign, creds, read_only_ok=read_only_ok))


def is_admin(context: grpc.aio.ServicerContext, token: str) -> bool:
    given = metadata(context).get("x-pate-admin-token", "")
    return bool(token) and hmac.compare_digest(given.encode(), token.encode())


def carries_session(context: grpc.aio.ServicerContext, token: str) -> bool:
    """The call's own bearer token is ``token`` (a session the request names, which the call's
    work then checks): a player asks for himself, with no administrator behind him."""
    given = metadata(context).get("authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


NOT_ADMIN = "administrator token missing or wrong (or not the session of this campaign's game master)"


async def game_master_session(
    context: grpc.aio.ServicerContext,
    auth: Authenticator,
    campaign: str,
    trusted_proxies: frozenset[str] = frozenset(),
) -> bool:
    """Whether the call carries the session of ``campaign``'s game master (a player with the
    ``admin`` role there): his own pages act for his campaign with it, so the web desk need
    not hold the server's administrator token.  False when no session token was sent, and for
    a token that is no live session of ``campaign`` (an account's, a spent one, another
    campaign's): the caller is then refused as anyone without the right is, PERMISSION_DENIED."""
    try:
        creds = call_credentials(context, trusted_proxies)  # a malformed header is no session either
        if not creds.token:
            return False
        row = await asyncio.to_thread(auth.caller, campaign, creds)
    except DeskError:
        return False
    return Role.ADMIN.value in json.loads(row.roles_json)  # the campaign's game master


async def require_game_master(
    context: grpc.aio.ServicerContext,
    admin_token: str,
    auth: Authenticator,
    campaign: str,
    trusted_proxies: frozenset[str] = frozenset(),
) -> None:
    """The server's administrator token, or the session of ``campaign``'s game master;
    PERMISSION_DENIED otherwise.  The token is compared first: no lookup for the administrator."""
    if is_admin(context, admin_token):
        return
    if not await game_master_session(context, auth, campaign, trusted_proxies):
        await abort(context, DeskError(Code.PERMISSION_DENIED, NOT_ADMIN))


ADMIRAL_TOKEN_KEY = "x-pate-admiral-token"


def is_admiral(context: grpc.aio.ServicerContext, admin_token: str, admiral_token: str) -> bool:
    """The bot admiral's calls: its own narrower token, or the administrator's (which holds
    every right, the admiral's included)."""
    given = metadata(context).get(ADMIRAL_TOKEN_KEY, "")
    if admiral_token and hmac.compare_digest(given.encode(), admiral_token.encode()):
        return True
    return is_admin(context, admin_token)


async def abort(context: grpc.aio.ServicerContext, err: DeskError) -> NoReturn:
    await context.abort(STATUS[err.code], bounded(err.message))
    raise AssertionError("unreachable")  # context.abort raises
