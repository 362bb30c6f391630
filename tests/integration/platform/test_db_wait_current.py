"""The Kubernetes services wait for the migration Job instead of migrating: ``pate db
wait-current`` holds until the database is at the newest revision, and a service started with
PATE_MIGRATE_AT_START=0 refuses a database that is not."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from services.platform.config import ConfigError, load_settings
from services.platform.runtime import runner
from services.platform.store.db import head_revision, make_engine, migrate
from tests.support.servers import sqlite_url

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]


def _wait(url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATE_")}
    env.update(PYTHONPATH=str(ROOT), PATE_DATABASE_URL=url)
    return subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "db", "wait-current", *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_fresh_database_times_out_then_a_migrated_one_passes(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    started = time.monotonic()
    waited = _wait(url, "--timeout", "1.5")
    assert waited.returncode == 1, waited
    assert time.monotonic() - started >= 1.5
    assert f"not at revision {head_revision()} after 1.5 s" in waited.stdout
    assert "Traceback" not in waited.stderr

    migrate(url, "0010")  # an older release's schema is not current either
    assert _wait(url, "--timeout", "0").returncode == 1
    migrate(url)
    done = _wait(url, "--timeout", "0")
    assert done.returncode == 0, done
    assert f"the database is at revision {head_revision()}" in done.stdout


def test_the_wait_ends_as_soon_as_the_migration_does(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATE_")}
    env.update(PYTHONPATH=str(ROOT), PATE_DATABASE_URL=url)
    waiting = subprocess.Popen(
        [sys.executable, "-m", "pate.cli.main", "db", "wait-current", "--timeout", "60"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert waiting.stdout is not None
        assert "waiting for the database" in waiting.stdout.readline()
        migrate(url)
        assert waiting.wait(timeout=30) == 0
    finally:
        waiting.kill()
        waiting.wait()


def test_a_bad_timeout_is_one_line() -> None:
    refused = _wait("sqlite:///:memory:", "--timeout", "-1")
    assert refused.returncode == 2 and "--timeout -1" in refused.stderr and "Traceback" not in refused.stderr


class _Log:
    def __init__(self) -> None:
        self.lines: list[tuple[str, dict[str, Any]]] = []

    def error(self, event: str, **kw: Any) -> None:
        self.lines.append((event, kw))

    warning = info = error


def test_a_service_that_does_not_migrate_starts_only_on_a_current_database(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    migrate(url, "0016")
    engine = make_engine(url)
    log = _Log()
    try:
        assert asyncio.run(runner.current_when_reachable(engine, log, wait_s=0)) is False
        assert log.lines == [("database_not_current", {"head": head_revision(), "found": "0016"})]
        migrate(url)
        assert asyncio.run(runner.current_when_reachable(engine, log, wait_s=0)) is True
    finally:
        engine.dispose()


def test_the_start_up_migration_and_the_pools_are_settings() -> None:
    assert load_settings({}).migrate_at_start is True
    settings = load_settings(
        {"PATE_MIGRATE_AT_START": "0", "PATE_DB_POOL_SIZE": "3", "PATE_DB_MAX_OVERFLOW": "0"}
    )
    assert (settings.migrate_at_start, settings.db_pool_size, settings.db_max_overflow) == (False, 3, 0)
    for name, value in (
        ("PATE_MIGRATE_AT_START", "yes"),
        ("PATE_DB_POOL_SIZE", "0"),
        ("PATE_DB_MAX_OVERFLOW", "x"),
    ):
        with pytest.raises(ConfigError, match=name):
            load_settings({name: value})
