"""Child processes that do not outlive their launcher.  `pate demo` and the test and benchmark
clusters start every service (and nats-server) in a session of its own, so that a Ctrl-C meant
for one does not reach the others; a launcher killed outright (SIGKILL, an OOM kill) then left
its children running with parent 1.  Linux's parent-death signal ends them with it.

The request is made by the child itself, never in a ``preexec_fn`` (which may deadlock in a
launcher with threads, as every launcher with a gRPC channel has): a PATE service asks at its
start when its launcher named itself in ``PATE_LAUNCHER_PID``; nats-server, which cannot ask,
is started through util-linux's ``setpriv --pdeathsig`` where the system has it."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import sys

LAUNCHER_ENV = "PATE_LAUNCHER_PID"
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def launcher_env() -> dict[str, str]:
    """What a launcher adds to its children's environment so that they end with it."""
    return {LAUNCHER_ENV: str(os.getpid())}


def die_with_launcher() -> None:
    """Called first thing by every service: with ``PATE_LAUNCHER_PID`` set, SIGTERM when that
    launcher dies, and at once if it has died already.  A no-op elsewhere (a service started by
    Kubernetes or by hand has no launcher to follow)."""
    text = os.environ.get(LAUNCHER_ENV, "")
    if not text.isdigit() or not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != int(text):  # the launcher died before the request took hold
        os.kill(os.getpid(), signal.SIGTERM)


def dying_with_launcher(args: list[str]) -> list[str]:
    """A command that cannot ask for itself (nats-server), wrapped so that it ends with this
    process where util-linux's setpriv is there; else as it is."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or not sys.platform.startswith("linux"):
        return args
    return [setpriv, "--pdeathsig", "TERM", "--", *args]


def sigterm_as_ctrl_c() -> None:
    """A SIGTERM (a CI's timeout, ``kill``) unwinds like Ctrl-C, through the ``finally`` blocks
    that stop what a launcher started, instead of leaving it running."""

    def stop(_signum: int, _frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one stop at a time
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
