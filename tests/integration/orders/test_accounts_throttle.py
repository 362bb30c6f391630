"""The throttles of accounts (docs/security.md): password checks per (account, source), per
account and per source address, as the seat login's; mail requests per address and per
source.  Known and unknown addresses are throttled alike, so a refusal tells nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine

from services.notifier import work
from services.platform.errors import Code, DeskError
from services.platform.security.throttle import ThrottlePolicy
from tests.support.accounts import PASSWORD, World, game_master_campaign, make_world
from tests.support.mailsink import smtp_sink

pytestmark = pytest.mark.integration
SMALL = ThrottlePolicy(
    source_burst=2,
    source_per_minute=1,
    account_burst=3,
    account_per_minute=1,
    address_burst=4,
    address_per_minute=1,
    settle_seconds=0.0,
)
OWNER = "owner@example.org"


@pytest.fixture
def world(engine: Engine) -> Iterator[World]:
    with smtp_sink() as (sink, inbox):
        yield make_world(engine, work.Sender(engine, sink), inbox, SMALL)


def code(call: Any, *args: Any) -> Code | None:
    try:
        call(*args)
    except DeskError as err:
        return err.code
    return None


def test_wrong_passwords_from_one_source_are_refused_alike_for_known_and_unknown_addresses(
    world: World,
) -> None:
    world.member(OWNER)
    for email in (OWNER, "ghost@example.org"):
        seen = [code(world.accounts.login, email, "wrong password", "198.51.100.1") for _ in range(3)]
        assert seen == [Code.UNAUTHENTICATED, Code.UNAUTHENTICATED, Code.RESOURCE_EXHAUSTED], email
    # the owner, at the place he logged in from, is not locked out
    world.accounts.login(OWNER, PASSWORD, world.addr)


def test_many_sources_share_the_account_bucket_and_one_source_the_address_bucket(world: World) -> None:
    world.member(OWNER)
    guesses = [code(world.accounts.login, OWNER, "wrong password", f"198.51.100.{i}") for i in range(1, 5)]
    assert guesses == [Code.UNAUTHENTICATED] * 3 + [Code.RESOURCE_EXHAUSTED]
    world.accounts.login(OWNER, PASSWORD, world.addr)  # trusted source: skips the account bucket
    sprayed = [code(world.accounts.login, f"n{i}@example.org", "x" * 10, "203.0.113.9") for i in range(5)]
    assert sprayed == [Code.UNAUTHENTICATED] * 4 + [Code.RESOURCE_EXHAUSTED]


def test_a_seat_claim_spends_the_seat_logins_buckets(world: World) -> None:
    game_master_campaign(world.engine, "guessed")
    mine = world.member(OWNER)
    seen = [code(world.seats.claim, mine, "guessed", "barham", "a guess", "198.51.100.7") for _ in range(3)]
    assert seen == [Code.UNAUTHENTICATED, Code.UNAUTHENTICATED, Code.RESOURCE_EXHAUSTED]
    # the seat login from that source is throttled by the same bucket
    assert code(world.auth.login, "guessed", "barham", "a guess", "198.51.100.7") is Code.RESOURCE_EXHAUSTED


def test_mail_requests_are_throttled_per_address_alike_known_or_not(world: World) -> None:
    world.member(OWNER)
    world.deliver()
    before = len(world.inbox.mails)
    for email in (OWNER, "ghost@example.org"):
        seen = [code(world.accounts.request_reset, email, "198.51.100.3") for _ in range(4)]
        assert seen == [None, None, None, Code.RESOURCE_EXHAUSTED], email
    world.deliver()
    assert len(world.inbox.mails) - before == 3  # only the owner's address got mail: three links
