"""Accounts on a migrated database, the mail going out through the notifier's sender to a
local SMTP server: sign-up and verification, login and the account's sessions, reset and
password change, claiming a seat once, and deletion that leaves a "former player"
(docs/accounts.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, select

from services.notifier import work
from services.orders.account_seats import FORMER_PLAYER, seat_holder
from services.platform.errors import Code, DeskError
from services.platform.security.auth import Credentials
from services.platform.security.passwords import hash_password
from services.platform.store import account_tables as at
from services.platform.store import repository as repo
from services.platform.store import tables
from services.platform.store.db import reader
from tests.support.accounts import PASSWORD, SEAT_PASSWORD, World, game_master_campaign, make_world
from tests.support.mailsink import smtp_sink, text

pytestmark = pytest.mark.integration
EMAIL = "nelson@example.org"


@pytest.fixture
def world(engine: Engine) -> Iterator[World]:
    with smtp_sink() as (sink, inbox):
        yield make_world(engine, work.Sender(engine, sink), inbox)


def refused(call: Any, *args: Any) -> Code:
    with pytest.raises(DeskError) as err:
        call(*args)
    return err.value.code


def test_sign_up_mails_a_link_that_verifies_once_then_the_account_logs_in(world: World) -> None:
    world.accounts.sign_up("Horatio", "Nelson@Example.org ", PASSWORD, "Europe/London", world.addr)
    assert refused(world.accounts.login, EMAIL, PASSWORD, world.addr) is Code.FAILED_PRECONDITION
    token = world.last_token(EMAIL)
    world.accounts.verify(token)
    assert refused(world.accounts.verify, token) is Code.UNAUTHENTICATED  # single use
    session, _, me = world.accounts.login(EMAIL, PASSWORD, world.addr)
    assert (me.display_name, me.email, me.time_zone, me.verified) == ("Horatio", EMAIL, "Europe/London", True)
    assert world.seats.seats(session) == []
    assert [s.campaign for s in world.accounts.sessions(session)] == [""]


def test_the_mail_holds_no_word_of_the_requester(world: World) -> None:
    world.accounts.sign_up("Visit evil.example now", EMAIL, PASSWORD, "", world.addr)
    world.accounts.sign_up("Or evil.example", EMAIL, PASSWORD, "", world.addr)  # a known address
    world.deliver()
    mails = world.inbox.to(EMAIL)
    assert len(mails) == 2 and not any("evil" in text(m) or "evil" in str(m["Subject"]) for m in mails)


def test_a_verification_link_expires_after_two_days(world: World) -> None:
    world.accounts.sign_up("Horatio", EMAIL, PASSWORD, "", world.addr)
    token = world.last_token(EMAIL)
    world.clock.advance(days=2, seconds=1)
    assert refused(world.accounts.verify, token) is Code.UNAUTHENTICATED


def test_links_and_sessions_are_stored_as_digests_and_sent_mail_is_erased(world: World) -> None:
    world.accounts.sign_up("Horatio", EMAIL, PASSWORD, "", world.addr)
    token = world.last_token(EMAIL)
    with reader(world.engine) as conn:
        stored = [
            str(v)
            for t in (at.account_tokens, tables.notifications)
            for r in conn.execute(select(t))
            for v in r
        ]
    assert not any(token[:12] in v for v in stored)  # not even a part of it
    world.accounts.verify(token)
    session, _, _ = world.accounts.login(EMAIL, PASSWORD, world.addr)
    with reader(world.engine) as conn:
        rows = [str(v) for r in conn.execute(select(at.account_sessions)) for v in r]
    assert not any(session in v for v in rows)


def test_sign_up_with_a_known_address_answers_alike_and_tells_the_owner(world: World) -> None:
    world.member(EMAIL)
    before = len(world.inbox.to(EMAIL))
    world.accounts.sign_up("Intruder", EMAIL, "another password!", "", "192.0.2.99")  # no error
    world.deliver()
    mails = world.inbox.to(EMAIL)
    assert len(mails) == before + 1 and "already has an account" in text(mails[-1])
    with reader(world.engine) as conn:
        assert len(conn.execute(select(at.accounts)).all()) == 1
    assert refused(world.accounts.login, EMAIL, "another password!", world.addr) is Code.UNAUTHENTICATED


def test_a_reset_link_sets_the_password_once_and_ends_every_session(world: World) -> None:
    session = world.member(EMAIL)
    world.accounts.request_reset(EMAIL, world.addr)
    link = world.last_token(EMAIL)
    world.seats.reset(link, "the new password")
    assert refused(world.accounts.authenticate, session) is Code.UNAUTHENTICATED
    assert refused(world.accounts.reset, link, "a third password") is Code.UNAUTHENTICATED  # single use
    assert refused(world.accounts.login, EMAIL, PASSWORD, world.addr) is Code.UNAUTHENTICATED
    world.accounts.login(EMAIL, "the new password", world.addr)


def test_a_reset_link_expires_after_an_hour_and_an_unknown_address_gets_no_mail(world: World) -> None:
    world.member(EMAIL)
    world.accounts.request_reset("nobody@example.org", world.addr)
    world.accounts.request_reset(EMAIL, world.addr)
    link = world.last_token(EMAIL)
    assert world.inbox.to("nobody@example.org") == []
    world.clock.advance(hours=1, seconds=1)
    assert refused(world.accounts.reset, link, "the new password") is Code.UNAUTHENTICATED


def test_a_seat_is_claimed_once_and_then_played_from_the_account(world: World) -> None:
    game_master_campaign(world.engine, "claims")
    old_token, _, _ = world.auth.login("claims", "cornwallis", SEAT_PASSWORD, world.addr)
    mine = world.member(EMAIL)
    seat = world.seats.claim(mine, "claims", "cornwallis", SEAT_PASSWORD, world.addr)
    assert (seat.campaign, seat.player, seat.status) == ("claims", "cornwallis", "OPEN")
    assert [(s.campaign, s.player) for s in world.seats.seats(mine)] == [("claims", "cornwallis")]
    # the generated password is spent: neither a seat login nor a second claim takes it
    assert (
        refused(world.auth.login, "claims", "cornwallis", SEAT_PASSWORD, "192.0.2.20") is Code.UNAUTHENTICATED
    )
    assert refused(world.auth.session, old_token) is Code.UNAUTHENTICATED
    other = world.member("collingwood@example.org", "Cuthbert")
    assert refused(world.seats.claim, other, "claims", "cornwallis", SEAT_PASSWORD, "192.0.2.21") in (
        Code.UNAUTHENTICATED,
        Code.FAILED_PRECONDITION,
    )
    assert refused(world.seats.open_seat, other, "claims", "cornwallis") is Code.NOT_FOUND
    seat_token, _, _ = world.seats.open_seat(mine, "claims", "cornwallis")
    assert world.auth.caller("claims", Credentials(token=seat_token)).id == "cornwallis"
    # the campaign without accounts keeps its seat logins for the seats nobody claimed
    world.auth.login("claims", "decres", SEAT_PASSWORD, world.addr)
    listed = world.accounts.sessions(mine)
    seat_id = next(s.id for s in listed if s.campaign == "claims")
    assert world.seats.revoke(mine, seat_id) == 1
    assert refused(world.auth.session, seat_token) is Code.UNAUTHENTICATED
    world.accounts.authenticate(mine)  # only that one session ended


def test_a_seat_given_a_new_password_by_its_game_master_is_still_claimed_only_once(world: World) -> None:
    game_master_campaign(world.engine, "twice")
    first = world.member(EMAIL)
    world.seats.claim(first, "twice", "ganteaume", SEAT_PASSWORD, world.addr)
    with world.engine.begin() as conn:  # the game master's SetPlayerPassword
        repo.set_password(conn, "twice", "ganteaume", hash_password("a new seat password"))
    other = world.member("villeneuve@example.org", "Pierre")
    second = refused(world.seats.claim, other, "twice", "ganteaume", "a new seat password", "192.0.2.40")
    assert second is Code.FAILED_PRECONDITION
    assert [s.player for s in world.seats.seats(first)] == ["ganteaume"]
    assert world.seats.seats(other) == []


def test_the_links_of_pruned_seat_sessions_go(world: World) -> None:
    game_master_campaign(world.engine, "pruned")
    mine = world.member(EMAIL)
    world.seats.claim(mine, "pruned", "allemand", SEAT_PASSWORD, world.addr)
    world.seats.open_seat(mine, "pruned", "allemand")
    world.clock.advance(hours=13)  # the seat session and the account's have expired
    mine, _, _ = world.accounts.login(EMAIL, PASSWORD, world.addr)
    world.seats.open_seat(mine, "pruned", "allemand")
    with reader(world.engine) as conn:
        assert len(conn.execute(select(at.account_seat_sessions)).all()) == 1


def test_a_password_change_ends_the_account_sessions_and_its_seat_sessions(world: World) -> None:
    game_master_campaign(world.engine, "change")
    first = world.member(EMAIL)
    second, _, _ = world.accounts.login(EMAIL, PASSWORD, "192.0.2.30")
    world.seats.claim(first, "change", "decres", SEAT_PASSWORD, world.addr)
    seat_token, _, _ = world.seats.open_seat(second, "change", "decres")
    creds = Credentials(token=seat_token)
    world.auth.caller("change", creds)  # remembered for a moment by this process (sessioncache)
    assert world.auth.recent_caller("change", creds) is not None
    fresh, _ = world.seats.change_password(first, PASSWORD, "quite another one", world.addr)
    assert world.auth.recent_caller("change", creds) is None
    for old in (first, second):
        assert refused(world.accounts.authenticate, old) is Code.UNAUTHENTICATED
    assert refused(world.auth.session, seat_token) is Code.UNAUTHENTICATED
    assert world.accounts.authenticate(fresh).email == EMAIL


def _game_rows(world: World) -> list[Any]:
    with reader(world.engine) as conn:
        return [
            sorted(tuple(map(str, r)) for r in conn.execute(select(t)))
            for t in (tables.players, tables.world_states, tables.orders, tables.campaigns)
        ]


def test_deleting_an_account_removes_the_person_and_leaves_a_former_player(world: World) -> None:
    game_master_campaign(world.engine, "ended")
    game_master_campaign(world.engine, "going")
    mine = world.member(EMAIL, "Horatio Nelson")
    world.seats.claim(mine, "ended", "cornwallis", SEAT_PASSWORD, world.addr)
    world.seats.claim(mine, "going", "calder", SEAT_PASSWORD, world.addr)
    seat_token, _, _ = world.seats.open_seat(mine, "ended", "cornwallis")
    with world.engine.begin() as conn:
        repo.set_status(conn, "ended", turn=1, expect=("OPEN",), status="FINISHED", deadline=None)
        assert seat_holder(conn, "ended", "cornwallis") == "Horatio Nelson"
    game = _game_rows(world)
    assert refused(world.seats.delete, mine, "not my password", world.addr) is Code.UNAUTHENTICATED
    world.seats.delete(mine, PASSWORD, world.addr)
    assert _game_rows(world) == game  # no game record changes
    with reader(world.engine) as conn:
        assert seat_holder(conn, "ended", "cornwallis") == FORMER_PLAYER
        assert seat_holder(conn, "going", "calder") is None  # back with its game master
        everything = [
            str(v) for t in tables.metadata.sorted_tables for r in conn.execute(select(t)) for v in r
        ]
    assert not any(EMAIL in v or "Horatio Nelson" in v for v in everything)
    assert refused(world.auth.session, seat_token) is Code.UNAUTHENTICATED
    assert refused(world.accounts.login, EMAIL, PASSWORD, world.addr) is Code.UNAUTHENTICATED


def test_the_mailed_link_points_at_the_desk_when_a_link_base_is_set(world: World) -> None:
    world.accounts.link_base = "https://desk.example.org/account"  # PATE_ACCOUNT_LINK_BASE
    world.accounts.sign_up("Horatio", EMAIL, PASSWORD, "", world.addr)
    token = world.last_token(EMAIL)
    assert f"https://desk.example.org/account/verify?token={token}" in text(world.inbox.to(EMAIL)[-1])


def _holders(world: World, campaign: str) -> list[tuple[str, str]]:
    """The game master's desk: who holds the seats of his campaign."""
    from pate.core.rules.validation.orders import Actor
    from pate.core.world.state import Role
    from services.orders.mydesk import my_campaign

    with reader(world.engine) as conn:
        row = repo.get_campaign(conn, campaign)
        assert row is not None
        mine = my_campaign(conn, row, Actor(player="admin", state=None, roles=frozenset({Role.ADMIN})))
    return [(h.player_id, h.holder) for h in mine.holders]


def test_the_game_master_sees_who_holds_each_seat_and_a_former_player_after_a_deletion(world: World) -> None:
    game_master_campaign(world.engine, "ended")
    assert _holders(world, "ended") == []  # the seats' passwords are the game master's
    mine = world.member(EMAIL, "Horatio Nelson")
    world.seats.claim(mine, "ended", "cornwallis", SEAT_PASSWORD, world.addr)
    assert _holders(world, "ended") == [("cornwallis", "Horatio Nelson")]
    with world.engine.begin() as conn:
        repo.set_status(conn, "ended", turn=1, expect=("OPEN",), status="FINISHED", deadline=None)
    world.seats.delete(mine, PASSWORD, world.addr)
    assert _holders(world, "ended") == [("cornwallis", FORMER_PLAYER)]  # no name, no address
