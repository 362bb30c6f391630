"""Passwords for campaigns that tests create with the order desk's own functions.

Scenario files carry no passwords (docs/security.md): ``create_campaign`` takes
the argon2 hash of every player's password. ``EveryPlayer`` gives each player
the same one, hashed once per test session; ``open_training_campaign`` makes a
campaign ready for orders.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from datetime import datetime

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


def open_training_campaign(
    conn: Connection,
    campaign: str,
    seed: int = 1,
    *,
    deadline: datetime | None = None,
    turn_seconds: int = 0,
) -> None:
    """A training campaign created with the desk's own code, its first turn open for orders
    (until ``deadline``, each later turn ``turn_seconds`` long; none: the game master closes)."""
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
        first_deadline=deadline,
        turn_seconds=turn_seconds,
        password_hashes=EveryPlayer(),
    )
    # no deadline given leaves the one the campaign was created with (None: the game master closes)
    keep: datetime | bool = deadline if deadline is not None else False
    repo.set_status(conn, campaign, turn=1, expect=("STARTING",), status="OPEN", deadline=keep)
