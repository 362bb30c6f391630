"""Every campaign and every resolved turn records the version of the rules and data it was
made under, and a replay after an upgrade says so instead of a bare difference."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Engine

from pate.rulesversion import rules_version
from pate.v1 import events_pb2
from services.platform.store import repository as repo
from services.platform.store.tables import campaigns as campaign_table
from services.platform.store.tables import resolutions, world_states
from services.resolver.replay import replay_turn
from services.resolver.stage import handle_turn_closed
from tests.support.campaigns import close_first_turn


def _resolved(conn: sa.Connection, name: str) -> None:
    close_first_turn(conn, name)
    handle_turn_closed(conn, events_pb2.TurnClosed(campaign_id=name, turn=1).SerializeToString(), {})


def test_the_campaign_and_its_resolved_turn_record_the_rules_and_replay_is_identical(engine: Engine) -> None:
    with engine.begin() as conn:
        _resolved(conn, "rv-one")
        version = rules_version()
        assert version.startswith("0.1.0+") and len(version.split("+")[1]) == 12
        created = conn.execute(
            sa.select(campaign_table.c.rules_version).where(campaign_table.c.id == "rv-one")
        )
        assert created.scalar() == version
        assert repo.resolution_rules(conn, "rv-one", 1) == version
        outcome = replay_turn(conn, "rv-one", 1)
    assert outcome.identical and outcome.summary().endswith(f"replay identical ({outcome.stored_sha256})")


def test_a_turn_resolved_under_other_rules_says_which_and_what_differs(engine: Engine) -> None:
    with engine.begin() as conn:
        _resolved(conn, "rv-two")
        # as if resolved by an earlier release whose rules moved a ship elsewhere
        where = sa.and_(resolutions.c.campaign == "rv-two", resolutions.c.turn == 1)
        conn.execute(
            sa.update(resolutions)
            .where(where)
            .values(rules_version="0.0.9+0123456789ab", result_sha256="0" * 64)
        )
        conn.execute(
            sa.update(world_states)
            .where(sa.and_(world_states.c.campaign == "rv-two", world_states.c.turn == 2))
            .values(sha256="1" * 64)
        )
        outcome = replay_turn(conn, "rv-two", 1)
    assert not outcome.identical
    assert outcome.summary() == (
        f"turn 1 of rv-two: resolved under rules 0.0.9+0123456789ab, replayed under {rules_version()}:"
        " differs in the next world state"
    )


def test_the_same_rules_and_a_different_result_points_at_the_stored_turn(engine: Engine) -> None:
    with engine.begin() as conn:
        _resolved(conn, "rv-three")
        where = sa.and_(resolutions.c.campaign == "rv-three", resolutions.c.turn == 1)
        conn.execute(sa.update(resolutions).where(where).values(result_sha256="0" * 64))
        outcome = replay_turn(conn, "rv-three", 1)
    assert "replay DIFFERS under the same rules" in outcome.summary()
    assert "the stored turn may be damaged" in outcome.summary()
