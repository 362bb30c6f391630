"""Several processes writing one SQLite file: no 'database is locked', no lost update."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from services.common import db
from services.common.tables import audit
from tests.support.servers import sqlite_url

pytestmark = pytest.mark.integration

WRITER = """
import sys
import sqlalchemy as sa
from services.common.db import make_engine
from services.common.store import record_audit
from services.common.tables import audit

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


HOLDER = """
import sys, time
from services.common.db import make_engine

with make_engine(sys.argv[1]).begin() as conn:
    print("holding", flush=True)
    time.sleep(60)
"""


def _lock_file(folder: Path) -> Path:
    return folder / "pate.db-writers.lock"


def test_a_writer_waits_for_the_one_before_it_and_starts_when_it_commits(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    db.migrate(url)
    engine = db.make_engine(url, pool_size=2)
    events: list[str] = []
    first = engine.connect()
    first.begin()
    started = threading.Event()

    def second() -> None:
        started.set()
        with engine.begin():
            events.append("second began")

    t = threading.Thread(target=second)
    t.start()
    started.wait()
    time.sleep(0.2)
    events.append("first commits")  # the second is still queued
    first.commit()
    t.join(timeout=10)
    first.close()
    engine.dispose()
    assert events == ["first commits", "second began"]
    assert _lock_file(tmp_path).exists()  # the queue is the lock file beside the database


def test_the_queue_is_let_go_on_rollback_close_and_a_failed_begin(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    db.migrate(url)
    engine = db.make_engine(url)
    for end in ("rollback", "close"):
        conn = engine.connect()
        conn.begin()
        getattr(conn, end)()
        fd = os.open(_lock_file(tmp_path), os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again: raises if still held
        finally:
            os.close(fd)
    engine.dispose()


def test_a_thread_that_holds_the_queue_is_refused_at_once_not_left_waiting_for_itself(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    db.migrate(url)
    engine = db.make_engine(url, pool_size=2)
    with engine.begin():
        t0 = time.monotonic()
        with (
            pytest.raises(sa.exc.OperationalError, match="another transaction of this thread"),
            engine.begin(),
        ):
            pass
        assert time.monotonic() - t0 < 5  # not SQLite's 30 s busy timeout
    with engine.begin() as conn:  # and the first one's commit let the queue go
        conn.exec_driver_sql("SELECT 1")
    engine.dispose()


def test_a_writer_killed_in_its_transaction_does_not_hold_the_others(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    db.migrate(url)
    root = Path(__file__).resolve().parents[3]
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, url], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == b"holding"
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
        engine = db.make_engine(url)
        with engine.begin() as conn:
            conn.exec_driver_sql("SELECT 1")
        engine.dispose()
    finally:
        holder.kill()
