"""A launcher killed outright takes its children along (services/platform/processes.py): a
service started with PATE_LAUNCHER_PID asks Linux for SIGTERM when its launcher dies, and
nats-server is started through setpriv's parent-death signal."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.platform.processes import dying_with_launcher

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux kernel feature")

CHILD = (
    "from services.platform.processes import die_with_launcher; die_with_launcher(); "
    "import time; time.sleep(120)"
)
LAUNCHER = f"""
import os, subprocess, sys, time
from services.platform.processes import launcher_env
env = {{**os.environ, **launcher_env()}}
child = subprocess.Popen([sys.executable, "-c", {CHILD!r}], env=env, start_new_session=True)
print(child.pid, flush=True)
time.sleep(120)
"""


def _gone(pid: int) -> bool:
    """Ended: no such process, or a zombie no one has reaped yet (this container's init)."""
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def test_a_service_ends_when_its_launcher_is_killed() -> None:
    root = Path(__file__).resolve().parents[3]
    launcher = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER], cwd=root, stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert launcher.stdout is not None
        child = int(launcher.stdout.readline())
        time.sleep(1.0)  # the child has asked for the signal by now
        assert not _gone(child)
        launcher.kill()
        launcher.wait()
        end = time.monotonic() + 20
        while not _gone(child) and time.monotonic() < end:
            time.sleep(0.1)
        assert _gone(child), "the child outlived its killed launcher"
    finally:
        if launcher.poll() is None:
            launcher.kill()


def test_a_command_that_cannot_ask_is_wrapped_where_setpriv_is() -> None:
    args = ["nats-server", "-p", "4222"]
    wrapped = dying_with_launcher(args)
    assert wrapped[-3:] == args
    if len(wrapped) > len(args):
        assert wrapped[1:4] == ["--pdeathsig", "TERM", "--"]
        assert os.path.basename(wrapped[0]) == "setpriv"
