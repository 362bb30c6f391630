"""Passwords for campaigns that tests create with the order desk's own functions.

Scenario files carry no passwords (docs/security.md): ``create_campaign`` takes
the argon2 hash of every player's password. ``EveryPlayer`` gives each player
the same one, hashed once per test session; ``open_training_campaign`` makes a
campaign ready for orders.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping

from sqlalchemy import Connection

from services.platform.security.passwords import hash_password

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


def open_training_campaign(conn: Connection, campaign: str, seed: int = 1) -> None:
    """A training campaign created with the desk's own code, its first turn open for orders."""
    from pate.datafiles import load_scenario
    from services.orders import campaigns
    from services.platform.store import repository as repo

    campaigns.create_campaign(
        conn,
        campaign,
        load_scenario("training"),
        "training",
        seed=seed,
        turns=3,
        first_deadline=None,
        turn_seconds=0,
        password_hashes=EveryPlayer(),
    )
    repo.set_status(conn, campaign, turn=1, expect=("STARTING",), status="OPEN")
