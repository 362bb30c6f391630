"""The embedded nats-server: free port, own data folder, restart keeps streams."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.platform import bus
from services.platform.bus.natsserver import NatsServer, find_binary
from tests.support.aio import run

pytestmark = pytest.mark.integration


def test_binary_is_found_in_the_virtualenv() -> None:
    assert find_binary().name == "nats-server"


def test_restart_keeps_port_and_streams() -> None:
    server = NatsServer()
    data_dir = server.data_dir
    with server:
        url = server.url

        async def create() -> None:
            nc, js = await bus.connect(server.url, "t")
            await bus.ensure_stream(js)
            await js.publish("pate.turn_closed.c1", b"x", headers={"Nats-Msg-Id": "m1"})
            await nc.close()

        async def count() -> int:
            nc, js = await bus.connect(server.url, "t")
            info = await js.stream_info(bus.STREAM)
            await nc.close()
            return int(info.state.messages)

        run(create())
        server.restart()
        assert server.url == url and server.running
        assert run(count()) == 1
    assert not server.running
    assert not Path(data_dir).exists()


def test_a_given_data_folder_is_kept(tmp_path: Path) -> None:
    with NatsServer(data_dir=tmp_path / "nats") as server:
        assert server.running
    assert (tmp_path / "nats" / "nats-server.log").exists()
