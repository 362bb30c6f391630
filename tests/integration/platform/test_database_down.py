"""A database that does not answer, at a service's start or under an operator's command (as in
a failover): one log line or one message a try, naming the driver's error class, and a plain
exit; never a traceback, a statement or the host."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from services.platform.config import load_settings
from services.platform.runtime import runner
from services.platform.store.db import make_engine
from services.platform.telemetry.logging import configure_logging

# a port on which nothing listens: the connection is refused at once
DOWN = "postgresql://pate:secret-word@127.0.0.1:9/pate"


def test_a_service_waits_for_the_database_then_gives_up_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines: list[dict[str, Any]] = []

    class Log:
        def warning(self, event: str, **kw: Any) -> None:
            lines.append({"event": event, "level": "warning", **kw})

        def error(self, event: str, **kw: Any) -> None:
            lines.append({"event": event, "level": "error", **kw})

        def info(self, event: str, **kw: Any) -> None:
            lines.append({"event": event, "level": "info", **kw})

    engine = make_engine(DOWN)
    try:
        ok = asyncio.run(runner.migrated_when_reachable(engine, Log(), wait_s=1.0))
    finally:
        engine.dispose()
    assert ok is False
    assert [x["level"] for x in lines] == ["warning", "warning", "error"]  # tries at 0, 0.5, 1.5 s
    assert {x["event"] for x in lines} == {"database_unreachable"}
    assert lines[-1]["error"] == "OperationalError" and lines[-1]["gave_up_after_s"] == 1.5
    text = json.dumps(lines) + capsys.readouterr().err
    assert "secret-word" not in text and "127.0.0.1" not in text and "Traceback" not in text


def test_an_operator_command_says_the_database_is_down_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PATE_DATABASE_URL": DOWN}
    done = subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "turn", "stuck"],
        env=env,
        check=False,
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pate: the database cannot be reached (OperationalError)")
    assert "secret-word" not in done.stderr and "Traceback" not in done.stderr


def test_alembic_says_nothing_at_info() -> None:
    configure_logging("test", load_settings())
    assert not logging.getLogger("alembic").isEnabledFor(logging.INFO)
