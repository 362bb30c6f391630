"""Group commit of submissions: many submissions, one transaction;
a failing one is rolled back alone and only its caller sees the error."""

from __future__ import annotations

import asyncio
from pathlib import Path

import sqlalchemy as sa

from services.orders.groupcommit import GroupCommitter
from services.platform.store.db import make_engine, reader

ROWS = sa.table("rows", sa.column("n", sa.Integer))


def _engine(tmp_path: Path) -> sa.Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'g.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE rows (n INTEGER PRIMARY KEY)")
    return engine


def _stored(engine: sa.Engine) -> list[int]:
    with reader(engine) as conn:
        return sorted(r.n for r in conn.execute(sa.select(ROWS.c.n)))


def test_submissions_share_commits_and_a_failure_stays_alone(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    writer = GroupCommitter(engine)

    def insert(n: int):  # type: ignore[no-untyped-def]
        def work(conn: sa.Connection) -> int:
            conn.execute(ROWS.insert().values(n=n))
            if n == 7:
                raise ValueError("refused")
            return n

        return work

    async def main() -> list[object]:
        return await asyncio.gather(*(writer.run(insert(n)) for n in range(40)), return_exceptions=True)

    results = asyncio.run(main())
    assert isinstance(results[7], ValueError)
    assert [r for i, r in enumerate(results) if i != 7] == [n for n in range(40) if n != 7]
    assert _stored(engine) == [n for n in range(40) if n != 7]
    assert writer.batches < 40  # grouped: fewer commits than submissions


def _grouped_writer(engine: sa.Engine, fail_when: int | None = None) -> GroupCommitter:
    """Grouped items are stored by one set-based call; ``fail_when`` in a group makes it raise."""

    def store_group(conn: sa.Connection, group: list[int]) -> list[object]:
        if fail_when in group:
            raise sa.exc.IntegrityError("INSERT", {}, Exception("a row another writer stored"))
        conn.execute(ROWS.insert(), [{"n": n} for n in group])
        return [ValueError("odd") if n % 2 else n for n in group]

    return GroupCommitter(engine, store_group=store_group)


def test_grouped_items_are_stored_together_and_answered_one_by_one(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    writer = _grouped_writer(engine)

    def alone(conn: sa.Connection) -> int:
        raise AssertionError("a grouped item's own work runs only when its group fails")

    async def main() -> list[object]:
        return await asyncio.gather(*(writer.run(alone, group=n) for n in range(30)), return_exceptions=True)

    results = asyncio.run(main())
    assert [r for r in results if not isinstance(r, ValueError)] == list(range(0, 30, 2))
    assert all(isinstance(results[n], ValueError) for n in range(1, 30, 2))  # its own answer, not the group's
    assert _stored(engine) == list(range(30))
    assert writer.regrouped == 0 and writer.batches < 30


def test_a_failing_group_is_done_again_item_by_item(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    writer = _grouped_writer(engine, fail_when=3)

    def alone(n: int):  # type: ignore[no-untyped-def]
        def work(conn: sa.Connection) -> int:
            if n == 3:
                raise ValueError("refused alone")
            conn.execute(ROWS.insert().values(n=100 + n))
            return 100 + n

        return work

    async def main() -> list[object]:
        return await asyncio.gather(
            *(writer.run(alone(n), group=n) for n in range(8)), return_exceptions=True
        )

    results = asyncio.run(main())
    assert writer.regrouped >= 1
    assert isinstance(results[3], ValueError)
    stored = _stored(engine)
    assert 103 not in stored and 3 not in stored  # nothing of the failed group attempt survived
    for n in range(8):
        if n != 3:  # each other item is stored once, by its group or alone
            assert (n in stored) != (100 + n in stored)
