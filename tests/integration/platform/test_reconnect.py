"""NATS goes away while a relay and a consumer run: they reconnect and nothing is lost or doubled."""

from __future__ import annotations

import asyncio
import json

import pytest
import sqlalchemy as sa

from services.platform import bus
from services.platform.bus.consumer import IdempotentConsumer
from services.platform.bus.natsserver import NatsServer
from services.platform.bus.outbox import add_to_outbox, pending_count
from services.platform.bus.relay import OutboxRelay
from tests.integration.platform.helpers import connected, effects, record_effect
from tests.support.aio import eventually, run, unique

pytestmark = pytest.mark.integration


def _queue(engine: sa.Engine, campaign: str, turns: range) -> None:
    with engine.begin() as conn:
        for turn in turns:
            add_to_outbox(
                conn,
                bus.subject(bus.TURN_CLOSED, campaign),
                bus.msg_id(campaign, turn, bus.TURN_CLOSED),
                f"turn {turn}".encode(),
                bus.event_headers(campaign, turn),
            )


def test_relay_and_consumer_survive_a_nats_restart(engine: sa.Engine, own_nats: NatsServer) -> None:
    campaign = unique()

    async def scenario() -> None:
        nc1, js1 = await connected(own_nats.url, "relay")
        nc2, js2 = await connected(own_nats.url, "worker")
        relay = OutboxRelay(engine, js1, poll_interval=0.1, max_backoff=0.5)
        consumer = IdempotentConsumer(
            engine, js2, unique("d"), bus.subject(bus.TURN_CLOSED, campaign), record_effect, nak_delay=0.1
        )
        stop = asyncio.Event()
        tasks = [asyncio.create_task(relay.run(stop)), asyncio.create_task(consumer.run(stop))]

        _queue(engine, campaign, range(1, 6))
        await eventually(lambda: len(effects(engine, campaign)) == 5)

        await asyncio.to_thread(own_nats.stop)
        _queue(engine, campaign, range(6, 11))  # written while the bus is down
        await asyncio.sleep(1.5)
        assert pending_count(engine) == 5  # nothing marked published without an ack
        await asyncio.to_thread(own_nats.start)

        _queue(engine, campaign, range(11, 16))
        await eventually(lambda: len(effects(engine, campaign)) >= 15, timeout=60)
        await asyncio.sleep(1.0)  # room for any duplicate to show up
        stop.set()
        await asyncio.gather(*tasks)
        await nc1.close()
        await nc2.close()

    run(scenario(), timeout=120)
    datas = [json.loads(d)["data"] for d in effects(engine, campaign)]
    assert sorted(datas) == sorted(f"turn {t}" for t in range(1, 16))
    assert pending_count(engine) == 0


def test_a_consumer_started_while_nats_is_down_waits_for_it(engine: sa.Engine, own_nats: NatsServer) -> None:
    campaign = unique()

    async def scenario() -> None:
        nc, js = await connected(own_nats.url, "worker")
        await asyncio.to_thread(own_nats.stop)
        consumer = IdempotentConsumer(
            engine, js, unique("d"), bus.subject(bus.TURN_CLOSED, campaign), record_effect
        )
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        await asyncio.sleep(1.0)
        await asyncio.to_thread(own_nats.start)
        _queue(engine, campaign, range(1, 4))
        nc_relay, js_relay = await connected(own_nats.url, "relay")
        await OutboxRelay(engine, js_relay).drain()
        await eventually(lambda: consumer.processed == 3, timeout=60)
        stop.set()
        await task
        await nc.close()
        await nc_relay.close()

    run(scenario(), timeout=120)
    assert len(effects(engine, campaign)) == 3
