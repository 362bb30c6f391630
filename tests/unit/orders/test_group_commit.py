"""Group commit of submissions (issue 15): many submissions, one transaction;
a failing one is rolled back alone and only its caller sees the error."""

from __future__ import annotations

import asyncio
from pathlib import Path

import sqlalchemy as sa

from services.common.db import make_engine, reader
from services.orders.groupcommit import GroupCommitter

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
