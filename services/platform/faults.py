"""Fault injection for the crash tests: ``PATE_FAULTS=point[,point...]``.

A named point listed there kills its own process with SIGKILL, as a machine
failure would, so the tests can prove that a stage killed half-way through
leaves nothing behind and is completed once by the next worker.  Listed as
``point:hold``, the point instead stops there (logging ``fault.holding``) and
waits until the process is killed, holding its message all the while: the
recovery test kills it from outside at a moment of its choosing.  Listed as
``point:raise``, the point raises ``FaultInjectedError``, as a defect of the engine
would (the failed-turn tests).  Unset in production; documented in
docs/operations.md.
"""

from __future__ import annotations

import os
import signal
import time

from services.platform.telemetry.logging import get_logger

HOLD_SECONDS = 600.0  # a held point gives up after this long (a forgotten test process)


class FaultInjectedError(RuntimeError):
    """Raised at a point listed as ``point:raise``."""


def crash_point(point: str) -> None:
    faults = os.environ.get("PATE_FAULTS", "").split(",")
    if f"{point}:raise" in faults:
        raise FaultInjectedError(f"fault injected at {point}")
    if point in faults:
        os.kill(os.getpid(), signal.SIGKILL)
    if f"{point}:hold" in faults:
        get_logger("faults").warning("fault.holding", point=point, pid=os.getpid())
        time.sleep(HOLD_SECONDS)
