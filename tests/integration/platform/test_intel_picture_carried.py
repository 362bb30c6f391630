"""The intel stage carries each player's picture of the enemy forward
(docs/rules/intel.md, "The picture"): the knowledge it stores for a turn holds
the sightings of the player's stored knowledge of the turn before that were
not seen since, with the turn they were seen in."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from pate.core.codec import canonical_json, parse_json
from pate.datafiles import load_world_map
from pate.v1 import events_pb2
from services.intel.stage import handle_turn_resolved
from services.platform.store import repository as repo
from services.platform.store.tables import knowledge
from services.resolver.stage import handle_turn_closed
from tests.support.campaigns import close_first_turn

pytestmark = pytest.mark.integration

CAMPAIGN = "picture"


def _resolved(conn: sa.Connection, turn: int) -> None:
    handle_turn_resolved(
        conn, events_pb2.TurnResolved(campaign_id=CAMPAIGN, turn=turn).SerializeToString(), {}
    )


def test_the_intel_stage_feeds_the_turn_before_in(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        close_first_turn(conn, CAMPAIGN, seed=5)
        handle_turn_closed(conn, events_pb2.TurnClosed(campaign_id=CAMPAIGN, turn=1).SerializeToString(), {})
        if not repo.knowledge_exists(conn, CAMPAIGN, 0):
            _resolved(conn, 0)
        start = repo.load_knowledge(conn, CAMPAIGN, 0)
        player, text = next((p, t) for p, t in start.items() if parse_json(t)["enemies"])
        plain = parse_json(text)
        enemy = plain["enemies"][0]
        area = sorted(load_world_map().sea_areas)[0]
        ghost = {
            "key": f"{enemy}99SL",
            "state": enemy,
            "category": "line",
            "nearness": "identified",
            "source": "contact",
            "sea_area": area,
            "place": "sea",
            "tactical": 1,
            "port": None,
            "turn": 0,
            "by": ["XX1FR"],
            "estimate": None,
            "estimate_high": None,
        }
        plain["picture"] = [*plain.get("picture", []), ghost]
        c = knowledge.c
        conn.execute(
            knowledge.update()
            .where(c.campaign == CAMPAIGN, c.turn == 0, c.player == player)
            .values(knowledge_json=canonical_json(plain))
        )
        _resolved(conn, 1)
        after = parse_json(repo.load_knowledge(conn, CAMPAIGN, 1)[player])
    carried = [s for s in after["picture"] if s["key"] == f"{enemy}99SL"]
    assert carried == [ghost]  # seen at the start, not since: one turn old
    assert after["turn"] == 1
