"""The resolver service: a pool of workers resolving closed turns (rule 3.2)."""

from __future__ import annotations

import asyncio
import sys

from pate.engine.context import turn_context
from services.platform import bus
from services.platform.runtime.runner import WORKER_RELAY_POLL_S, Service, Stage, run_service
from services.resolver import bridge
from services.resolver.stage import handle_turn_closed

SERVICE = Service(
    name="resolver",
    stages=(
        Stage("resolver", bus.TURN_CLOSED, handle_turn_closed),
        # amphibious transfers of a committed turn go to the GITM land service (rules 3.6, 3.9)
        Stage(bridge.DURABLE, bus.TURN_RESOLVED, bridge.handle_turn_resolved),
    ),
    grpc_addr=lambda s: s.resolver_addr,
    relay_poll_seconds=WORKER_RELAY_POLL_S,
    warm_up=turn_context,
)


def main() -> int:
    return asyncio.run(run_service(SERVICE))


if __name__ == "__main__":
    sys.exit(main())
