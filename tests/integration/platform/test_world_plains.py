"""Worlds stored and read against the one a worker holds are the full codec's bytes and values,
and a worker holds one such world a campaign (services/platform/store/repository/worlds.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from pate.core.campaign import resolve_submitted
from pate.core.codec import canonical_json, from_plain, parse_json, to_plain
from pate.core.world.state import WorldState
from pate.engine.context import turn_context
from services.platform.store import repository as repo
from services.platform.store.repository import worlds
from tests.support.aio import unique
from tests.support.passwords import open_training_campaign

pytestmark = pytest.mark.integration


def test_turns_stored_and_read_against_the_held_world_are_the_full_codecs(engine: sa.Engine) -> None:
    name = unique("p")
    with engine.begin() as conn:
        open_training_campaign(conn, name, seed=7)
    database = repo.database_key(engine)
    for turn in range(1, 4):
        with engine.begin() as conn:
            world = repo.load_world_resolved(conn, name, turn)
            after = resolve_submitted(turn_context(), world, [], [], [], None).result.state
            digest = repo.save_world(conn, name, turn + 1, after, resolved_from=world)
            repo.remember_world(conn, name, turn + 1, after, digest)
        with engine.begin() as conn:
            text, stored_digest = repo.load_world_json(conn, name, turn + 1) or ("", "")
            assert text == canonical_json(to_plain(after)) and stored_digest == digest
            worlds._WORLD_CACHE.clear()  # read it back from its row, against the world held
            assert repo.load_world_cached(conn, name, turn + 1) == from_plain(WorldState, parse_json(text))
    held = [k for k in worlds._PLAINS.worlds if k[:2] == (database, name)]
    assert sorted(held) == [(database, name, 4, "read"), (database, name, 4, "written")]
