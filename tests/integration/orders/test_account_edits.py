"""Changing an account and pruning the unverified ones, on a migrated database (docs/accounts.md,
"Changing your account"): a new address needs the password and takes effect only through the
link mailed to it, the old address gets a note, a taken address is told apart by nobody but
its owner, and accounts never verified go after UNVERIFIED_DAYS."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, select

from services.notifier import work
from services.platform.errors import Code, DeskError
from services.platform.security.account_edits import UNVERIFIED_DAYS, Change, prune_unverified, update_account
from services.platform.security.throttle import ThrottlePolicy
from services.platform.store import account_tables as at
from tests.support.accounts import PASSWORD, World, make_world
from tests.support.mailsink import smtp_sink, text

pytestmark = pytest.mark.integration
OLD, NEW, TAKEN = "old@example.org", "new@example.org", "taken@example.org"
ROOMY = ThrottlePolicy(source_burst=50, account_burst=50, address_burst=100, settle_seconds=0.0)


@pytest.fixture
def world(engine: Engine) -> Iterator[World]:
    with smtp_sink() as (sink, inbox):
        yield make_world(engine, work.Sender(engine, sink), inbox, ROOMY)


def test_name_and_time_zone_change_at_once(world: World) -> None:
    token = world.member(OLD)
    me, pending = update_account(world.accounts, token, Change("Lord Nelson", "Europe/Paris"), world.addr)
    assert (me.display_name, me.time_zone, pending) == ("Lord Nelson", "Europe/Paris", False)
    me, _ = update_account(world.accounts, token, Change(clear_time_zone=True), world.addr)
    assert me.time_zone == "" and me.display_name == "Lord Nelson"


def test_a_new_address_needs_the_password_and_its_link(world: World) -> None:
    token = world.member(OLD)
    with pytest.raises(DeskError) as refused:
        update_account(world.accounts, token, Change(email=NEW), world.addr)
    assert refused.value.code is Code.INVALID_ARGUMENT and refused.value.message.startswith("password")
    with pytest.raises(DeskError) as wrong:
        update_account(world.accounts, token, Change(email=NEW, password="not my password"), world.addr)
    assert wrong.value.code is Code.UNAUTHENTICATED
    me, pending = update_account(world.accounts, token, Change(email=NEW, password=PASSWORD), world.addr)
    assert pending and me.email == OLD  # nothing changes before the link is followed
    link = world.last_token(NEW)
    assert "change its address" in text(world.inbox.to(OLD)[-1])  # the old address is told
    world.accounts.verify(link)
    assert world.accounts.authenticate(token).email == NEW
    world.accounts.login(NEW, PASSWORD, world.addr)
    with pytest.raises(DeskError):
        world.accounts.verify(link)  # once


def test_a_taken_address_gets_a_note_and_the_reply_is_the_same(world: World) -> None:
    token = world.member(OLD)
    world.member(TAKEN, "Someone")
    mails = len(world.inbox.to(TAKEN))
    _, pending = update_account(world.accounts, token, Change(email=TAKEN, password=PASSWORD), world.addr)
    assert pending  # as for a free address
    world.deliver()
    note = world.inbox.to(TAKEN)[mails:]
    assert len(note) == 1 and "already has an account" in text(note[0])
    assert world.accounts.authenticate(token).email == OLD


def test_accounts_never_verified_are_pruned_after_their_days(world: World) -> None:
    world.member(OLD)  # verified: stays
    world.accounts.sign_up("Nobody", "never@example.org", PASSWORD, "", world.addr)
    world.clock.advance(days=UNVERIFIED_DAYS - 1)
    assert prune_unverified(world.engine, now=world.clock.now) == 0
    world.clock.advance(days=1)
    assert prune_unverified(world.engine, now=world.clock.now) == 1
    with world.engine.connect() as conn:
        assert [r.email for r in conn.execute(select(at.accounts.c.email)).all()] == [OLD]
