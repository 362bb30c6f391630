"""The deadline watcher closes a due turn from the row it read (services/orders/campaigns.py):
the status change is its own check, so a turn another process closed in between is not
closed twice, and the row it returns is the closed one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select

from pate.datafiles import load_scenario
from services.orders import campaigns
from services.platform.errors import DeskError
from services.platform.store import repository as repo
from services.platform.store import tables
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
C = "due"


def _open(engine: Engine) -> None:
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            C,
            load_scenario("training"),
            "training",
            seed=5,
            turns=3,
            first_deadline=AT,
            turn_seconds=86400,
            password_hashes=EveryPlayer(),
        )
        repo.set_status(conn, C, turn=1, expect=("STARTING",), status="OPEN")


def _closed_events(engine: Engine) -> int:
    t = tables.outbox
    with engine.connect() as conn:
        found = select(func.count()).select_from(t).where(t.c.subject.like(f"%turn_closed%{C}%"))
        return int(conn.execute(found).scalar() or 0)


def test_the_watcher_closes_a_due_turn_once(engine: Engine) -> None:
    _open(engine)
    with engine.begin() as conn:
        assert campaigns.close_due_turns(conn, AT - timedelta(seconds=1)) == []
        assert campaigns.close_due_turns(conn, AT) == [C]
        assert campaigns.close_due_turns(conn, AT) == []
    with engine.connect() as conn:
        row = repo.get_campaign(conn, C)
    assert row is not None and (row.turn, row.status) == (1, "CLOSED")
    assert _closed_events(engine) == 1


def test_a_turn_closed_after_the_watcher_read_it_is_not_closed_again(engine: Engine) -> None:
    _open(engine)
    with engine.begin() as conn:
        (stale,) = repo.due_campaigns(conn, AT)
        closed = campaigns.close_turn(conn, C, 1, "admin", AT)
        assert (closed.turn, closed.status) == (1, "CLOSED")
        with pytest.raises(DeskError, match="no longer OPEN"):
            campaigns.close_turn(conn, C, 1, "deadline", AT, due=stale)
    assert _closed_events(engine) == 1
