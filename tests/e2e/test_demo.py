"""`make run` (pate demo) on embedded defaults: its own nats-server, SQLite, four services."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


def test_the_demo_plays_a_turn_and_stops_cleanly(tmp_path: Path) -> None:
    work = tmp_path / "demo"
    run = subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "demo", "--exit", "--workdir", str(work)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "turn 1 closed, resolved and reported" in run.stdout
    assert "stopped cleanly" in run.stdout
    assert "turn 2: the French side (allemand, decres, ganteaume) played by the bot admiral" in run.stdout
    html = (work / "reports" / "cornwallis-turn-1.html").read_text()
    assert "<svg" in html and "BR1FR" in html
    text = (work / "reports" / "barham-turn-1.txt").read_text()
    assert "Battle in the English Channel" in text
    # a landing, through the reference GITM land service started beside the services
    assert "BR1TR Portsmouth transports unloaded BR1IN at Portsmouth (rule 3.9)" in text
    assert "BR1TR landed BR1IN at Portsmouth" in run.stdout
    assert (
        "GITM (reference land service, told of turn 1): BR1IN in Portsmouth, BR5IN aboard BR1TR" in run.stdout
    )
