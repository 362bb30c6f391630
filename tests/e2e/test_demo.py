"""`make run` (pate demo) on embedded defaults: its own nats-server, SQLite, four services."""

from __future__ import annotations

import signal
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
    # a new user finds a published campaign in the lobby, and the sign-up's mail in a folder
    assert "the lobby: demo-lobby is published with 6 open seats, first come" in run.stdout
    assert f"is written to {work / 'mail'}" in run.stdout
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


def _processes_of(workdir: Path) -> list[int]:
    """Processes whose command line or environment names the demo's folder."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            seen = (proc / "cmdline").read_bytes() + (proc / "environ").read_bytes()
        except OSError:  # gone, or not ours to read
            continue
        if str(workdir).encode() in seen:
            found.append(int(proc.name))
    return found


def test_sigterm_stops_the_demo_with_nats_server_and_every_service(tmp_path: Path) -> None:
    """A process manager, CI or `timeout` sends SIGTERM, not Ctrl-C."""
    work = tmp_path / "demo-term"
    demo = subprocess.Popen(
        [sys.executable, "-m", "pate.cli.main", "demo", "--workdir", str(work)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert demo.stdout is not None
        for line in demo.stdout:
            if line.startswith("services up"):
                break
        else:
            pytest.fail("the demo did not start its services")
        assert len(_processes_of(work)) >= 8  # nats-server and the services
        demo.send_signal(signal.SIGTERM)
        rest = demo.communicate(timeout=60)[0]
    finally:
        if demo.poll() is None:
            demo.kill()
    assert demo.returncode == 0, rest
    assert "stopped cleanly" in rest
    assert _processes_of(work) == []
