"""A campaign created with ``naval_rules = "eia-operations"`` through the order
desk's campaign creation, its operations stored as orders, resolved by the
resolver's stage and replayed byte for byte: the stored world names its naval
rules, so the replay plays them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Connection, Engine

from pate.core.orders.effective import Author
from pate.core.orders.model import ShipOrder
from pate.core.rules.eiaops.choices import bot_operations
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.v1 import events_pb2
from services.orders import campaigns
from services.orders.servicer import campaign_pb
from services.platform.errors import DeskError
from services.platform.store import repository as repo
from services.resolver.replay import replay_turn
from services.resolver.stage import handle_turn_closed
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 1, 1, tzinfo=UTC)
CTX = turn_context()


def _create(conn: Connection, campaign: str, scenario: str, turns: int, naval_rules: str) -> None:
    campaigns.create_campaign(
        conn,
        campaign,
        load_scenario(scenario),
        scenario,
        seed=5,
        turns=turns,
        first_deadline=None,
        turn_seconds=0,
        naval_rules=naval_rules,
        password_hashes=EveryPlayer(),
    )


def _order(conn: Connection, campaign: str, turn: int, world: WorldState, orders: list[ShipOrder]) -> None:
    for seq, order in enumerate(orders):
        ship = world.ships[order.ship_id]
        row = repo.order_row(
            campaign,
            turn,
            order,
            author=ship.commander or "",
            role=Author.COMMANDER,
            seq=seq,
            client_request_id=f"o{turn}-{seq}",
        )
        repo.add_orders(conn, [row])


def _bot(world: WorldState) -> list[ShipOrder]:
    ops = bot_operations(CTX.map, world, OpsRules.from_rules(CTX.rules), world.seed)
    return [ShipOrder(sid, operation=op) for sid, op in sorted(ops.items())]


def test_created_with_operations_the_turn_plays_them_and_replays_identically(engine: Engine) -> None:
    with engine.begin() as conn:
        _create(conn, "ops-one", "training", 3, "eia-operations")
        row = repo.get_campaign(conn, "ops-one")
        assert row is not None and row.naval_rules == "eia-operations"
        assert campaign_pb(row).naval_rules == "eia-operations"
        world = repo.load_world(conn, "ops-one", 1)
        assert world.naval_rules == "eia-operations"
        _order(conn, "ops-one", 1, world, _bot(world))
        repo.set_status(conn, "ops-one", turn=1, expect=("STARTING",), status="OPEN")
        campaigns.close_turn(conn, "ops-one", 1, "test", AT)
        handle_turn_closed(conn, events_pb2.TurnClosed(campaign_id="ops-one", turn=1).SerializeToString(), {})
        revealed = [e for e in repo.load_events(conn, "ops-one", 1) if e.kind == "operation_revealed"]
        assert len(revealed) >= 5
        assert repo.load_world(conn, "ops-one", 2).naval_rules == "eia-operations"
        outcome = replay_turn(conn, "ops-one", 1)
        assert outcome.identical, outcome


def test_unknown_naval_rules_are_refused_naming_the_known_ones(engine: Engine) -> None:
    with engine.begin() as conn, pytest.raises(DeskError) as err:
        _create(conn, "ops-two", "training", 3, "eia-basic")
    assert "naval_rules: 'eia-basic' is not a known rule set (pate, eia-operations)" in str(err.value)


@pytest.mark.slow
def test_grand1805_under_operations_plays_15_turns_through_the_services_and_replays(engine: Engine) -> None:
    """The grand scenario through the services' own functions: created under
    the operations rules, a bot's operation for every fleet each turn (order
    intake), each turn closed, resolved by the resolver's stage and replayed
    byte for byte (turns 1, 8 and 15), fifteen times."""
    with engine.begin() as conn:
        _create(conn, "ops-grand", "grand1805", 15, "eia-operations")
        campaigns.handle_reports_ready(
            conn, events_pb2.ReportsReady(campaign_id="ops-grand", turn=0).SerializeToString(), {}, at=AT
        )
    battles = 0
    for turn in range(1, 16):
        with engine.begin() as conn:
            world = repo.load_world(conn, "ops-grand", turn)
            _order(conn, "ops-grand", turn, world, _bot(world))
            campaigns.close_turn(conn, "ops-grand", turn, "test", AT)
            closed = events_pb2.TurnClosed(campaign_id="ops-grand", turn=turn)
            handle_turn_closed(conn, closed.SerializeToString(), {})
            battles += sum(1 for e in repo.load_events(conn, "ops-grand", turn) if e.kind == "column_battle")
            if turn in (1, 8, 15):
                assert replay_turn(conn, "ops-grand", turn).identical, turn
            repo.set_status(conn, "ops-grand", turn=turn, expect=("RESOLVED",), status="REPORTED")
            ready = events_pb2.ReportsReady(campaign_id="ops-grand", turn=turn)
            campaigns.handle_reports_ready(conn, ready.SerializeToString(), {}, at=AT)
    with engine.begin() as conn:
        row = repo.get_campaign(conn, "ops-grand")
        assert row is not None and row.status == "FINISHED"
    assert battles


def test_column_orders_are_stored_played_and_replayed_identically(engine: Engine) -> None:
    """Column orders (docs/rules/eia-operations.md, "Column orders") go through the store
    whole: every fleet's operation with its ships in one column and a plan; the turn plays,
    the orders load back as given, and the replay is identical byte for byte."""
    from dataclasses import replace

    from pate.core.orders.operation import Column, ColumnAction, ColumnStep, Condition
    from pate.core.rules.eiaops.declare import fleet_of

    plan = (
        ColumnStep(ColumnAction.ATTACK, "carrying"),
        ColumnStep(ColumnAction.EVADE, "", Condition.OUTNUMBERED),
    )
    with engine.begin() as conn:
        _create(conn, "ops-cols", "training", 3, "eia-operations")
        world = repo.load_world(conn, "ops-cols", 1)
        orders = []
        for o in _bot(world):
            fleet = fleet_of(world, world.ships[o.ship_id])
            assert fleet is not None and o.operation is not None
            warships = tuple(s for s in fleet.ships if world.ships[s].type.value != "TR")
            convoy = tuple(s for s in fleet.ships if world.ships[s].type.value == "TR")
            columns = tuple(Column(c, plan=plan) for c in (warships, convoy) if c)
            orders.append(replace(o, operation=replace(o.operation, columns=columns)))
        _order(conn, "ops-cols", 1, world, orders)
        stored = {r.order.ship_id: r.order for r in repo.submitted_orders(conn, "ops-cols", 1)}
        assert all(stored[o.ship_id].operation == o.operation for o in orders)
        assert orders and all(o.operation is not None and o.operation.columns for o in orders)
        repo.set_status(conn, "ops-cols", turn=1, expect=("STARTING",), status="OPEN")
        campaigns.close_turn(conn, "ops-cols", 1, "test", AT)
        handle_turn_closed(
            conn, events_pb2.TurnClosed(campaign_id="ops-cols", turn=1).SerializeToString(), {}
        )
        assert [e for e in repo.load_events(conn, "ops-cols", 1) if e.kind == "operation_revealed"]
        outcome = replay_turn(conn, "ops-cols", 1)
        assert outcome.identical, outcome
