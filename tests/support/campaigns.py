"""A campaign made as the order desk makes it, with its first turn open or closed, in the
caller's transaction: for tests that drive a stage's handler directly."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from pate.datafiles import load_scenario
from services.orders import campaigns
from services.platform.store import repository as repo
from tests.support.passwords import EveryPlayer

CLOSED_AT = datetime(2026, 1, 1, tzinfo=UTC)


def close_first_turn(conn: sa.Connection, name: str, *, scenario: str = "training", seed: int = 3) -> None:
    """Create campaign ``name`` (3 turns), open its first turn and close it."""
    campaigns.create_campaign(
        conn,
        name,
        load_scenario(scenario),
        scenario,
        seed=seed,
        turns=3,
        first_deadline=None,
        turn_seconds=0,
        password_hashes=EveryPlayer(),
    )
    repo.set_status(conn, name, turn=1, expect=("STARTING",), status="OPEN")
    campaigns.close_turn(conn, name, 1, "test", CLOSED_AT)
