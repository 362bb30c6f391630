"""The reports service: renders each player's reports and serves them (3.11)."""

from __future__ import annotations

import asyncio
import sys

from pate.v1 import reports_pb2_grpc
from services.platform import bus
from services.platform.runtime.runner import WORKER_RELAY_POLL_S, Service, Stage, run_service
from services.platform.security.auth import authenticator_for
from services.reports.servicer import ReportsServicer
from services.reports.stage import handle_intel_ready

SERVICE = Service(
    name="reports",
    stages=(Stage("reports", bus.INTEL_READY, handle_intel_ready),),
    grpc=(
        (
            reports_pb2_grpc.add_ReportsServicer_to_server,
            lambda e, s: ReportsServicer(
                e, s.admin_token, authenticator_for(e, s.session_ttl_seconds), s.trusted_proxies
            ),
        ),
    ),
    grpc_addr=lambda s: s.reports_addr,
    relay_poll_seconds=WORKER_RELAY_POLL_S,
)


def main() -> int:
    return asyncio.run(run_service(SERVICE))


if __name__ == "__main__":
    sys.exit(main())
