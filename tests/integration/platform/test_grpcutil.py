"""Every gRPC server gets health, reflection, tracing (W3C traceparent) and one log line per call."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from sqlalchemy.exc import OperationalError

from services.platform.config import load_settings
from services.platform.runtime.grpcutil import bound_port, run_until_signal, serve_grpc, trace_metadata
from services.platform.telemetry import tracing
from services.platform.telemetry.logging import configure_logging, current_trace_id
from tests.support.aio import run

pytestmark = pytest.mark.integration
ECHO = "test.Echo"


class Echo:
    async def Trace(  # noqa: N802
        self, request: bytes, context: grpc.aio.ServicerContext
    ) -> bytes:
        return (current_trace_id() or "").encode()

    async def Missing(  # noqa: N802
        self, request: bytes, context: grpc.aio.ServicerContext
    ) -> bytes:
        await context.abort(grpc.StatusCode.NOT_FOUND, "no such campaign")
        raise AssertionError

    async def Boom(  # noqa: N802
        self, request: bytes, context: grpc.aio.ServicerContext
    ) -> bytes:
        raise RuntimeError("a bug")

    async def Away(  # noqa: N802
        self, request: bytes, context: grpc.aio.ServicerContext
    ) -> bytes:
        # what SQLAlchemy raises when the database primary has gone (a failover)
        raise OperationalError(
            "SELECT secret FROM players", {}, ConnectionError("server closed the connection")
        )


def add_echo_to_server(servicer: Echo, server: Any) -> None:
    """Shaped like a generated ``add_*Servicer_to_server`` (bytes in, bytes out)."""
    handlers = {
        "Trace": grpc.unary_unary_rpc_method_handler(servicer.Trace),
        "Missing": grpc.unary_unary_rpc_method_handler(servicer.Missing),
        "Boom": grpc.unary_unary_rpc_method_handler(servicer.Boom),
        "Away": grpc.unary_unary_rpc_method_handler(servicer.Away),
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(ECHO, handlers),))
    server.add_registered_method_handlers(ECHO, handlers)


def test_health_reflection_trace_and_call_log(capfd: pytest.CaptureFixture[str]) -> None:
    configure_logging("testsvc", load_settings({"PATE_LOG_FORMAT": "json"}))
    tracing.configure_tracing("testsvc")

    async def scenario() -> dict[str, Any]:
        server = await serve_grpc([(Echo(), add_echo_to_server)], "127.0.0.1:0", "pate.test")
        out: dict[str, Any] = {}
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{bound_port(server)}") as ch:
                health = health_pb2_grpc.HealthStub(ch)
                for name in ("", ECHO, "pate.test"):
                    resp = await health.Check(health_pb2.HealthCheckRequest(service=name))
                    out[f"health:{name}"] = resp.status
                refl = reflection_pb2_grpc.ServerReflectionStub(ch)
                async for r in refl.ServerReflectionInfo(
                    iter([reflection_pb2.ServerReflectionRequest(list_services="")])
                ):
                    out["services"] = sorted(s.name for s in r.list_services_response.service)
                trace = ch.unary_unary(f"/{ECHO}/Trace")
                for key in ("given", "missing", "boom"):
                    with tracing.span(f"caller {key}") as caller:
                        out[f"want:{key}"] = format(caller.get_span_context().trace_id, "032x")
                        method = {"given": "Trace", "missing": "Missing", "boom": "Boom"}[key]
                        try:
                            out[key] = await ch.unary_unary(f"/{ECHO}/{method}")(
                                b"", metadata=trace_metadata()
                            )
                        except grpc.aio.AioRpcError as err:
                            out[key] = err.code()
                out["fresh"] = await trace(b"")
                out["fresh2"] = await trace(b"")
        finally:
            await server.stop(None)
        return out

    out = run(scenario())
    serving = health_pb2.HealthCheckResponse.SERVING
    assert [out[f"health:{n}"] for n in ("", ECHO, "pate.test")] == [serving] * 3
    assert ECHO in out["services"] and "grpc.health.v1.Health" in out["services"]
    # the servicer runs in the caller's trace; a call without one starts its own
    assert out["given"] == out["want:given"].encode()
    assert len(out["fresh"]) == 32 and out["fresh"] not in (out["fresh2"], out["given"])
    assert out["missing"] == grpc.StatusCode.NOT_FOUND
    assert out["boom"] == grpc.StatusCode.INTERNAL  # a bug's text never reaches the caller
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]
    calls = {(c["method"], c.get("trace_id")): c for c in lines if c.get("event") == "grpc.call"}
    given = calls[(f"/{ECHO}/Trace", out["want:given"])]
    assert given["status"] == "OK" and given["service"] == "testsvc" and len(given["span_id"]) == 16
    assert calls[(f"/{ECHO}/Missing", out["want:missing"])]["status"] == "NOT_FOUND"
    boom = calls[(f"/{ECHO}/Boom", out["want:boom"])]
    assert boom["status"] == "INTERNAL"
    internal = next(c for c in lines if c.get("event") == "grpc.internal_error")
    assert internal["error"] == "RuntimeError" and internal["level"] == "error"
    assert "a bug" not in json.dumps(internal), "the log names the exception, not its text"
    assert all(isinstance(c["ms"], float | int) for c in calls.values())


def test_adder_and_servicer_may_come_in_either_order() -> None:
    async def scenario() -> int:
        server = await serve_grpc([(add_echo_to_server, Echo())], "127.0.0.1:0", "pate.test")
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{bound_port(server)}") as ch:
                health = health_pb2_grpc.HealthStub(ch)
                return int((await health.Check(health_pb2.HealthCheckRequest(service=ECHO))).status)
        finally:
            await server.stop(None)

    assert run(scenario()) == health_pb2.HealthCheckResponse.SERVING


def test_sigterm_stops_the_server_and_lets_workers_finish() -> None:
    async def scenario() -> list[str]:
        stop = asyncio.Event()
        seen: list[str] = []

        async def worker() -> None:
            await stop.wait()
            await asyncio.sleep(0.2)  # finishing the message in hand
            seen.append("worker finished")

        server = await serve_grpc([(Echo(), add_echo_to_server)], "127.0.0.1:0", "pate.test")
        port = bound_port(server)
        task = asyncio.create_task(worker())
        asyncio.get_running_loop().call_later(0.3, os.kill, os.getpid(), signal.SIGTERM)
        await run_until_signal(server, task, stop=stop, grace=1.0)
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
                await ch.unary_unary(f"/{ECHO}/Trace")(b"", timeout=1)
        except grpc.aio.AioRpcError as exc:
            seen.append(exc.code().name)
        return seen

    assert run(scenario()) == ["worker finished", "UNAVAILABLE"]


def test_a_database_that_cannot_be_reached_is_unavailable_not_internal(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """UNAVAILABLE is the code every gRPC client retries: during a database failover a player's
    call is tried again, not refused as a bug; neither the reply nor the log quotes the SQL."""
    configure_logging("testsvc", load_settings({"PATE_LOG_FORMAT": "json"}))

    async def scenario() -> grpc.aio.AioRpcError:
        server = await serve_grpc([(Echo(), add_echo_to_server)], "127.0.0.1:0", "pate.test")
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{bound_port(server)}") as ch:
                try:
                    await ch.unary_unary(f"/{ECHO}/Away")(b"")
                except grpc.aio.AioRpcError as err:
                    return err
                raise AssertionError("the call succeeded")
        finally:
            await server.stop(None)

    err = run(scenario())
    assert err.code() == grpc.StatusCode.UNAVAILABLE
    assert "try again" in (err.details() or "") and "SELECT" not in (err.details() or "")
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]
    away = next(c for c in lines if c.get("event") == "grpc.database_unavailable")
    assert away["error"] == "OperationalError" and away["level"] == "warning"
    assert "secret" not in json.dumps(away) and "closed" not in json.dumps(away)
