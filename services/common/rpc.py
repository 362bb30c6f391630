"""Small helpers shared by the gRPC servicers: running database work off the
event loop, reading credentials, and turning errors into statuses."""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from typing import NoReturn, TypeVar

import grpc
from sqlalchemy import Connection, Engine

from services.common.auth import Credentials, credentials, source_of
from services.common.db import reader
from services.common.errors import Code, DeskError

T = TypeVar("T")

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
    """Run ``work`` in one transaction on a worker thread."""

    def run() -> T:
        with engine.begin() as conn:
            return work(conn)

    return await asyncio.to_thread(run)


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


def is_admin(context: grpc.aio.ServicerContext, token: str) -> bool:
    given = metadata(context).get("x-pate-admin-token", "")
    return bool(token) and hmac.compare_digest(given.encode(), token.encode())


async def abort(context: grpc.aio.ServicerContext, err: DeskError) -> NoReturn:
    await context.abort(STATUS[err.code], err.message)
    raise AssertionError("unreachable")  # context.abort raises
