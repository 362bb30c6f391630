"""Events leave the database through the outbox: once, in order, and only if their transaction committed."""

from __future__ import annotations

import asyncio
import contextlib
import json
from types import SimpleNamespace

import pytest
import sqlalchemy as sa

from services.platform import bus
from services.platform.bus.natsserver import NatsServer
from services.platform.bus.outbox import add_to_outbox, pending_count
from services.platform.bus.relay import OutboxRelay, publish_waves
from services.platform.store.tables import outbox
from tests.integration.platform.helpers import connected
from tests.support.aio import run, stream_messages, unique

pytestmark = pytest.mark.integration


def _traceparent(turn: int) -> str:
    return f"00-{turn:032x}-{turn:016x}-01"


def _queue(engine: sa.Engine, campaign: str, turns: range, stage: str = bus.TURN_CLOSED) -> None:
    with engine.begin() as conn:
        for turn in turns:
            add_to_outbox(
                conn,
                bus.subject(stage, campaign),
                bus.msg_id(campaign, turn, stage),
                f"turn {turn}".encode(),
                bus.event_headers(campaign, turn, parent={"traceparent": _traceparent(turn)}),
            )


def test_duplicate_msg_id_in_the_outbox_is_a_no_op(engine: sa.Engine) -> None:
    campaign = unique()
    with engine.begin() as conn:
        args = (bus.subject(bus.TURN_CLOSED, campaign), bus.msg_id(campaign, 1, bus.TURN_CLOSED))
        assert add_to_outbox(conn, *args, b"first", {}) is True
        assert add_to_outbox(conn, *args, b"second", {}) is False
    with engine.connect() as conn:
        assert conn.execute(sa.select(outbox.c.payload)).scalars().all() == [b"first"]


def test_rolled_back_work_leaves_no_event(engine: sa.Engine) -> None:
    campaign = unique()
    with pytest.raises(RuntimeError), engine.begin() as conn:
        add_to_outbox(conn, bus.subject(bus.TURN_CLOSED, campaign), "x", b"", {})
        raise RuntimeError("the work failed")
    assert pending_count(engine) == 0


def test_relay_publishes_each_row_once_in_order_with_headers(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    _queue(engine, campaign, range(1, 6))

    async def scenario() -> list[tuple[bytes, dict[str, str]]]:
        nc, js = await connected(nats_url)
        try:
            assert await OutboxRelay(engine, js).drain() == 5
            msgs = await stream_messages(js, bus.subject(bus.TURN_CLOSED, campaign))
            return [(m.data, dict(m.headers or {})) for m in msgs]
        finally:
            await nc.close()

    published = run(scenario())
    assert [data for data, _ in published] == [f"turn {t}".encode() for t in range(1, 6)]
    for turn, (_, headers) in enumerate(published, start=1):
        assert headers[bus.MSG_ID_HEADER] == f"{campaign}:{turn}:turn_closed"
        # the trace of the work that wrote the row goes on (under the relay's publish span)
        assert headers[bus.TRACE_HEADER].split("-")[1] == f"{turn:032x}"
        assert headers[bus.TURN_HEADER] == str(turn)
    assert pending_count(engine) == 0


def test_republishing_after_a_crash_is_deduplicated_by_the_stream(engine: sa.Engine, nats_url: str) -> None:
    """A relay that died after the publish ack but before marking the rows publishes them again."""
    campaign = unique()
    _queue(engine, campaign, range(1, 4))

    async def scenario() -> int:
        nc, js = await connected(nats_url)
        try:
            await OutboxRelay(engine, js).drain()
            with engine.begin() as conn:  # forget that they were published
                conn.execute(sa.update(outbox).values(published_at=None))
            assert await OutboxRelay(engine, js).drain() == 3
            return len(await stream_messages(js, bus.subject(bus.TURN_CLOSED, campaign)))
        finally:
            await nc.close()

    assert run(scenario()) == 3
    assert pending_count(engine) == 0


def test_two_relays_on_one_database_publish_every_row_once(engine: sa.Engine, nats_url: str) -> None:
    campaign = unique()
    _queue(engine, campaign, range(1, 61))

    async def scenario() -> list[bytes]:
        conns = [await connected(nats_url, f"relay{i}") for i in range(2)]
        relays = [OutboxRelay(engine, js, batch=7, poll_interval=0.05) for _, js in conns]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(r.run(stop)) for r in relays]
        try:
            while pending_count(engine):
                await asyncio.sleep(0.05)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
        msgs = await stream_messages(conns[0][1], bus.subject(bus.TURN_CLOSED, campaign))
        for nc, _ in conns:
            await nc.close()
        return [m.data for m in msgs]

    assert run(scenario()) == [f"turn {t}".encode() for t in range(1, 61)]


def test_ensure_stream_is_idempotent_and_keeps_a_day_of_duplicates(nats_url: str) -> None:
    async def scenario() -> float:
        conns = [await bus.connect(nats_url, f"s{i}") for i in range(3)]
        await asyncio.gather(*(bus.ensure_stream(js) for _, js in conns))
        info = await conns[0][1].stream_info(bus.STREAM)
        for nc, _ in conns:
            await nc.close()
        assert info.config.subjects == ["pate.>"]
        return float(info.config.duplicate_window or 0)

    assert run(scenario()) == 24 * 3600


def test_outbox_headers_are_stored_as_json(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        add_to_outbox(conn, "pate.turn_closed.c", "m", b"", {"Pate-Trace-Id": "t"})
    with engine.connect() as conn:
        assert json.loads(conn.execute(sa.select(outbox.c.headers_json)).scalar_one()) == {
            "Pate-Trace-Id": "t"
        }


def test_rows_nats_can_never_take_are_quarantined_and_the_rest_go_on(
    engine: sa.Engine, nats_url: str
) -> None:
    campaign = unique()
    with engine.begin() as conn:
        add_to_outbox(conn, bus.subject(bus.TURN_CLOSED, campaign), "big", b"x" * (2 * 1024 * 1024))
        add_to_outbox(conn, bus.subject(bus.TURN_CLOSED, campaign), "bad-header", b"", {"X-Evil": "a\r\nb"})
        add_to_outbox(conn, f"pate.turn_closed.{campaign} x", "bad-subject", b"")
    _queue(engine, campaign, range(1, 3))

    async def scenario() -> int:
        nc, js = await connected(nats_url)
        try:
            await OutboxRelay(engine, js).drain()
            return len(await stream_messages(js, bus.subject(bus.TURN_CLOSED, campaign)))
        finally:
            await nc.drain()

    assert run(scenario()) == 2
    with engine.connect() as conn:
        rows = conn.execute(sa.select(outbox.c.msg_id, outbox.c.quarantined_at, outbox.c.error)).all()
    bad = {r.msg_id: r.error for r in rows if r.quarantined_at is not None}
    assert set(bad) == {"big", "bad-header", "bad-subject"}
    assert "exceeds" in bad["big"] and "line break" in bad["bad-header"] and "subject" in bad["bad-subject"]
    assert pending_count(engine) == 0


def test_an_outage_quarantines_nothing(engine: sa.Engine, own_nats: NatsServer) -> None:
    campaign = unique()
    _queue(engine, campaign, range(1, 3))

    async def scenario() -> None:
        nc, js = await connected(own_nats.url)
        own_nats.stop()
        try:
            with pytest.raises(Exception):  # noqa: B017 - whatever the client raises for an outage
                await OutboxRelay(engine, js, publish_timeout=0.5).drain()
        finally:
            with contextlib.suppress(Exception):
                await nc.close()

    run(scenario())
    with engine.connect() as conn:
        assert (
            conn.execute(sa.select(sa.func.count()).where(outbox.c.quarantined_at.is_not(None))).scalar() == 0
        )
    assert pending_count(engine) == 2


def test_a_batch_goes_out_in_waves_that_keep_each_subject_in_id_order() -> None:
    """Rows of a batch are in flight together, but never two of one subject: the n-th row of
    a subject goes in the n-th wave, after the earlier waves were acknowledged."""
    rows = [SimpleNamespace(id=i, subject=s) for i, s in enumerate(["a", "b", "a", "c", "a", "b"], 1)]
    waves = publish_waves(rows)  # type: ignore[arg-type]
    assert [[r.id for r in wave] for wave in waves] == [[1, 2, 4], [3, 6], [5]]
    assert publish_waves([]) == []
