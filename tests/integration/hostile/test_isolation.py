"""One campaign's bad data cannot stall another campaign's turn.

Real NATS (a server of this test's own) and a real database: a campaign whose
id holds a newline (stored behind the service's back, as an old bug allowed)
has an outbox row NATS cannot take and a turn that cannot open; a message
whose payload is garbage keeps failing its handler.  The good campaign, whose
rows and messages come after the bad ones, still opens its turn.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.orders import campaigns as lifecycle
from services.platform import bus
from services.platform.bus.consumer import IdempotentConsumer
from services.platform.bus.natsserver import NatsServer
from services.platform.bus.outbox import add_to_outbox
from services.platform.bus.relay import OutboxRelay
from services.platform.store import repository as repo
from services.platform.store.db import reader
from services.platform.store.tables import audit, campaigns, outbox
from tests.integration.platform.helpers import connected
from tests.support.aio import eventually, run
from tests.support.passwords import EveryPlayer

pytestmark = pytest.mark.integration

BAD = "nl\n"
GOOD = "good-campaign"


def _counter(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _status(engine: sa.Engine, campaign: str) -> str:
    with reader(engine) as conn:
        return str(conn.execute(sa.select(campaigns.c.status).where(campaigns.c.id == campaign)).scalar_one())


def _open_next(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
    lifecycle.handle_reports_ready(conn, data, headers, at=datetime.now(UTC))


def _seed_bad_campaign(engine: sa.Engine) -> None:
    """What ``CreateCampaign(id="nl\\n")`` stored before ids were matched whole."""
    with engine.begin() as conn:
        conn.execute(
            campaigns.insert().values(
                id=BAD, name="bad", scenario="training", seed=1, turns=15, turn=1, status="STARTING"
            )
        )
        started = events_pb2.TurnResolved(campaign_id=BAD, turn=0).SerializeToString()
        add_to_outbox(conn, f"pate.{bus.TURN_RESOLVED}.{BAD}", f"{BAD}:0:turn_resolved", started)


def test_bad_rows_and_poison_messages_of_one_campaign_do_not_stall_another(
    engine: sa.Engine, own_nats: NatsServer
) -> None:
    _seed_bad_campaign(engine)  # its rows come first: the relay meets them before the good ones
    _create_good_campaign(engine)
    quarantined = _counter("pate_outbox_quarantined_total")
    poisoned = _counter("pate_consumer_poison_messages_total", consumer="isolation")

    async def scenario() -> None:
        nc, js = await connected(own_nats.url)
        stop = asyncio.Event()
        relay = OutboxRelay(engine, js, poll_interval=0.05)
        consumer = IdempotentConsumer(
            engine,
            js,
            "isolation",
            bus.subject(bus.REPORTS_READY, "*"),
            _open_next,
            poison_after=2,
            nak_delay=0.05,
            fetch_timeout=0.2,
            after_commit=relay.notify,
        )
        tasks = [asyncio.create_task(relay.run(stop)), asyncio.create_task(consumer.run(stop))]
        try:
            await _publish_garbage_bad_then_good(js)
            await eventually(lambda: _status(engine, GOOD) == "OPEN", timeout=20)
            await eventually(lambda: relay.published >= 2, timeout=10)  # turn 0 resolved, turn 1 opened
            await eventually(
                lambda: _counter("pate_consumer_poison_messages_total", consumer="isolation") >= poisoned + 2,
                timeout=20,
            )
        finally:
            stop.set()
            await asyncio.gather(*tasks)
            await nc.drain()

    run(scenario(), timeout=60)

    assert _status(engine, BAD) == "STARTING"  # its turn could not open; it held nobody up
    _assert_bad_rows_quarantined_and_good_ones_published(engine, quarantined)


def _create_good_campaign(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        lifecycle.create_campaign(
            conn,
            GOOD,
            load_scenario("training"),
            "training",
            seed=7,
            turns=3,
            first_deadline=None,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )


async def _publish_garbage_bad_then_good(js: Any) -> None:
    """A message no handler can read, then the bad campaign's turn, which cannot open
    (its events have no subject), then the good campaign's: published in that order."""
    for n, (token, payload) in enumerate(
        [
            ("garbage", b"\xff\x00 not a protobuf"),
            ("nl", events_pb2.ReportsReady(campaign_id=BAD, turn=0).SerializeToString()),
            (GOOD, events_pb2.ReportsReady(campaign_id=GOOD, turn=0).SerializeToString()),
        ]
    ):
        await js.publish(bus.subject(bus.REPORTS_READY, token), payload, headers={bus.MSG_ID_HEADER: f"m{n}"})


def _assert_bad_rows_quarantined_and_good_ones_published(engine: sa.Engine, quarantined: float) -> None:
    with reader(engine) as conn:
        rows = conn.execute(
            sa.select(outbox.c.subject, outbox.c.published_at, outbox.c.quarantined_at, outbox.c.error)
        ).all()
        poison = conn.execute(sa.select(audit.c.detail_json).where(audit.c.action == "poison_message")).all()
    bad = [r for r in rows if r.subject.endswith(BAD)]
    assert len(bad) == 1 and bad[0].published_at is None and bad[0].quarantined_at is not None
    assert "not a NATS subject" in bad[0].error
    good = [r for r in rows if GOOD in r.subject]
    assert len(good) == 2 and all(r.published_at is not None for r in good)
    assert _counter("pate_outbox_quarantined_total") == quarantined + 1
    assert len(poison) == 2  # the garbage and the bad campaign's turn, each terminated once
    with reader(engine) as conn:
        assert repo.get_campaign(conn, GOOD).turn == 1  # type: ignore[union-attr]


def test_a_turn_that_cannot_close_does_not_stop_the_deadlines_of_others(engine: sa.Engine) -> None:
    """The deadline scheduler closes each campaign in a savepoint of its own."""
    past = datetime(2020, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(
            campaigns.insert().values(
                id=BAD,
                name="bad",
                scenario="training",
                seed=1,
                turns=15,
                turn=1,
                status="OPEN",
                deadline=past,
            )
        )
        lifecycle.create_campaign(
            conn,
            GOOD,
            load_scenario("training"),
            "training",
            seed=7,
            turns=3,
            first_deadline=past,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        repo.set_status(conn, GOOD, turn=1, expect=("STARTING",), status="OPEN", deadline=past)
    failures = _counter("pate_deadline_close_failures_total")
    with engine.begin() as conn:
        closed = lifecycle.close_due_turns(conn, datetime.now(UTC))
    assert closed == [GOOD]
    assert _status(engine, GOOD) == "CLOSED" and _status(engine, BAD) == "OPEN"
    assert _counter("pate_deadline_close_failures_total") == failures + 1
