"""A campaign created with ``combat_rules = "eia-advanced"`` through the order
desk's campaign creation, resolved by the resolver's stage and replayed byte
for byte: the stored world names its rule set, so the replay uses it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine

from pate.core.orders.effective import Author
from pate.core.orders.model import Combat, CombatStance, Line, Range, ShipOrder
from pate.core.world.ships import AtSea
from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.common import repository as repo
from services.common.errors import DeskError
from services.orders import campaigns
from services.resolver.replay import replay_turn
from services.resolver.stage import handle_turn_closed

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _fighting_scenario():  # type: ignore[no-untyped-def]
    """The training scenario with two British and two French ships of the line
    in one tactical area, kept where they are written."""
    sc = load_scenario("training")
    spot = AtSea("BIS", 1)
    ids = ["BR1SL", "BR2SL", "FR1SL", "FR2SL"]
    ships = {
        sid: replace(s, location=spot, attached_to=None) if sid in ids else s
        for sid, s in sc.world.ships.items()
    }
    return replace(sc, world=replace(sc.world, ships=ships), placement="as_given"), ids


def test_created_with_eia_the_turn_is_fought_under_eia_and_replays_identically(engine: Engine) -> None:
    scenario, ids = _fighting_scenario()
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            "eia-one",
            scenario,
            "training",
            seed=5,
            turns=3,
            first_deadline=None,
            turn_seconds=0,
            combat_rules="eia-advanced",
        )
        world = repo.load_world(conn, "eia-one", 1)
        assert world.combat_rules == "eia-advanced"
        for seq, sid in enumerate(ids):
            combat = Combat(stance=CombatStance.ENGAGE, range=Range.CLOSE, line=Line.BREAK)
            repo.add_order(
                conn,
                "eia-one",
                1,
                ShipOrder(sid, combat=combat),
                author=world.ships[sid].commander or "",
                role=Author.COMMANDER,
                seq=seq,
                client_request_id=f"r{seq}",
            )
        repo.set_status(conn, "eia-one", turn=1, expect=("STARTING",), status="OPEN")
        campaigns.close_turn(conn, "eia-one", 1, "test", AT)
        msg = events_pb2.TurnClosed(campaign_id="eia-one", turn=1)
        handle_turn_closed(conn, msg.SerializeToString(), {})
        battles = [e for e in repo.load_events(conn, "eia-one", 1) if e.kind == "battle"]
        assert battles and all(b.data["rules"] == "eia-advanced" for b in battles)
        assert repo.load_world(conn, "eia-one", 2).combat_rules == "eia-advanced"
        outcome = replay_turn(conn, "eia-one", 1)
        assert outcome.identical, outcome


def test_unknown_rule_sets_are_refused_naming_the_known_ones(engine: Engine) -> None:
    scenario, _ = _fighting_scenario()
    with engine.begin() as conn, pytest.raises(DeskError) as err:
        campaigns.create_campaign(
            conn,
            "eia-two",
            scenario,
            "training",
            seed=5,
            turns=3,
            first_deadline=None,
            turn_seconds=0,
            combat_rules="eia-basic",
        )
    assert "combat_rules: 'eia-basic' is not a known rule set (pate, eia-advanced)" in str(err.value)


def test_grand1805_created_with_eia_fights_its_first_turn_and_replays(engine: Engine) -> None:
    """The grand scenario through the services' own functions: created with
    the EiA rules, every warship ordered to close and break the line, turn 1
    resolved by the resolver's stage (its battles under the EiA rules) and
    replayed byte for byte."""
    grand = load_scenario("grand1805")
    # the grand scenario ships no passwords, which the players table requires (a defect of its own)
    scenario = replace(grand, passwords=dict.fromkeys(grand.world.players, "secret"))
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            "eia-grand",
            scenario,
            "grand1805",
            seed=1805,
            turns=15,
            first_deadline=None,
            turn_seconds=0,
            combat_rules="eia-advanced",
        )
        world = repo.load_world(conn, "eia-grand", 1)
        combat = Combat(stance=CombatStance.ENGAGE, range=Range.CLOSE, line=Line.BREAK)
        ships = [
            s for s in sorted(world.ships.values(), key=lambda s: s.id) if s.active and s.type.is_warship
        ]
        for seq, s in enumerate(x for x in ships if not x.attached_to):
            repo.add_order(
                conn,
                "eia-grand",
                1,
                ShipOrder(s.id, combat=combat),
                author=s.commander or "",
                role=Author.COMMANDER,
                seq=seq,
                client_request_id=f"g{seq}",
            )
        repo.set_status(conn, "eia-grand", turn=1, expect=("STARTING",), status="OPEN")
        campaigns.close_turn(conn, "eia-grand", 1, "test", AT)
        handle_turn_closed(
            conn, events_pb2.TurnClosed(campaign_id="eia-grand", turn=1).SerializeToString(), {}
        )
        battles = [e for e in repo.load_events(conn, "eia-grand", 1) if e.kind == "battle"]
        assert battles and all(b.data["rules"] == "eia-advanced" for b in battles)
        assert replay_turn(conn, "eia-grand", 1).identical
