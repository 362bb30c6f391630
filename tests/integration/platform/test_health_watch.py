"""The health watcher follows the database as well as the bus.

A real gRPC server and a real SQLite database; the database "goes away" by its
probe failing (a PostgreSQL outage cannot be staged on a shared server), and
the bus by the connection saying it is not connected.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.platform.runtime import runner
from services.platform.runtime.grpcutil import LIVENESS, bound_port, serve_grpc
from tests.support.aio import eventually, run

pytestmark = pytest.mark.integration

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def test_health_follows_the_database_and_the_bus(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    down = {"db": False}
    real_ping = runner._ping

    def ping(eng: sa.Engine) -> None:
        if down["db"]:
            raise sa.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))
        real_ping(eng)

    monkeypatch.setattr(runner, "_ping", ping)
    monkeypatch.setattr(runner, "HEALTH_INTERVAL_S", 0.05)
    nc = SimpleNamespace(is_connected=True)

    async def scenario() -> list[int]:
        server = await serve_grpc([], "127.0.0.1:0", "pate.test")
        stop = asyncio.Event()
        watcher = asyncio.create_task(runner.watch_health(server, nc, engine, stop))
        seen: list[int] = []
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{bound_port(server)}") as ch:
                health = health_pb2_grpc.HealthStub(ch)

                async def status(want: int) -> bool:
                    got = (await health.Check(health_pb2.HealthCheckRequest(service="pate.test"))).status
                    # liveness is about the process only: an outage never restarts the pod
                    alive = await health.Check(health_pb2.HealthCheckRequest(service=LIVENESS))
                    assert alive.status == SERVING
                    return bool(got == want)

                async def expect(want: int) -> None:
                    await eventually(lambda: status(want), timeout=5)
                    seen.append(want)

                await expect(SERVING)
                down["db"] = True
                await expect(NOT_SERVING)
                down["db"] = False
                await expect(SERVING)
                nc.is_connected = False
                await expect(NOT_SERVING)
                nc.is_connected = True
                await expect(SERVING)
        finally:
            stop.set()
            await watcher
            await server.stop(None)
        return seen

    seen: Any = run(scenario())
    assert seen == [SERVING, NOT_SERVING, SERVING, NOT_SERVING, SERVING]
