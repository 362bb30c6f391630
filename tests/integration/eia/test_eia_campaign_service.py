"""A campaign created with ``combat_rules = "eia-advanced"`` through the order
desk's campaign creation, resolved by the resolver's stage and replayed byte
for byte: the stored world names its rule set, so the replay uses it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import Connection, Engine

from pate.core.orders.effective import Author
from pate.core.orders.model import Combat, CombatStance, Line, Range, ShipOrder
from pate.core.world.ships import AtSea
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.orders import campaigns
from services.platform.errors import DeskError
from services.platform.store import repository as repo
from services.resolver.replay import replay_turn
from services.resolver.stage import handle_turn_closed
from tests.support.passwords import EveryPlayer

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
            password_hashes=EveryPlayer(),
        )
        world = repo.load_world(conn, "eia-one", 1)
        assert world.combat_rules == "eia-advanced"
        for seq, sid in enumerate(ids):
            combat = Combat(stance=CombatStance.ENGAGE, range=Range.CLOSE, line=Line.BREAK)
            repo.add_orders(
                conn,
                [
                    repo.order_row(
                        "eia-one",
                        1,
                        ShipOrder(sid, combat=combat),
                        author=world.ships[sid].commander or "",
                        role=Author.COMMANDER,
                        seq=seq,
                        client_request_id=f"r{seq}",
                    )
                ],
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
            password_hashes=EveryPlayer(),
        )
    assert (
        "combat_rules: 'eia-basic' is not a known rule set (pate, eia-advanced, eia-advanced-revolution)"
        in str(err.value)
    )


@pytest.mark.slow
def test_grand1805_created_with_eia_plays_15_turns_through_the_services_and_replays(engine: Engine) -> None:
    """The grand scenario through the services' own functions: created with
    the EiA rules (the order desk), every warship ordered to close and break
    the line each turn (order intake), each turn closed, resolved by the
    resolver's stage (its battles under the EiA rules), replayed byte for byte
    (``pate turn replay``, turns 1, 8 and 15) and the next turn opened,
    fifteen times."""
    grand = load_scenario("grand1805")
    scenario = grand
    combat = Combat(stance=CombatStance.ENGAGE, range=Range.CLOSE, line=Line.BREAK)
    battles: list[str] = []
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
            password_hashes=EveryPlayer(),
        )
        ready = events_pb2.ReportsReady(campaign_id="eia-grand", turn=0)
        campaigns.handle_reports_ready(conn, ready.SerializeToString(), {}, at=AT)
    for turn in range(1, 16):
        with engine.begin() as conn:
            world = repo.load_world(conn, "eia-grand", turn)
            assert world.combat_rules == "eia-advanced"
            _order_every_warship(conn, "eia-grand", turn, world, combat)
            campaigns.close_turn(conn, "eia-grand", turn, "test", AT)
            closed = events_pb2.TurnClosed(campaign_id="eia-grand", turn=turn)
            handle_turn_closed(conn, closed.SerializeToString(), {})
            battles += [
                e.data["rules"] for e in repo.load_events(conn, "eia-grand", turn) if e.kind == "battle"
            ]
            if turn in (1, 8, 15):  # a sample, to keep the test short
                assert replay_turn(conn, "eia-grand", turn).identical, turn
            repo.set_status(conn, "eia-grand", turn=turn, expect=("RESOLVED",), status="REPORTED")
            ready = events_pb2.ReportsReady(campaign_id="eia-grand", turn=turn)
            campaigns.handle_reports_ready(conn, ready.SerializeToString(), {}, at=AT)
    with engine.begin() as conn:
        row = repo.get_campaign(conn, "eia-grand")
        assert row is not None and row.status == "FINISHED"
    assert battles and set(battles) == {"eia-advanced"}


def _order_every_warship(
    conn: Connection, campaign: str, turn: int, world: WorldState, combat: Combat
) -> None:
    """Each active warship at the head of its group, in id order, takes ``combat``."""
    ships = sorted(world.ships.values(), key=lambda s: s.id)
    fleet = [s for s in ships if s.active and s.type.is_warship and not s.attached_to]
    for seq, s in enumerate(fleet):
        order = ShipOrder(s.id, combat=combat)
        repo.add_orders(
            conn,
            [
                repo.order_row(
                    campaign,
                    turn,
                    order,
                    author=s.commander or "",
                    role=Author.COMMANDER,
                    seq=seq,
                    client_request_id=f"g{turn}-{seq}",
                )
            ],
        )
