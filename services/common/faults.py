"""Fault injection for the crash tests: ``PATE_FAULTS=point[,point...]``.

A named point listed there kills its own process with SIGKILL, as a machine
failure would, so the tests can prove that a stage killed half-way through
leaves nothing behind and is completed once by the next worker.  Unset in
production; documented in docs/operations.md.
"""

from __future__ import annotations

import os
import signal


def crash_point(point: str) -> None:
    if point in os.environ.get("PATE_FAULTS", "").split(","):
        os.kill(os.getpid(), signal.SIGKILL)
