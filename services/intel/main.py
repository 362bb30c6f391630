"""The intel service: detection and fog of war per player (section 5)."""

from __future__ import annotations

import asyncio
import sys

from pate.engine.context import turn_context
from services.intel.stage import handle_turn_resolved
from services.platform import bus
from services.platform.runtime.runner import WORKER_RELAY_POLL_S, Service, Stage, run_service

SERVICE = Service(
    name="intel",
    stages=(Stage("intel", bus.TURN_RESOLVED, handle_turn_resolved),),
    grpc_addr=lambda s: s.intel_addr,
    relay_poll_seconds=WORKER_RELAY_POLL_S,
    warm_up=turn_context,
)


def main() -> int:
    return asyncio.run(run_service(SERVICE))


if __name__ == "__main__":
    sys.exit(main())
