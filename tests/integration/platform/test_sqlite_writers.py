"""Several processes writing one SQLite file: no 'database is locked', no lost update."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from services.platform.store import db
from services.platform.store.tables import audit
from tests.support.servers import sqlite_url

pytestmark = pytest.mark.integration

WRITER = """
import sys
import sqlalchemy as sa
from services.platform.store.db import make_engine
from services.platform.store.writes import record_audit
from services.platform.store.tables import audit

engine = make_engine(sys.argv[1])
for _ in range(int(sys.argv[2])):
    with engine.begin() as conn:  # read, then write: needs the write lock from the start
        last = conn.execute(sa.select(sa.func.count()).select_from(audit)).scalar_one()
        record_audit(conn, action="tick", accepted=True, detail={"n": last + 1})
"""


def test_concurrent_read_then_write_transactions_serialise(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    db.migrate(url)
    root = Path(__file__).resolve().parents[3]
    writers, rounds = 3, 40
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, url, str(rounds)], cwd=root, stderr=subprocess.PIPE)
        for _ in range(writers)
    ]
    errors = [p.communicate(timeout=120)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0] * writers, errors
    engine = db.make_engine(url)
    with db.reader(engine) as conn:
        details = conn.execute(sa.select(audit.c.detail_json)).scalars().all()
    engine.dispose()
    assert sorted(details) == sorted(f'{{"n": {n}}}' for n in range(1, writers * rounds + 1))
