"""examples/api_client.py (docs/api.md) runs, as a program of its own, against the orders and
reports services served in process over a migrated database: with an orders token it reads
the report and its orders are accepted and stored; with a read-only token it reads and its
orders are refused, nothing stored."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, and_, select

from pate.engine.context import turn_context
from pate.engine.pipeline import all_knowledge
from pate.v1 import accounts_pb2_grpc, desk_pb2_grpc, orders_pb2_grpc, reports_pb2_grpc
from services.notifier import work
from services.orders.account_api import AccountApi
from services.orders.accounts_rpc import AccountsServicer
from services.orders.servicer import OrderDeskServicer, PlayerDeskServicer
from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.store import repository as repo
from services.platform.store import tables
from services.reports.servicer import ReportsServicer
from tests.support.accounts import SEAT_PASSWORD, World, make_world
from tests.support.mailsink import smtp_sink
from tests.support.passwords import open_training_campaign

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[3]
C, ME = "api-example", "cornwallis"


@contextmanager
def served(servicers: list[tuple[Any, Any]], name: str) -> Iterator[str]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = asyncio.run_coroutine_threadsafe(serve_grpc(servicers, "127.0.0.1:0", name), loop).result(30)
    try:
        yield f"127.0.0.1:{bound_port(server)}"
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


@pytest.fixture
def stack(engine: Engine) -> Iterator[tuple[World, str, str]]:
    with smtp_sink() as (sink, inbox):
        world = make_world(engine, work.Sender(engine, sink), inbox)
        world.clock.now = datetime.now(UTC)  # the order desk checks the deadline against now
        with engine.begin() as conn:
            open_training_campaign(conn, C, deadline=world.clock.now + timedelta(days=1), turn_seconds=86400)
            start = repo.load_world(conn, C, 1)  # the position report of turn 0, as the stages store it
            knowledge = all_knowledge(turn_context(), start, start, [])
            repo.save_report(conn, C, 0, ME, "json", knowledge[ME])
        orders = [
            (AccountsServicer(world.accounts, world.auth), accounts_pb2_grpc.add_AccountsServicer_to_server),
            (OrderDeskServicer(engine, world.auth), orders_pb2_grpc.add_OrderDeskServicer_to_server),
            (PlayerDeskServicer(engine, world.auth), desk_pb2_grpc.add_PlayerDeskServicer_to_server),
        ]
        reports = [
            (
                ReportsServicer(engine, "admin-secret", world.auth),
                reports_pb2_grpc.add_ReportsServicer_to_server,
            )
        ]
        with served(orders, "orders") as o, served(reports, "reports") as r:
            yield world, o, r


def run_example(token: str, orders: str, reports: str) -> subprocess.CompletedProcess[str]:
    args = ["--orders-addr", orders, "--reports-addr", reports, "--campaign", C, "--player", ME]
    args += ["--orders", str(ROOT / "examples" / "orders" / "cornwallis-channel.txt")]
    env = {**os.environ, "PATE_API_TOKEN": token, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / "api_client.py"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def stored_orders(engine: Engine) -> int:
    o = tables.orders
    with engine.connect() as conn:
        return len(
            conn.execute(select(o.c.ship_id).where(and_(o.c.campaign == C, o.c.author_player == ME))).all()
        )


def test_the_example_plays_a_seat_with_an_orders_token(stack: Any) -> None:
    world, orders, reports = stack
    me = world.member("cornwallis@example.org")
    world.seats.claim(me, C, ME, SEAT_PASSWORD, world.addr)
    api = AccountApi(world.accounts, world.auth)
    token, _ = api.create(me, "example", read_only=False, all_seats=False, seats=[(C, ME)], days=1)
    done = run_example(token, orders, reports)
    assert done.returncode == 0, done.stderr
    assert "turn 1" in done.stdout and "report of turn 0" in done.stdout
    assert "orders accepted: 3 (BR1FL, BR1FR, BR2SL)" in done.stdout, done.stdout
    assert stored_orders(world.engine) == 3


def test_a_read_only_token_reads_but_its_orders_are_refused(stack: Any) -> None:
    world, orders, reports = stack
    me = world.member("cornwallis@example.org")
    world.seats.claim(me, C, ME, SEAT_PASSWORD, world.addr)
    token, _ = AccountApi(world.accounts, world.auth).create(
        me, "reader", read_only=True, all_seats=True, seats=[], days=1
    )
    done = run_example(token, orders, reports)
    assert done.returncode == 1 and "report of turn 0" in done.stdout
    assert "PERMISSION_DENIED" in done.stderr and "read-only" in done.stderr
    assert stored_orders(world.engine) == 0
