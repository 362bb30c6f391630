"""Every client channel PATE builds balances its calls over all the addresses of its target,
as it does over the pods behind a headless Service: two servers behind one name both answer."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from services.platform.security.redial import AioChannels, RotatingChannel
from services.platform.security.tls import TlsSettings, aio_channel, channel

pytestmark = pytest.mark.integration

CALLS = 20


class _CountingHealth(health.HealthServicer):  # type: ignore[misc]
    def __init__(self, name: str, seen: Counter[str]) -> None:
        super().__init__()
        self._name, self._seen = name, seen

    def Check(self, request: health_pb2.HealthCheckRequest, context: grpc.ServicerContext) -> object:  # noqa: N802 (gRPC's name)
        self._seen[self._name] += 1
        return super().Check(request, context)


@pytest.fixture
def two_servers() -> Iterator[tuple[str, Counter[str]]]:
    """Two health servers on two ports, and one target naming both (as DNS would answer)."""
    seen: Counter[str] = Counter()
    servers, ports = [], []
    for name in ("first", "second"):
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        health_pb2_grpc.add_HealthServicer_to_server(_CountingHealth(name, seen), server)
        ports.append(server.add_insecure_port("127.0.0.1:0"))
        server.start()
        servers.append(server)
    try:
        yield f"ipv4:127.0.0.1:{ports[0]},127.0.0.1:{ports[1]}", seen
    finally:
        for server in servers:
            server.stop(None)


def _ask(ch: grpc.Channel) -> None:
    stub = health_pb2_grpc.HealthStub(ch)
    for _ in range(CALLS):
        assert (
            stub.Check(health_pb2.HealthCheckRequest(), timeout=5).status
            == health_pb2.HealthCheckResponse.SERVING
        )


def test_the_blocking_channel_calls_every_address(two_servers: tuple[str, Counter[str]]) -> None:
    target, seen = two_servers
    with channel(target, TlsSettings()) as ch:
        _ask(ch)
    # round robin alternates once both connections are ready; pick_first would give one 20
    assert set(seen) == {"first", "second"}, seen
    assert min(seen.values()) >= CALLS // 4, seen


def test_the_redialling_channel_of_the_admiral_calls_every_address(
    two_servers: tuple[str, Counter[str]],
) -> None:
    target, seen = two_servers
    ch = RotatingChannel(target, TlsSettings())
    try:
        _ask(ch)
    finally:
        ch.close()
    assert set(seen) == {"first", "second"}, seen


def test_the_asyncio_channels_of_the_web_desk_call_every_address(
    two_servers: tuple[str, Counter[str]],
) -> None:
    target, seen = two_servers

    async def scenario() -> None:
        async with aio_channel(target, TlsSettings()) as ch:
            stub = health_pb2_grpc.HealthStub(ch)
            for _ in range(CALLS):
                await stub.Check(health_pb2.HealthCheckRequest(), timeout=5)
        chs = AioChannels(target, TlsSettings())
        try:
            stub = health_pb2_grpc.HealthStub(chs.current())
            for _ in range(CALLS):
                await stub.Check(health_pb2.HealthCheckRequest(), timeout=5)
        finally:
            await chs.close()

    asyncio.run(scenario())
    assert set(seen) == {"first", "second"}, seen
    assert sum(seen.values()) == 2 * CALLS


def test_without_the_policy_one_address_takes_every_call(two_servers: tuple[str, Counter[str]]) -> None:
    """What the policy changes: a plain channel (pick_first) sends everything to one server."""
    target, seen = two_servers
    with grpc.insecure_channel(target) as ch:
        _ask(ch)
    assert len(seen) == 1, seen
