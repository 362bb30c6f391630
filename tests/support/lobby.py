"""What the lobby tests share: the Lobby, Accounts and Reports servicers over one database,
called in process through a fake call context (metadata in, abort raises), a game master's
campaign, and turns closed and opened as the services would."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
from sqlalchemy import Engine, insert

from pate.v1 import accounts_pb2, accounts_pb2_grpc, lobby_pb2, lobby_pb2_grpc
from services.notifier import work
from services.orders import campaigns, solo
from services.orders.accounts_rpc import AccountsServicer
from services.orders.lobby.rpc import LobbyServicer
from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.security.throttle import ThrottlePolicy
from services.platform.store import desk_tables
from services.platform.store import repository as repo
from services.reports.servicer import ReportsServicer
from tests.support.accounts import World, game_master_campaign, make_world
from tests.support.mailsink import smtp_sink

ADMIN = "lobby-test-admin-token"
ROOMY = ThrottlePolicy(source_burst=50, account_burst=50, address_burst=100, settle_seconds=0.0)


class RefusedError(Exception):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code, self.details = code, details


class Call:
    """What a servicer reads of a call: its metadata and peer; abort raises RefusedError."""

    def __init__(self, md: dict[str, str]) -> None:
        self.md = md

    def invocation_metadata(self) -> Any:
        return tuple(self.md.items())

    def peer(self) -> str:
        return "ipv4:192.0.2.10:5000"

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise RefusedError(code, details)


@dataclass
class Desk:
    world: World
    lobby: LobbyServicer
    accounts: AccountsServicer
    reports: ReportsServicer

    def call(self, servicer: Any, method: str, request: Any, token: str = "", admin: bool = False) -> Any:
        md = {}
        if token:
            md["authorization"] = f"Bearer {token}"
        if admin:
            md["x-pate-admin-token"] = ADMIN
        return asyncio.run(getattr(servicer, method)(request, Call(md)))

    def gm(self, method: str, request: Any) -> Any:
        return self.call(self.lobby, method, request, admin=True)

    def me(self, method: str, request: Any, token: str) -> Any:
        return self.call(self.lobby, method, request, token=token)

    def open_seat(self, token: str, campaign: str, player: str) -> str:
        request = accounts_pb2.OpenSeatRequest(campaign_id=campaign, player_id=player)
        return str(self.call(self.accounts, "OpenSeat", request, token=token).token)


@contextmanager
def lobby_desk(engine: Engine, limits: solo.SoloLimits | None = None) -> Iterator[Desk]:
    with smtp_sink() as (sink, inbox):
        world = make_world(engine, work.Sender(engine, sink), inbox, ROOMY)
        lobby = LobbyServicer(engine, ADMIN, world.accounts, world.auth, limits=limits)
        yield Desk(
            world,
            lobby,
            AccountsServicer(world.accounts, world.auth),
            ReportsServicer(engine, ADMIN, world.auth),
        )


def publish(desk: Desk, campaign: str, **kw: Any) -> lobby_pb2.Listing:
    """A game master's training campaign, published (first come, starting when full)."""
    game_master_campaign(desk.world.engine, campaign)
    values: dict[str, Any] = {"seat_policy": "first_come", "start": "when_full", "time_zone": "Europe/Paris"}
    values.update(kw)
    return desk.gm("Publish", lobby_pb2.PublishRequest(campaign_id=campaign, **values))


def next_turn(engine: Engine, campaign: str, at: datetime | None = None) -> int:
    """Close the open turn as the deadline would, and open the next as its reports would."""
    at = at or datetime.now(UTC)
    with engine.begin() as conn:
        row = repo.get_campaign(conn, campaign)
        assert row is not None
        campaigns.close_turn(conn, campaign, row.turn, "deadline", at)
        repo.save_world(conn, campaign, row.turn + 1, repo.load_world(conn, campaign, row.turn))
        repo.set_status(
            conn,
            campaign,
            turn=row.turn,
            expect=("CLOSED",),
            status="OPEN",
            new_turn=row.turn + 1,
            deadline=at + timedelta(days=1),
        )
        return row.turn + 1


def confirm(engine: Engine, campaign: str, turn: int, player: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            insert(desk_tables.order_confirmations).values(
                campaign=campaign, turn=turn, player=player, confirmed_at=datetime.now(UTC)
            )
        )


@contextmanager
def serve_lobby(desk: Desk) -> Iterator[str]:
    """pate.v1.Lobby and pate.v1.Accounts of the desk on a loopback port of their own loop."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    served = [
        (desk.lobby, lobby_pb2_grpc.add_LobbyServicer_to_server),
        (desk.accounts, accounts_pb2_grpc.add_AccountsServicer_to_server),
    ]
    server = asyncio.run_coroutine_threadsafe(serve_grpc(served, "127.0.0.1:0", "orders"), loop).result(30)
    try:
        yield f"127.0.0.1:{bound_port(server)}"
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
