"""The resolver service: a pool of workers resolving closed turns (rule 3.2)."""

from __future__ import annotations

import asyncio
import sys

from pate.engine.context import turn_context
from services.platform import bus
from services.platform.config import ConfigError, gitm_address
from services.platform.runtime.runner import WORKER_RELAY_POLL_S, Service, Stage, run_service
from services.resolver import bridge, gitm_end
from services.resolver.gitm import caller_token, gitm_tls
from services.resolver.stage import handle_turn_closed

RESOLVE = Stage("resolver", bus.TURN_CLOSED, handle_turn_closed)
# amphibious transfers of a committed turn go to the GITM land service (rules 3.6, 3.9)
# full jitter: a land service back from an outage is not called by every campaign at once
BRIDGE = Stage(bridge.DURABLE, bus.TURN_RESOLVED, bridge.handle_turn_resolved, jitter=True)
# a campaign its operators ended before its last turn is closed in GITM too (docs/gitm.md A19)
END = Stage(gitm_end.END_DURABLE, gitm_end.ENDED, gitm_end.handle_campaign_ended)


def service(gitm_addr: str | None) -> Service:
    """The resolver's stages: the bridge's consumer runs only where GITM is configured, so a
    deployment without GITM handles one message a turn, not two.  Where a resolver later
    gets PATE_GITM_ADDR, the bridge's durable consumer takes up the turns of the campaigns
    created with GITM in order (docs/gitm.md, "Campaigns with and without GITM")."""
    return Service(
        name="resolver",
        stages=(RESOLVE, BRIDGE, END) if gitm_addr else (RESOLVE,),
        grpc_addr=lambda s: s.resolver_addr,
        relay_poll_seconds=WORKER_RELAY_POLL_S,
        warm_up=turn_context,
    )


def main() -> int:
    try:
        gitm = gitm_address()
        if gitm:  # the token and TLS files are checked at start, not at a turn's close
            caller_token()
            gitm_tls()
    except ConfigError as err:  # a bad PATE_GITM_*: one line, as run_service says the others
        print(f"pate-resolver: {err}", file=sys.stderr)
        return 2
    return asyncio.run(run_service(service(gitm)))


if __name__ == "__main__":
    sys.exit(main())
