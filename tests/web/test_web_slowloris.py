"""A slowloris of 500 connections trickling their headers does not starve the web desk: players
still log in and read their campaign, and health answers on both listeners, for as long as the
attack lasts (it used to answer 503 everywhere once 200 connections trickled)."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from services.platform.bus.natsserver import free_port
from tests.web.conftest import Stack
from tests.web.test_web_http import csrf

pytestmark = pytest.mark.e2e

ATTACKERS = 500
HEADER_SECONDS = 2  # the deadline under test (the production default is 10 s)
# a page must load, however slowly: on a machine shared by many test runs, seconds of CPU starvation
# are not the attack's doing (before the fix every page answered 503 at once)
TIMEOUT = 30


@dataclass
class Slowloris:
    """``count`` connections, each sending one header line every ``every`` seconds and never
    the blank line that ends them; a connection the server closes is opened again."""

    port: int
    count: int
    every: float = 0.5
    lifetimes: list[float] = field(default_factory=list)  # seconds each closed one lived
    opened: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def _open(self) -> tuple[socket.socket, float]:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
        sock.setblocking(False)
        sock.send(b"GET /login HTTP/1.1\r\nHost: desk.test\r\n")
        self.opened += 1
        return sock, time.monotonic()

    def run(self) -> None:
        socks = [self._open() for _ in range(self.count)]
        while not self.stop.wait(self.every):
            for i, (sock, since) in enumerate(socks):
                if _closed(sock):
                    self.lifetimes.append(time.monotonic() - since)
                    sock.close()
                    socks[i] = self._open()
                    continue
                with contextlib.suppress(OSError):  # a closed one is noticed on the next round
                    sock.send(b"X-Slow: 1\r\n")
        for sock, _ in socks:
            sock.close()


def _attack_main() -> None:
    """The attack in a process of its own (the test's client must not share its interpreter):
    port and count as arguments, stops at a line on stdin, then prints what it saw as JSON."""
    attack = Slowloris(int(sys.argv[1]), int(sys.argv[2]))
    thread = threading.Thread(target=attack.run, daemon=True)
    thread.start()
    print("started", flush=True)
    sys.stdin.readline()
    attack.stop.set()
    thread.join(10)
    print(json.dumps({"opened": attack.opened, "lifetimes": attack.lifetimes}), flush=True)


@contextmanager
def slowloris(port: int, count: int) -> Iterator[dict[str, Any]]:
    """Run the attack while the block runs; the dict is filled with what it saw at the end."""
    code = "import sys; from tests.web.test_web_slowloris import _attack_main; _attack_main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(port), str(count)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    seen: dict[str, Any] = {}
    try:
        assert proc.stdout.readline().strip() == "started"
        yield seen
    finally:
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        seen.update(json.loads(proc.stdout.readline() or "{}"))
        proc.wait(15)


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(4096) == b""  # the server's FIN (a 408 or nothing before it)
    except BlockingIOError:
        return False
    except OSError:
        return True


@contextmanager
def web_process(stack: Stack, **env: str) -> Iterator[tuple[str, str]]:
    """``pate serve web`` (services.web.main) on its own ports, a client of the stack's services."""
    main, health = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    full = {
        **stack.cluster.env,
        "PATE_WEB_ADDR": main,
        "PATE_WEB_HEALTH_ADDR": health,
        "PATE_METRICS_ADDR": f"127.0.0.1:{free_port()}",
        "PATE_WEB_SECRET": "slowloris-test-secret",
        **env,
    }
    proc = subprocess.Popen([sys.executable, "-m", "services.web.main"], env=full)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://{health}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield f"http://{main}", f"http://{health}"
    finally:
        proc.terminate()
        proc.wait(10)


def _player_reads_his_campaign(url: str, stack: Stack) -> None:
    with httpx.Client(base_url=url, timeout=TIMEOUT, follow_redirects=True) as client:
        token = csrf(client.get("/login").text)
        r = client.post(
            "/login",
            data={"csrf": token, "campaign": stack.campaign, "player": "allemand",
                  "password": stack.passwords["allemand"], "kept": ""},
        )  # fmt: skip
        assert r.status_code == 200 and "Log out" in r.text, r.status_code
        assert client.get(f"/c/{stack.campaign}").status_code == 200


@pytest.mark.parametrize(
    "env",
    [{}, {"PATE_WEB_MAX_CONNECTIONS": "300"}],
    ids=["default-cap", "cap-below-the-attack"],
)
def test_a_slowloris_of_500_does_not_starve_players_or_health(stack: Stack, env: dict[str, str]) -> None:
    with (
        web_process(stack, PATE_WEB_HEADER_TIMEOUT_SECONDS=str(HEADER_SECONDS), **env) as (url, health),
        slowloris(int(url.rpartition(":")[2]), ATTACKERS) as seen,
    ):
        time.sleep(1)  # the 500 are connected and trickling
        until = time.monotonic() + 2.5 * HEADER_SECONDS  # across the deadline and the reconnections
        rounds = 0
        while time.monotonic() < until or rounds < 2:
            assert httpx.get(f"{health}/healthz", timeout=TIMEOUT).status_code == 200
            assert httpx.get(f"{url}/healthz", timeout=TIMEOUT).status_code == 200
            _player_reads_his_campaign(url, stack)
            rounds += 1
    lifetimes = seen["lifetimes"]
    assert seen["opened"] >= ATTACKERS and lifetimes, "the attack did not run"
    if not env:
        # uvicorn alone never closes a connection that keeps trickling: here each of the first 500
        # was closed while the attack ran.  How long each lived is timing, asserted nowhere (a
        # loaded machine must not fail it); a trickler closed at its deadline, a request
        # finished in time served: tests/unit/services/test_web_server_guard.py
        assert len(lifetimes) >= ATTACKERS
    else:  # past the cap the oldest trickler makes room for each newcomer: they churn
        assert seen["opened"] > 2 * ATTACKERS
