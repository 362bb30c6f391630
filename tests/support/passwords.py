"""Passwords for campaigns that tests create with the order desk's own functions.

Scenario files carry no passwords (docs/security.md): ``create_campaign`` takes
the argon2 hash of every player's password. ``EveryPlayer`` gives each player
the same one, hashed once per test session.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping

from services.common.passwords import hash_password

TEST_PASSWORD = "test-password-of-every-player"


@functools.cache
def _hashed(password: str) -> str:
    return hash_password(password)


class EveryPlayer(Mapping[str, str]):
    """player id -> the hash of ``password``, for any player id."""

    def __init__(self, password: str = TEST_PASSWORD) -> None:
        self.password = password

    def __getitem__(self, player: str) -> str:
        return _hashed(self.password)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0
