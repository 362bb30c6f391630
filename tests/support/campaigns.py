"""A training campaign made with the desk's own code and its first turn closed, in the
caller's transaction: for tests that drive a stage's handler directly."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from services.orders import campaigns
from tests.support.passwords import open_training_campaign

CLOSED_AT = datetime(2026, 1, 1, tzinfo=UTC)


def close_first_turn(conn: sa.Connection, name: str, *, seed: int = 3) -> None:
    """Create training campaign ``name`` (3 turns), open its first turn and close it."""
    open_training_campaign(conn, name, seed=seed)
    campaigns.close_turn(conn, name, 1, "test", CLOSED_AT)
