"""A GITM campaign played on PATE's own store by the services' code, against the reference
land service over gRPC, with no NATS: the resolver's stage closes a turn and the bridge's
consumer delivers it, as the stream would have them do."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

from pate.v1 import events_pb2
from services.platform import bus
from services.platform.store import repository as repo
from services.platform.store import tables
from services.resolver import bridge
from services.resolver.gitm import close_clients
from services.resolver.stage import handle_turn_closed
from tests.support.campaigns import close_first_turn
from tests.support.gitm_reference import LAND_TOKEN, Reference, reference_gitm


@contextmanager
def bridged_reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Reference]:
    """The reference land service, with the resolver's settings naming it; no client of an
    earlier test (dialled elsewhere) is kept, before or after."""
    with reference_gitm(tmp_path) as land:
        monkeypatch.setenv("PATE_GITM_ADDR", land.addr)
        monkeypatch.setenv("PATE_GITM_TOKEN", LAND_TOKEN)
        close_clients()
        try:
            yield land
        finally:
            close_clients()


def deliver(conn: sa.Connection, campaign: str, turn: int) -> None:
    """The bridge's consumer delivers the turn and records it as done, as its claim would."""
    resolved = events_pb2.TurnResolved(campaign_id=campaign, turn=turn).SerializeToString()
    bridge.handle_turn_resolved(conn, resolved, {})
    msg = bus.msg_id(campaign, turn, bus.TURN_RESOLVED)
    conn.execute(sa.insert(tables.processed_messages).values(consumer=bridge.DURABLE, msg_id=msg))


def played_to_turn_2(conn: sa.Connection, campaign: str) -> None:
    """Turn 0 and turn 1 resolved and delivered; turn 2 open, as the orders service leaves it."""
    close_first_turn(conn, campaign)
    deliver(conn, campaign, 0)
    handle_turn_closed(conn, events_pb2.TurnClosed(campaign_id=campaign, turn=1).SerializeToString(), {})
    deliver(conn, campaign, 1)
    row = repo.get_campaign(conn, campaign)
    assert row is not None
    assert repo.set_status(conn, campaign, turn=row.turn, expect=(row.status,), status="OPEN", new_turn=2)
