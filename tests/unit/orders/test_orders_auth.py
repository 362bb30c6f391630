"""Password hashing (the throttle is in tests/integration/platform/test_login_throttle.py)."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from services.platform.security.passwords import (
    hash_matches,
    hash_password,
    needs_rehash,
)

FAST = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)  # tests only


def test_hash_is_argon2id_salted_and_verifies() -> None:
    h1 = hash_password("correct horse", hasher=FAST)
    h2 = hash_password("correct horse", hasher=FAST)
    assert h1.startswith("$argon2id$") and h1 != h2
    assert hash_matches(h1, "correct horse", hasher=FAST)
    assert not hash_matches(h1, "correct horsE", hasher=FAST)


def test_default_parameters_and_rehash() -> None:
    h = hash_password("pw-default")
    assert "$m=19456,t=2,p=1$" in h
    assert hash_matches(h, "pw-default")
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
