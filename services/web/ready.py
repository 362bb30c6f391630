"""The web desk's readiness (/readyz on its health listener): ready while the orders and the
reports services both answer their gRPC health checks.  A desk that cannot reach them can only
show errors, so the load balancer should send players to another pod; its liveness (/healthz)
stays apart and always answers, so the pod is not restarted for a neighbour's outage."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.web.backend import Backend

CHECK_TIMEOUT_S = 1.0  # a service slower than this to answer its health check counts as down
KEPT_S = 1.0  # an answer is reused this long: probes from many kubelets cost one check each


class Readiness:
    def __init__(self, backend: Backend, clock: Callable[[], float] = time.monotonic) -> None:
        self.backend = backend
        self.clock = clock
        self._answer: tuple[float, str] | None = None  # (when, "" or what is down)

    async def down(self) -> str:
        """ "" when ready, else the services that did not answer ("orders, reports")."""
        now = self.clock()
        if self._answer is not None and now - self._answer[0] < KEPT_S:
            return self._answer[1]
        channels = {"orders": self.backend._orders(), "reports": self.backend._reports()}
        answers = await asyncio.gather(*(_serving(ch) for ch in channels.values()))
        down = ", ".join(name for name, ok in zip(channels, answers, strict=True) if not ok)
        self._answer = (now, down)
        return down


async def _serving(channel: grpc.aio.Channel) -> bool:
    try:
        reply = await health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=CHECK_TIMEOUT_S
        )
    except grpc.RpcError:
        return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)
