"""The GITM land bridge against a real local gitm.v1 server, a real database,
and (last test) real NATS JetStream with the idempotent consumer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from pate.core.events import Event
from pate.core.rules.turn import resolve_turn
from pate.core.world.ships import Cargo
from pate.v1 import events_pb2
from services.common import bus, tracing
from services.common import repository as repo
from services.common.consumer import IdempotentConsumer, TransientError
from services.common.tables import audit
from services.resolver import bridge
from services.resolver.gitm import Begin, Complete
from tests.cases.turn.turn_world import CTX, harbor, infantry, load, ship, unload, world
from tests.support.aio import eventually, run, unique
from tests.support.gitm_server import LandService, gitm_server


def _turn_events(campaign: str) -> list[Event]:
    """A real turn: BR1TR unloads at Portsmouth (on-map), FR1TR loads at Martinique (off-map),
    FR2TR's load at Brest is lost when it sails out."""
    ships = [
        ship("BR1TR", harbor("Portsmouth"), cargo=Cargo(("BR1IN",), 2, 1040)),
        ship("FR1TR", harbor("Martinique")),
        ship("FR2TR", harbor("Brest")),
    ]
    units = [infantry("BR1IN", 1000), infantry("FR1IN", 1000), infantry("FR2IN", 1000)]
    ports = {"Martinique": {"garrison": ("FR1IN",)}, "Brest": {"garrison": ("FR2IN",)}}
    w = world(ships, ports=ports, units=units, campaign=campaign)
    from pate.core.orders.model import Movement

    orders = {
        "BR1TR": unload("BR1TR", "BR1IN", supplies=2),
        "FR1TR": load("FR1TR", "FR1IN"),
        "FR2TR": load("FR2TR", "FR2IN", movement=Movement(("ECH",))),
    }
    return list(resolve_turn(CTX, w, orders).events)


def _store(engine: sa.Engine, campaign: str, events: list[Event]) -> None:
    with engine.begin() as conn:
        repo.insert_campaign(
            conn, repo.CampaignRow(campaign, campaign, "training", 1, 15, 2, "RESOLVED", None, 0)
        )
        repo.save_events(conn, campaign, 1, events)


def _resolved(campaign: str) -> bytes:
    return events_pb2.TurnResolved(
        campaign_id=campaign, turn=1, state_sha256="x", events=1
    ).SerializeToString()


@pytest.fixture
def gitm(monkeypatch: pytest.MonkeyPatch) -> Iterator[LandService]:
    with gitm_server() as (addr, service):
        monkeypatch.setenv("PATE_GITM_ADDR", addr)
        yield service


def test_transfer_calls_are_the_on_map_transfers_begin_before_complete() -> None:
    calls = bridge.transfer_calls("c1", 1, _turn_events("c1"))
    assert calls == [
        Begin("c1:1:BR1TR:1", "c1", 1, "Portsmouth", "BR1TR", "unload", ("BR1IN",), 2),
        Begin("c1:1:FR2TR:1", "c1", 1, "Brest", "FR2TR", "load", ("FR2IN",), 0),
        Complete("c1:1:BR1TR:1", cancelled=False),
        Complete("c1:1:FR2TR:1", cancelled=True),
    ]


def test_the_bridge_delivers_a_committed_turn_and_a_second_delivery_changes_nothing(
    engine: sa.Engine, gitm: LandService
) -> None:
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    tracing.configure_tracing("resolver")
    with tracing.span("turn resolved") as current:
        for _ in range(2):
            with engine.begin() as conn:
                bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    trace_id = f"{current.get_span_context().trace_id:032x}"
    ids = [f"{campaign}:1:BR1TR:1", f"{campaign}:1:FR2TR:1"]
    assert [c for c in gitm.calls[:4]] == [
        ("BeginTransfer", ids[0]),
        ("BeginTransfer", ids[1]),
        ("CompleteTransfer", ids[0]),
        ("CompleteTransfer", ids[1]),
    ]
    assert sorted(gitm.transfers) == ids
    assert [(t.completed, t.cancelled) for t in (gitm.transfers[i] for i in ids)] == [
        (True, False),
        (True, True),
    ]
    # every call carries the W3C trace context of the turn
    assert gitm.metadata and all(m["traceparent"].split("-")[1] == trace_id for m in gitm.metadata)


def test_nothing_is_called_without_a_gitm_address(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    with gitm_server() as (_addr, service):
        monkeypatch.setenv("PATE_GITM_ADDR", "")
        with engine.begin() as conn:
            bridge.handle_turn_resolved(conn, _resolved(campaign), {})
        assert service.calls == []


def test_gitm_unavailable_is_a_transient_error_and_the_retry_completes(
    engine: sa.Engine, gitm: LandService
) -> None:
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    gitm.outages = 1
    with pytest.raises(TransientError), engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    with engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    assert len(gitm.transfers) == 2 and all(t.completed for t in gitm.transfers.values())


def test_gitm_down_altogether_is_transient(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    with gitm_server() as (addr, _service):
        pass  # started and stopped: nothing listens at addr any more
    monkeypatch.setenv("PATE_GITM_ADDR", addr)
    with pytest.raises(TransientError), engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})


def test_a_refused_transfer_is_audited_and_the_others_go_on(engine: sa.Engine, gitm: LandService) -> None:
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    gitm.refuse.add(f"{campaign}:1:BR1TR:1")
    with engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    assert len(gitm.calls) == 4
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(audit.c.action, audit.c.campaign).where(audit.c.campaign == campaign)
        ).all()
    assert [r.action for r in rows] == [
        "gitm_transfer_refused",
        "gitm_transfer_refused",
    ]  # begin and complete


def test_the_bridge_as_a_stage_on_the_bus(engine: sa.Engine, nats_url: str, gitm: LandService) -> None:
    """The one line for services/resolver/main.py, run as the runner would: a durable consumer of
    turn_resolved whose handler is the bridge; a re-published event is skipped."""
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))

    async def scenario() -> IdempotentConsumer:
        nc, js = await bus.connect(nats_url, "test")
        await bus.ensure_stream(js)
        consumer = IdempotentConsumer(
            engine, js, unique("d"), bus.subject(bus.TURN_RESOLVED, campaign), bridge.handle_turn_resolved
        )
        headers = {
            bus.MSG_ID_HEADER: bus.msg_id(campaign, 1, bus.TURN_RESOLVED),
            **bus.event_headers(campaign, 1),
        }
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        for _ in range(2):
            await js.publish(bus.subject(bus.TURN_RESOLVED, campaign), _resolved(campaign), headers=headers)
        await eventually(lambda: consumer.processed == 1 and len(gitm.calls) == 4)
        stop.set()
        await task
        await nc.drain()
        return consumer

    consumer = run(scenario())
    assert consumer.processed == 1
    assert all(t.completed for t in gitm.transfers.values())
