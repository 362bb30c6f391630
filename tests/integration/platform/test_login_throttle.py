"""The login throttle, with its documented figures.

An attacker guesses 5 times a second; the right password must still succeed
at least 9 times in 10, and the attacker must get no more than about 10
argon2 checks a minute per account, across all replicas (the buckets are in
the database).  Time is simulated with an injected clock.

Right passwords of one account given at the same moment (threads, each its
own replica) are all let in, however many there are beyond a bucket's burst,
and give back every token they took; wrong ones at the same moment get no
more checks than one after the other."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine

from pate.core.codec import canonical_json
from services.platform.errors import Code, DeskError
from services.platform.security.auth import Authenticator
from services.platform.security.passwords import hash_password
from services.platform.security.throttle import LoginThrottle, ThrottlePolicy
from services.platform.store import repository as repo

pytestmark = pytest.mark.integration

ATTACKER, OWNER = "203.0.113.66", "198.51.100.7"


class CountingHasher(PasswordHasher):
    """A fast argon2id hasher that counts the checks it makes."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=64, parallelism=1)
        self.checks = 0

    def verify(self, hash: Any, password: Any) -> bool:
        self.checks += 1
        return super().verify(hash, password)


class SlowHasher(CountingHasher):
    """Each check takes 0.2 s (a loaded server): every attempt of a batch started together has
    taken its tokens before the first check ends, so the batch really meets in the buckets."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()

    def verify(self, hash: Any, password: Any) -> bool:
        time.sleep(0.2)
        with self._lock:
            self.checks += 1
        return PasswordHasher.verify(self, hash, password)


def together(n: int, one: Callable[[int], str]) -> list[str]:
    """``one(i)`` for i < n, each in its own thread, all released at the same moment."""
    start = threading.Barrier(n)
    results = [""] * n

    def run(i: int) -> None:
        start.wait()
        results[i] = one(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


class HeldHasher(CountingHasher):
    """Each check waits until ``release`` is set: whatever is answered before, was answered
    while every check was in flight."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self._lock = threading.Lock()

    def verify(self, hash: Any, password: Any) -> bool:
        with self._lock:
            self.checks += 1
        self.release.wait(timeout=60)
        return PasswordHasher.verify(self, hash, password)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def campaign(engine: Engine) -> str:
    with engine.begin() as conn:
        repo.insert_campaign(conn, repo.CampaignRow("c", "c", "inline", 1, 15, 1, "OPEN", None, 0))
        repo.insert_players(
            conn,
            "c",
            [
                {
                    "id": "nelson",
                    "name": "Horatio Nelson",
                    "state": "BR",
                    "roles_json": canonical_json(["commander"]),
                    "password_hash": hash_password("the-right-one", hasher=CountingHasher()),
                }
            ],
        )
    return "c"


def replica(engine: Engine, clock: Clock, hasher: CountingHasher) -> Authenticator:
    """One service process: its own memory, the shared database."""
    return Authenticator(engine, hasher=hasher, clock=clock)


def attempt(auth: Authenticator, password: str, source: str) -> str:
    try:
        auth.check_password("c", "nelson", password, source)
        return "ok"
    except DeskError as err:
        return "throttled" if err.code == Code.RESOURCE_EXHAUSTED else "wrong"


@pytest.mark.slow
def test_a_guesser_at_5_a_second_neither_locks_the_owner_out_nor_gets_more_than_10_checks_a_minute(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    minutes = 3
    attacker_hasher = CountingHasher()
    replicas = [replica(engine, clock, attacker_hasher) for _ in range(3)]
    owner_results = []
    checks_by_minute = []
    step = timedelta(seconds=0.2)  # 5 guesses a second
    for minute in range(minutes):
        before = attacker_hasher.checks
        for i in range(300):
            clock.now += step
            # the guesser spreads his attempts over every replica
            assert attempt(replicas[i % 3], f"guess-{minute}-{i}", ATTACKER) in ("wrong", "throttled")
            if i % 30 == 15:  # the owner logs in every 6 s, each time in a fresh process
                owner = replica(engine, clock, CountingHasher())
                owner_results.append(attempt(owner, "the-right-one", OWNER))
        checks_by_minute.append(attacker_hasher.checks - before)
    assert owner_results.count("ok") >= 0.9 * len(owner_results), owner_results
    # the first minute has the burst of 5 on top of the 10 a minute
    assert checks_by_minute[0] <= 16 and all(n <= 11 for n in checks_by_minute[1:]), checks_by_minute
    assert sum(checks_by_minute) <= 5 + 10 * minutes + 1


def test_a_refused_attempt_makes_no_check_and_says_how_long_to_wait(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    hasher = CountingHasher()
    auth = replica(engine, clock, hasher)
    assert [attempt(auth, "wrong", ATTACKER) for _ in range(5)] == ["wrong"] * 5
    with pytest.raises(DeskError) as err:
        auth.check_password("c", "nelson", "wrong", ATTACKER)
    assert err.value.code == Code.RESOURCE_EXHAUSTED and "try again in 6 s" in err.value.message
    assert hasher.checks == 5
    clock.now += timedelta(seconds=6)
    assert attempt(auth, "wrong", ATTACKER) == "wrong" and hasher.checks == 6


def test_a_right_password_from_the_guessing_source_fills_its_bucket_again(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    auth = replica(engine, clock, CountingHasher())
    for _ in range(5):
        attempt(auth, "wrong", OWNER)  # the owner mistypes five times
    assert attempt(auth, "the-right-one", OWNER) == "throttled"
    clock.now += timedelta(seconds=6)
    assert attempt(auth, "the-right-one", OWNER) == "ok"
    fresh = replica(engine, clock, CountingHasher())  # no remembered success
    assert [attempt(fresh, "wrong", OWNER) for _ in range(5)] == ["wrong"] * 5


def test_many_sources_share_the_account_budget_and_a_trusted_source_still_gets_in(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    hasher = CountingHasher()
    auth = replica(engine, clock, hasher)
    assert attempt(auth, "the-right-one", OWNER) == "ok"  # the owner's usual place: trusted from now on
    results = []
    for i in range(600):  # one minute of 10 guesses a second, each from another address
        clock.now += timedelta(seconds=0.1)
        results.append(attempt(auth, "guess", f"10.1.{i // 250}.{i % 250}"))
    checks = hasher.checks - 1
    assert checks <= 20 + 20 + 1  # the account's burst and one minute of refill
    assert results.count("throttled") > 500
    fresh = replica(engine, clock, CountingHasher())
    assert attempt(fresh, "the-right-one", OWNER) == "ok"


def test_the_memory_of_failures_is_bounded(engine: Engine, campaign: str, clock: Clock) -> None:
    throttle = LoginThrottle(engine, ThrottlePolicy(), clock=clock)
    for i in range(400):
        clock.now += timedelta(seconds=1)
        throttle.reserve(f"account-{i}", f"10.2.0.{i % 200}")
    # a row lives until its bucket is full again: 6 s for one failure of a source, 3 s of an
    # account, 1 s of an address
    assert throttle.tracked() <= 7 + 4 + 2
    # the holds of checks in flight: only the last attempt's (each new attempt of this thread
    # ended the one before it)
    assert throttle.in_flight() == 3
    clock.now += timedelta(minutes=10)
    throttle.reserve("account-x", "10.3.0.1")
    assert throttle.tracked() == 3 and throttle.in_flight() == 3


def test_one_address_trying_many_names_is_bounded_and_the_owner_there_still_gets_in(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    hasher = CountingHasher()
    auth = replica(engine, clock, hasher)
    assert attempt(auth, "the-right-one", ATTACKER) == "ok"  # the owner shares the guesser's address
    before = hasher.checks
    for i in range(600):  # one minute of 10 guesses a second, each at another made-up player
        clock.now += timedelta(seconds=0.1)
        with contextlib.suppress(DeskError):
            auth.check_password("c", f"made-up-{i}", "guess", ATTACKER)
    checks = hasher.checks - before
    assert checks <= 30 + 60 + 1  # the address's burst and one minute of refill
    assert attempt(replica(engine, clock, CountingHasher()), "the-right-one", ATTACKER) == "ok"


def test_right_logins_of_one_account_at_the_same_moment_are_all_let_in(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    """12 right passwords at once from one new address: more than the source bucket's burst of 5
    are in flight together. None is refused, and each gives back what it took: afterwards the
    account's budget is whole (20 guesses from 20 other addresses are checked, the 21st is not)."""
    hasher = SlowHasher()
    results = together(12, lambda _i: attempt(replica(engine, clock, hasher), "the-right-one", OWNER))
    assert results == ["ok"] * 12 and hasher.checks == 12
    throttle = LoginThrottle(engine, clock=clock)
    assert throttle.in_flight() == 0  # every check ended with its success
    guesser = replica(engine, clock, CountingHasher())
    guesses = [attempt(guesser, "guess", f"10.4.0.{i}") for i in range(21)]
    assert guesses == ["wrong"] * 20 + ["throttled"]


def test_right_logins_from_more_addresses_than_the_account_burst_are_all_let_in(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    """25 right passwords at once, each from an address never seen: the account bucket (burst 20)
    runs dry between them while their checks are in flight; the last five wait for the first
    successes' refunds and get in."""
    hasher = SlowHasher()
    results = together(
        25, lambda i: attempt(replica(engine, clock, hasher), "the-right-one", f"198.51.100.{i + 20}")
    )
    assert results == ["ok"] * 25 and hasher.checks == 25


def test_wrong_guesses_at_the_same_moment_get_no_more_checks_than_one_after_the_other(
    engine: Engine, campaign: str, clock: Clock
) -> None:
    """12 wrong passwords at once from one address: 5 checks (the source's burst) as if they came
    one after the other; the other 7 wait for those checks to end, at most settle_seconds, and are
    refused without a check. The checks are held until the 7 are answered: the refusals came
    while every check was still in flight, so their wait was bounded by the throttle, not by the
    checks (no stopwatch: a loaded machine cannot fail it). The owner elsewhere still gets in."""
    hasher = HeldHasher()
    answered_while_held: list[str] = []

    def guess(i: int) -> str:
        result = attempt(replica(engine, clock, hasher), f"guess-{i}", ATTACKER)
        if not hasher.release.is_set():
            answered_while_held.append(result)
        return result

    def release_when_refused() -> None:
        deadline = time.monotonic() + 60  # bounds the wait; the assertions below say what happened
        while len(answered_while_held) < 7 and time.monotonic() < deadline:
            time.sleep(0.05)
        hasher.release.set()

    releaser = threading.Thread(target=release_when_refused)
    releaser.start()
    results = together(12, guess)
    releaser.join(timeout=60)
    assert sorted(results) == ["throttled"] * 7 + ["wrong"] * 5 and hasher.checks == 5
    assert answered_while_held == ["throttled"] * 7
    assert attempt(replica(engine, clock, CountingHasher()), "the-right-one", OWNER) == "ok"
