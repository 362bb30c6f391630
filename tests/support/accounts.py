"""What the account tests share: a clock they move, the service objects over one database, a
game master's campaign with generated seat passwords, and the mail the notifier sends."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from sqlalchemy import Engine

from pate.datafiles import load_scenario
from pate.v1 import accounts_pb2_grpc
from services.notifier import work
from services.orders import campaigns
from services.orders.account_seats import AccountSeats
from services.orders.accounts_rpc import AccountsServicer
from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.security.accounts import Accounts
from services.platform.security.auth import Authenticator
from services.platform.security.throttle import LoginThrottle, ThrottlePolicy
from services.platform.store import repository as repo
from tests.support.mailsink import Inbox, link_token
from tests.support.passwords import TEST_PASSWORD, EveryPlayer

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
SEAT_PASSWORD = TEST_PASSWORD  # the "generated" password of every seat of the test campaigns
PASSWORD = "a long enough password"
FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # tests only: argon2id, cheap


@dataclass
class Clock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@dataclass
class World:
    engine: Engine
    clock: Clock
    accounts: Accounts
    auth: Authenticator
    seats: AccountSeats
    sender: work.Sender
    inbox: Inbox
    addr: str = "192.0.2.10"
    sent: list[str] = field(default_factory=list)

    def deliver(self) -> None:
        self.sender.send_due(self.clock.now + timedelta(seconds=1))

    def last_token(self, email: str) -> str:
        self.deliver()
        mails = self.inbox.to(email)
        assert mails, f"no mail to {email}"
        return link_token(mails[-1])

    def member(self, email: str, name: str = "Horatio") -> str:
        """A verified account of ``email`` with PASSWORD; its session token."""
        self.accounts.sign_up(name, email, PASSWORD, "Europe/London", self.addr)
        self.accounts.verify(self.last_token(email))
        token, _, _ = self.accounts.login(email, PASSWORD, self.addr)
        return token


def make_world(
    engine: Engine, sender: work.Sender, inbox: Inbox, policy: ThrottlePolicy | None = None
) -> World:
    clock = Clock()
    throttle = LoginThrottle(engine, policy, clock=clock)
    accounts = Accounts(engine, clock=clock, hasher=FAST, throttle=throttle)
    auth = Authenticator(engine, clock=clock, throttle=throttle)
    return World(engine, clock, accounts, auth, AccountSeats(accounts, auth), sender, inbox)


def game_master_campaign(engine: Engine, campaign: str) -> None:
    """A campaign made by a game master (no accounts): every seat has SEAT_PASSWORD."""
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            campaign,
            load_scenario("training"),
            "training",
            seed=1,
            turns=15,
            first_deadline=START + timedelta(days=1),
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        repo.set_status(
            conn, campaign, turn=1, expect=("STARTING",), status="OPEN", deadline=START + timedelta(days=1)
        )


@contextmanager
def serve_accounts(world: World) -> Iterator[str]:
    """pate.v1.Accounts over the world's objects, on a loopback port of its own loop: its address."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    servicer = AccountsServicer(world.accounts, world.auth)
    start = serve_grpc(
        [(servicer, accounts_pb2_grpc.add_AccountsServicer_to_server)], "127.0.0.1:0", "orders"
    )
    server = asyncio.run_coroutine_threadsafe(start, loop).result(30)
    try:
        yield f"127.0.0.1:{bound_port(server)}"
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
