"""The real stack for the web desk's tests: nats-server, the four services and
the web process (services.platform.runtime.cluster), with one training campaign open."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pate.datafiles import load_scenario
from services.platform.bus.natsserver import free_port
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client


@dataclass
class Sinks:
    """A local SMTP server (aiosmtpd) and webhook receiver, for the notifier."""

    smtp_port: int
    mails: list[Any] = field(default_factory=list)
    hooks: list[dict[str, Any]] = field(default_factory=list)
    hook_url: str = ""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd)
        self.mails.append(envelope)
        return "250 OK"


@contextmanager
def sinks() -> Iterator[Sinks]:
    from aiosmtpd.controller import Controller

    box = Sinks(smtp_port=free_port())

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            box.hooks.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    http = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    box.hook_url = f"http://127.0.0.1:{http.server_address[1]}/hook"
    smtp = Controller(box, hostname="127.0.0.1", port=box.smtp_port)
    smtp.start()
    try:
        yield box
    finally:
        smtp.stop()
        http.shutdown()


@dataclass
class Stack:
    cluster: Cluster
    client: Client
    campaign: str
    passwords: dict[str, str]
    sinks: Sinks | None = None

    @property
    def url(self) -> str:
        return self.cluster.web_url


@pytest.fixture(scope="module")
def stack(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, nats_server: str
) -> Iterator[Stack]:
    """A module that sets WITH_NOTIFIER = True also gets the notifier worker,
    sending to local sinks (stack.sinks)."""
    with ExitStack() as stack_of:
        box = stack_of.enter_context(sinks()) if getattr(request.module, "WITH_NOTIFIER", False) else None
        yield from _stack(tmp_path_factory, nats_server, box)


def _stack(tmp_path_factory: pytest.TempPathFactory, nats_server: str, box: Sinks | None) -> Iterator[Stack]:
    workdir: Path = tmp_path_factory.mktemp("web")
    env = {"PATE_WEB_SECRET": "test-secret-" + uuid.uuid4().hex, "PATE_NOTIFIER_POLL_SECONDS": "0.5"}
    if box is not None:
        env["PATE_SMTP_URL"] = f"smtp://127.0.0.1:{box.smtp_port}?from=desk@pate.test"
        env["PATE_WEBHOOK_HOSTS"] = "127.0.0.1"  # the test's own receiver, listed as an operator would
    cluster = Cluster(
        workdir=workdir,
        nats_url=nats_server,
        database_url=f"sqlite:///{workdir}/pate.db",
        web=True,
        notifier=box is not None,
        extra_env=env,
    )
    cluster.start_all()
    client = Client(cluster)
    campaign = f"web-{uuid.uuid4().hex[:8]}"
    try:
        passwords = {p: f"{p}-pw-1805" for p in load_scenario("training").world.players}
        client.create(campaign, passwords=passwords)
        client.wait_open(campaign, 1)
        yield Stack(cluster, client, campaign, passwords, box)
    finally:
        client.close()
        cluster.stop()
