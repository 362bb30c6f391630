"""Small shared pieces of the bus tests: effects recorded in the audit table, bus connections."""

from __future__ import annotations

import sqlalchemy as sa
from nats.aio.client import Client
from nats.js import JetStreamContext

from services.platform import bus
from services.platform.store.db import reader
from services.platform.store.tables import audit
from services.platform.store.writes import record_audit


def record_effect(conn: sa.Connection, data: bytes, headers: dict[str, str]) -> None:
    """A handler whose only work is one audit row per message: counting rows counts effects."""
    record_audit(
        conn,
        action="effect",
        accepted=True,
        campaign=headers.get(bus.CAMPAIGN_HEADER),
        detail={"data": data.decode(), "trace": headers.get(bus.TRACE_HEADER)},
    )


def effects(engine: sa.Engine, campaign: str, action: str = "effect") -> list[str]:
    with reader(engine) as conn:
        rows = conn.execute(
            sa.select(audit.c.detail_json)
            .where(audit.c.campaign == campaign, audit.c.action == action)
            .order_by(audit.c.id)
        ).all()
    return [r.detail_json for r in rows]


async def connected(url: str, name: str = "test") -> tuple[Client, JetStreamContext]:
    nc, js = await bus.connect(url, name)
    await bus.ensure_stream(js)
    return nc, js
