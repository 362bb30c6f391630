"""Pruning old outbox rows: published rows past their retention go, batch by batch;
unpublished rows and recent ones stay; the orders process runs it every hour."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from services.orders.main import PRUNE_EVERY_SECONDS, SERVICE, _prune_outbox
from services.platform.bus.outbox import MIN_RETENTION, add_to_outbox, prune_published
from services.platform.config import ConfigError, load_settings
from services.platform.store.tables import outbox, utcnow

pytestmark = pytest.mark.integration


def _row(conn: sa.Connection, msg_id: str, published_ago: timedelta | None) -> None:
    add_to_outbox(conn, "pate.turn_closed.c", msg_id, b"", {})
    published = None if published_ago is None else utcnow() - published_ago
    conn.execute(
        sa.update(outbox)
        .where(outbox.c.msg_id == msg_id)
        .values(published_at=published, created_at=utcnow() - timedelta(days=30))
    )


def _left(engine: sa.Engine) -> list[str]:
    with engine.connect() as conn:
        return sorted(conn.execute(sa.select(outbox.c.msg_id)).scalars())


def test_only_published_rows_past_the_retention_are_deleted(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        for i in range(5):
            _row(conn, f"old-{i}", timedelta(days=8))
        _row(conn, "recent", timedelta(hours=2))
        _row(conn, "unpublished", None)
    before = REGISTRY.get_sample_value("pate_outbox_pruned_rows_total") or 0.0
    assert prune_published(engine, timedelta(days=7), batch=2) == 5
    assert REGISTRY.get_sample_value("pate_outbox_pruned_rows_total") == before + 5
    assert _left(engine) == ["recent", "unpublished"]
    assert prune_published(engine, timedelta(days=7)) == 0
    # a pruned msg_id is forgotten: only safe past the duplicate window, hence the floor
    with pytest.raises(ValueError, match="duplicate window"):
        prune_published(engine, MIN_RETENTION - timedelta(seconds=1))


def test_the_orders_process_prunes_hourly_with_the_configured_retention(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    assert any(tick is _prune_outbox for _interval, tick in SERVICE.periodic)
    (interval,) = [i for i, tick in SERVICE.periodic if tick is _prune_outbox]
    assert interval(load_settings({})) == PRUNE_EVERY_SECONDS == 3600
    with engine.begin() as conn:
        _row(conn, "two-days", timedelta(days=2))
        _row(conn, "half-day", timedelta(hours=12))
    monkeypatch.setenv("PATE_OUTBOX_RETENTION_HOURS", "24")
    asyncio.run(_prune_outbox(engine))
    assert _left(engine) == ["half-day"]


def test_the_retention_setting_has_the_duplicate_window_as_floor() -> None:
    assert load_settings({}).outbox_retention_hours == 168
    assert load_settings({"PATE_OUTBOX_RETENTION_HOURS": "48"}).outbox_retention_hours == 48
    with pytest.raises(ConfigError, match="PATE_OUTBOX_RETENTION_HOURS"):
        load_settings({"PATE_OUTBOX_RETENTION_HOURS": "12"})
