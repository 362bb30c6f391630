"""Password hashing and the throttle on wrong passwords."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from services.common import passwords as auth
from services.common.passwords import (
    PasswordChecker,
    PasswordThrottle,
    ThrottlePolicy,
    hash_matches,
    hash_password,
    needs_rehash,
)

FAST = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)  # tests only


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_hash_is_argon2id_salted_and_verifies() -> None:
    h1 = hash_password("correct horse", hasher=FAST)
    h2 = hash_password("correct horse", hasher=FAST)
    assert h1.startswith("$argon2id$") and h1 != h2
    assert hash_matches(h1, "correct horse", hasher=FAST)
    assert not hash_matches(h1, "correct horsE", hasher=FAST)


def test_default_parameters_and_rehash() -> None:
    h = hash_password("pw-default")
    assert "$m=19456,t=2,p=1$" in h
    assert auth.verify_password("default-user", h, "pw-default")
    assert not needs_rehash(h)
    assert needs_rehash(hash_password("pw", hasher=FAST))
    assert needs_rehash("not a hash")


@pytest.mark.parametrize("bad", ["", "x" * 1025])
def test_empty_or_overlong_passwords_are_not_hashed(bad: str) -> None:
    with pytest.raises(ValueError, match="1 to 1024"):
        hash_password(bad, hasher=FAST)


def test_verification_never_raises() -> None:
    h = hash_password("pw", hasher=FAST)
    for stored, given in ((h, ""), (h, "x" * 5000), ("garbage", "pw"), ("$argon2id$v=19$broken", "pw")):
        assert hash_matches(stored, given, hasher=FAST) is False


def test_delays_double_after_three_failures_up_to_the_cap() -> None:
    p = ThrottlePolicy()
    assert [p.delay(n) for n in range(0, 7)] == [0, 0, 0, 1, 2, 4, 8]
    assert p.delay(20) == 300 and p.delay(10_000) == 300


def test_throttle_with_an_injected_clock() -> None:
    clock = Clock()
    t = PasswordThrottle(clock=clock)
    for _ in range(3):
        t.failed("ann")
    assert t.retry_after("ann") == 1.0
    clock.now += 0.5
    assert t.retry_after("ann") == 0.5
    clock.now += 0.5
    assert t.retry_after("ann") == 0.0
    assert t.failed("ann") == 2.0
    assert t.retry_after("bob") == 0.0  # per player
    t.succeeded("ann")
    assert t.retry_after("ann") == 0.0


def test_records_are_forgotten_after_an_hour() -> None:
    clock = Clock()
    t = PasswordThrottle(clock=clock)
    for _ in range(10):
        t.failed("ann")
    clock.now += 3601
    assert t.retry_after("ann") == 0.0
    assert t.failed("ann") == 0.0  # counting starts again


def test_memory_is_bounded() -> None:
    clock = Clock()
    t = PasswordThrottle(ThrottlePolicy(max_players=100), clock=clock)
    for i in range(1000):
        clock.now += 1
        t.failed(f"made-up-{i}")
    assert t.tracked() <= 100
    assert t.retry_after("made-up-999") == 0.0 and t.tracked() <= 100


def test_checker_refuses_unchecked_while_throttled() -> None:
    clock = Clock()
    checker = PasswordChecker(PasswordThrottle(clock=clock), hasher=FAST)
    h = hash_password("right", hasher=FAST)
    for _ in range(3):
        assert not checker.check("ann", h, "wrong").ok
    v = checker.check("ann", h, "right")  # right password, but too soon
    assert (v.ok, v.throttled, v.retry_after) == (False, True, 1.0)
    clock.now += 1
    assert checker.check("ann", h, "right").ok
    assert checker.throttle.retry_after("ann") == 0.0


def test_unknown_players_fail_and_are_throttled_like_known_ones() -> None:
    clock = Clock()
    checker = PasswordChecker(PasswordThrottle(clock=clock), hasher=FAST)
    for _ in range(3):
        assert not checker.check("nobody", None, "guess").ok
    assert checker.check("nobody", None, "guess").throttled
