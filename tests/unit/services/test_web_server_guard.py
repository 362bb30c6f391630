"""The web desk's server guard (services/web/server.py) on its own, in this process, against a
small ASGI app: a trickling request is closed at its header deadline and a slow body at its body
deadline; past the connection cap the oldest trickler makes room; the in-flight limit refuses with
503 but never the health paths, and a second listener answers health only."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from services.platform.bus.natsserver import free_port
from services.web.server import Guard, serve

RELEASE, ENTERED = threading.Event(), threading.Event()


async def app(scope: dict, receive, send) -> None:  # type: ignore[no-untyped-def, type-arg]
    if scope["type"] != "http":
        return
    if scope["path"] == "/slow":  # holds its place in the in-flight count until released
        ENTERED.set()
        await asyncio.get_running_loop().run_in_executor(None, RELEASE.wait, 10)
    while (await receive()).get("more_body"):  # the whole body first
        pass
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"page"})


@contextmanager
def running(guard: Guard) -> Iterator[tuple[str, str]]:
    port, health = free_port(), free_port()
    loop = asyncio.new_event_loop()
    task: list[asyncio.Task[None]] = []

    async def until_cancelled() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await serve(app, ("127.0.0.1", port), guard, ("127.0.0.1", health))

    def run() -> None:
        asyncio.set_event_loop(loop)
        task.append(loop.create_task(until_cancelled()))
        loop.run_until_complete(task[0])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    url, hurl = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{health}"
    _wait(hurl + "/healthz")
    try:
        yield url, hurl
    finally:
        RELEASE.set()
        loop.call_soon_threadsafe(task[0].cancel)
        thread.join(10)
        RELEASE.clear()
        ENTERED.clear()


def _wait(url: str) -> None:
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise AssertionError(f"{url} never answered")


def _trickler(url: str, head: bytes = b"GET / HTTP/1.1\r\nHost: t\r\n") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", int(url.rpartition(":")[2])), timeout=5)
    sock.sendall(head)
    return sock


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


POST = b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nabc"


def test_headers_and_bodies_have_deadlines() -> None:
    """A trickler is closed at its deadline; a body has a deadline of its own, not the headers';
    a request finished within its deadline is served.  Each deadline is far from the waits that
    observe it (0.5 s against 60 s), and the waits only bound how long to look: no load can make
    a check fail."""
    with running(Guard(header_seconds=0.5, body_seconds=60)) as (url, _):
        slow = _trickler(url)
        body = _trickler(url, POST)
        assert _closed_within(slow, 30)  # the headers' deadline
        assert not _closed_within(body, 0.5)  # past the headers' deadline too: the body's own runs
    with running(Guard(header_seconds=60, body_seconds=0.5)) as (url, _):
        body = _trickler(url, POST)
        assert _closed_within(body, 30)  # the body's deadline, long before the headers'
    with running(Guard(header_seconds=60, body_seconds=60)) as (url, _):
        in_time = _trickler(url)
        in_time.sendall(b"\r\n")  # the headers finished within their deadline
        in_time.settimeout(30)
        assert in_time.recv(1024).startswith(b"HTTP/1.1 200")
        assert httpx.get(url + "/").text == "page"


def test_past_the_cap_the_oldest_trickler_makes_room() -> None:
    with running(Guard(header_seconds=30, max_connections=5)) as (url, _):
        first = _trickler(url)
        time.sleep(0.05)
        others = [_trickler(url) for _ in range(4)]
        time.sleep(0.2)
        assert httpx.get(url + "/", timeout=5).text == "page"  # the sixth connection is served
        assert _closed_within(first, 30)  # the oldest made room for it (30: how long to look)
        assert not any(_closed_within(s, 0.05) for s in others[1:])


def test_the_in_flight_limit_refuses_pages_but_never_health() -> None:
    with running(Guard(max_in_flight=1)) as (url, health):
        slow = threading.Thread(target=lambda: httpx.get(url + "/slow", timeout=15), daemon=True)
        slow.start()
        assert ENTERED.wait(10)
        busy = httpx.get(url + "/")
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
        assert httpx.get(url + "/healthz").status_code == 200  # not counted, not refused
        assert httpx.get(health + "/readyz").text == "ok"
        assert httpx.get(health + "/").status_code == 404  # the health listener serves nothing else
        RELEASE.set()
        slow.join(15)
        assert httpx.get(url + "/").status_code == 200
