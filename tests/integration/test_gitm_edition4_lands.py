"""The five independent land services of edition 4 (`examples/gitm_land4` to `8`, each
written by an engineer who read only docs/gitm.md, the proto and the kit's output; their guesses
are in their GUESSES.md) keep every obligation of `pate gitm check`, across real restarts of their
processes: the contract of edition 4, not PATE's reference service, is what a land team builds
from."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from pate.cli.gitm import restarter
from pate.gitmkit.check import NAMES, passed, run_suite

ROOT = Path(__file__).resolve().parents[2]
TOKEN = secrets.token_hex(16)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _launch(name: str) -> Callable[[Path, str], tuple[list[str], str]]:
    """The command line of a service that takes ``--pid-file`` and whose restart.sh takes
    PID_FILE ADDR DB TOKEN LOG (gitm_land5 alone orders them otherwise)."""

    def launch(tmp: Path, addr: str) -> tuple[list[str], str]:
        pid, db, log = tmp / "pid", tmp / "land.db", tmp / "log"
        args = [f"examples.{name}", "--addr", addr, "--db", str(db), "--token", TOKEN, "--pid-file", str(pid)]
        return args, f"sh {ROOT / 'examples' / name / 'restart.sh'} {pid} {addr} {db} {TOKEN} {log}"

    return launch


def _land5(tmp: Path, addr: str) -> tuple[list[str], str]:
    pid, db, log = tmp / "pid", tmp / "land.db", tmp / "log"
    args = ["examples.gitm_land5", "--addr", addr, "--db", str(db), "--token", TOKEN, "--pidfile", str(pid)]
    return args, f"sh {ROOT / 'examples/gitm_land5/restart.sh'} {addr} {db} {TOKEN} {pid} {log}"


LANDS = {
    "gitm_land4": _launch("gitm_land4"),
    "gitm_land5": _land5,
    "gitm_land6": _launch("gitm_land6"),
    "gitm_land7": _launch("gitm_land7"),
    "gitm_land8": _launch("gitm_land8"),
}


@pytest.fixture(params=list(LANDS.values()), ids=list(LANDS))
def land(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, str]]:
    """The service as its own process; the restart command its own restart.sh."""
    monkeypatch.setenv("PATE_GITM_TOKEN", TOKEN)
    monkeypatch.setenv("PYTHON", sys.executable)  # for restart.sh
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.chdir(ROOT)  # restart.sh of gitm_land5 runs from the root
    addr = f"127.0.0.1:{_free_port()}"
    args, restart = request.param(tmp_path, addr)
    with (tmp_path / "log").open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", *args], cwd=ROOT, env=dict(os.environ), stdout=out, stderr=out
        )
    with grpc.insecure_channel(addr) as channel:
        grpc.channel_ready_future(channel).result(timeout=60)
    pid = tmp_path / "pid"
    try:
        yield addr, restart
    finally:
        proc.terminate()
        if pid.exists() and pid.read_text().strip():  # the restarted process, not this one's child
            subprocess.run(["kill", pid.read_text().strip()], check=False)
        proc.wait(timeout=30)


def test_the_kit_passes_against_an_edition_4_land_service_written_from_the_document(
    land: tuple[str, str],
) -> None:
    addr, command = land
    rows = run_suite(addr, "land4", "Portsmouth", token=TOKEN, restart=restarter(command, addr))
    assert passed(rows), [(r.name, r.detail) for r in rows if not r.passed]
    assert not any(r.skipped for r in rows)  # every obligation of edition 4, L16 across restarts
    assert len(rows) == len(NAMES)
