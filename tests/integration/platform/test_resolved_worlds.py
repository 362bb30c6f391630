"""A resolver keeps the world it stored for the next turn, and uses it only while the stored
row's digest is still its own."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from services.platform.store import repository as repo
from tests.support.aio import unique
from tests.support.passwords import open_training_campaign

pytestmark = pytest.mark.integration


def _campaign(engine: sa.Engine) -> str:
    name = unique("w")
    with engine.begin() as conn:
        open_training_campaign(conn, name, seed=5)
    return name


def test_the_world_a_resolver_stored_is_taken_again_without_decoding(engine: sa.Engine) -> None:
    name = _campaign(engine)
    with engine.begin() as conn:
        world = repo.load_world(conn, name, 1)
        digest = repo.save_world(conn, name, 2, world)
        repo.remember_world(conn, name, 2, world, digest)
    with engine.begin() as conn:
        assert repo.load_world_resolved(conn, name, 2) is world


def test_a_row_stored_otherwise_is_read_from_the_database(engine: sa.Engine) -> None:
    """The kept world never stands in for a row with another digest (the turn's transaction
    rolled back and the turn was resolved again with other inputs)."""
    name = _campaign(engine)
    with engine.begin() as conn:
        world = repo.load_world(conn, name, 1)
        repo.remember_world(conn, name, 2, world, "not the stored digest")
        repo.save_world(conn, name, 2, world)
    with engine.begin() as conn:
        again = repo.load_world_resolved(conn, name, 2)
    assert again is not world and again == world


def test_a_world_never_stored_is_not_found(engine: sa.Engine) -> None:
    name = _campaign(engine)
    with engine.begin() as conn:
        repo.remember_world(conn, name, 7, repo.load_world(conn, name, 1), "digest")
    with engine.begin() as conn, pytest.raises(LookupError):
        repo.load_world_resolved(conn, name, 7)
