"""/readyz tells the truth (services/web/ready.py): ready while the orders and reports services
answer their health checks, 503 naming the one that does not; /healthz always answers."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from services.platform.bus.natsserver import free_port
from services.web.backend import Backend
from services.web.ready import Readiness
from services.web.server import health_app


async def _health_server() -> tuple[grpc.aio.Server, int]:
    server = grpc.aio.server()
    servicer = health.aio.HealthServicer()
    await servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


async def _get(app: Any, path: str) -> tuple[int, str]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app({"type": "http", "method": "GET", "path": path, "headers": []}, receive, send)
    return sent[0]["status"], sent[1]["body"].decode()


def test_ready_while_both_answer_and_not_when_one_is_gone() -> None:
    async def scenario() -> None:
        orders, orders_port = await _health_server()
        reports, reports_port = await _health_server()
        backend = Backend(f"127.0.0.1:{orders_port}", f"127.0.0.1:{reports_port}", tls=None)
        clock = [0.0]
        ready = Readiness(backend, clock=lambda: clock[0])
        app = health_app(ready.down)
        try:
            assert await _get(app, "/readyz") == (200, "ok")
            await reports.stop(None)
            assert await _get(app, "/readyz") == (200, "ok")  # the answer is kept a second
            clock[0] += 2
            status, text = await _get(app, "/readyz")
            assert status == 503 and text == "not ready: reports not answering"
            assert await _get(app, "/healthz") == (200, "ok")  # alive all the same
        finally:
            await orders.stop(None)
            await backend.close()

    asyncio.run(scenario())


def test_nothing_listening_is_not_ready() -> None:
    async def scenario() -> None:
        backend = Backend(f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}", tls=None)
        try:
            assert await Readiness(backend).down() == "orders, reports"
        finally:
            await backend.close()

    asyncio.run(scenario())
