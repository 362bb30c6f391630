"""Each service's NATS user can do its own work and nothing of another's, on a real nats-server
run with the authorization block the Kubernetes configuration is made from
(services/platform/bus/permissions.py)."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from nats.js.api import ConsumerConfig

from services.platform import bus
from services.platform.bus.natsserver import NatsServer, free_port
from services.platform.bus.permissions import ADMIN_USER, SERVICE_DURABLES, USERS, authorization_block

PASSWORDS = {user: secrets.token_hex(8) for user in USERS}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NatsServer]:
    data = tmp_path_factory.mktemp("nats-perm")
    port = free_port()
    conf = "\n".join(
        [
            f"listen: 127.0.0.1:{port}",
            f'jetstream {{ store_dir: "{data / "js"}" }}',
            authorization_block(lambda user: f'"{PASSWORDS[user]}"'),
        ]
    )
    with NatsServer(port=port, data_dir=Path(data), config=conf) as ns:
        yield ns


def url(server: NatsServer, user: str) -> str:
    return f"nats://{user}:{PASSWORDS[user]}@127.0.0.1:{server.port}"


async def _work_of(server: NatsServer, user: str, durable: str) -> int:
    """What a service does with the bus: the stream checked, its durable made, an event
    published, pulled and acknowledged. Returns the count of messages it pulled."""
    nc, js = await bus.connect(url(server, user), f"test-{user}")
    try:
        await bus.ensure_stream(js)
        stage = f"perm_{durable.replace('-', '_')}"
        sub = await js.pull_subscribe(
            f"pate.{stage}.*", durable=durable, stream=bus.STREAM, config=ConsumerConfig(ack_wait=30)
        )
        await js.publish(f"pate.{stage}.c1", b"{}")
        msgs = await sub.fetch(1, timeout=5)
        for m in msgs:
            await m.ack()
        await js.consumer_info(bus.STREAM, durable)
        return len(msgs)
    finally:
        await nc.close()


def test_every_service_does_its_own_work_under_its_own_user(server: NatsServer) -> None:
    for user, durables in SERVICE_DURABLES.items():
        for durable in durables:
            assert asyncio.run(_work_of(server, user, durable)) == 1, (user, durable)


async def _refused(server: NatsServer, user: str, what: str) -> bool:
    """True when the server refuses ``what`` to ``user`` for want of permission (it says so in a
    ``-ERR``; the request itself then gets no answer)."""
    errors: list[str] = []

    async def on_error(exc: Exception) -> None:
        errors.append(str(exc))

    import nats

    nc = await nats.connect(url(server, user), error_cb=on_error, allow_reconnect=False)
    js = nc.jetstream(timeout=1)
    try:
        if what == "delete the stream":
            await js.delete_stream(bus.STREAM)
        elif what == "purge the stream":
            await js.purge_stream(bus.STREAM)
        elif what == "change the stream's limits":
            await js.update_stream(config=bus.stream_config(1))
        elif what == "pull from intel's durable":
            sub = await js.pull_subscribe("pate.turn_resolved.*", durable="intel", stream=bus.STREAM)
            await sub.fetch(1, timeout=1)
        elif what == "delete intel's durable":
            await js.delete_consumer(bus.STREAM, "intel")
        elif what == "listen to the events":
            await nc.subscribe("pate.>")
            await nc.flush(timeout=1)
    except Exception:  # the unanswered request times out; the -ERR below is the test
        pass
    await asyncio.sleep(0.2)
    await nc.close()
    return any("permissions violation" in e.lower() for e in errors)


@pytest.mark.parametrize(
    "what",
    [
        "delete the stream",
        "purge the stream",
        "change the stream's limits",
        "pull from intel's durable",
        "delete intel's durable",
        "listen to the events",
    ],
)
def test_the_resolver_may_not_touch_what_is_not_its_own(server: NatsServer, what: str) -> None:
    asyncio.run(_work_of(server, "intel", "intel"))  # the stream and intel's durable exist
    assert asyncio.run(_refused(server, "resolver", what)), what
    info = asyncio.run(_stream_info(server))
    assert info is not None  # the stream is still there


async def _stream_info(server: NatsServer) -> object:
    nc, js = await bus.connect(url(server, ADMIN_USER), "test-admin")
    try:
        return await js.stream_info(bus.STREAM)
    finally:
        await nc.close()


def test_the_operator_user_changes_the_stream(server: NatsServer) -> None:
    async def change() -> int:
        nc, js = await bus.connect(url(server, ADMIN_USER), "test-admin")
        try:
            await bus.ensure_stream(js)
            cfg = bus.stream_config(1)
            cfg.max_age = bus.MAX_AGE_S / 2
            await js.update_stream(config=cfg)
            await bus.ensure_stream(js, 1)  # brought back in line
            return int((await js.stream_info(bus.STREAM)).config.max_age or 0)
        finally:
            await nc.close()

    assert asyncio.run(change()) == bus.MAX_AGE_S


def _pate_stream_ensure(server: NatsServer, user: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATE_NATS_URL": url(server, user), "PATE_STREAM_REPLICAS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "stream", "ensure"],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_service_starts_on_a_stream_it_may_not_change_and_the_operator_changes_it(
    server: NatsServer,
) -> None:
    async def shorten() -> None:
        nc, js = await bus.connect(url(server, ADMIN_USER), "test-admin")
        try:
            await bus.ensure_stream(js)
            cfg = bus.stream_config(1)
            cfg.max_age = bus.MAX_AGE_S / 4
            await js.update_stream(config=cfg)
        finally:
            await nc.close()

    async def service_start() -> float:
        nc, js = await bus.connect(url(server, "resolver"), "test-resolver")
        try:
            await bus.ensure_stream(js, 1)  # returns: the service starts on the stream as it is
            return float((await js.stream_info(bus.STREAM)).config.max_age or 0)
        finally:
            await nc.close()

    asyncio.run(shorten())
    assert asyncio.run(service_start()) == bus.MAX_AGE_S / 4  # not changed by the service's user
    refused = _pate_stream_ensure(server, "resolver")
    assert refused.returncode != 0 and "operator's NATS user" in refused.stderr + refused.stdout
    done = _pate_stream_ensure(server, ADMIN_USER)
    assert done.returncode == 0, done.stderr
    assert asyncio.run(_stream_info(server)).config.max_age == bus.MAX_AGE_S  # type: ignore[attr-defined]
