"""The resolver service: a pool of workers resolving closed turns (rule 3.2)."""

from __future__ import annotations

import asyncio
import sys

from services.common import bus
from services.common.runner import Service, Stage, run_service
from services.resolver.stage import handle_turn_closed

SERVICE = Service(name="resolver", stages=(Stage("resolver", bus.TURN_CLOSED, handle_turn_closed),))


def main() -> int:
    return asyncio.run(run_service(SERVICE))


if __name__ == "__main__":
    sys.exit(main())
