"""The red team's webhook attacks now fail: no request reaches a loopback, private, link-local
or metadata address (checked after resolution, the connection pinned to the checked address),
no redirect is followed, a URL with a password is refused; and a receiver that trickles its
answer holds only its own messages, each delivery ending at its deadline."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlalchemy import Engine

from services.notifier import webhooks, work
from services.platform.errors import DeskError
from services.platform.store import notifications
from tests.integration.test_notifier import NOW, _subscribe, campaign, hooks  # noqa: F401 (fixtures)

pytestmark = pytest.mark.integration

NOBODY: frozenset[str] = frozenset()


class Recorder(BaseHTTPRequestHandler):
    hits: list[tuple[str, str]]
    answer: tuple[int, dict[str, str]]

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.hits.append((self.path, self.headers.get("host", "")))
        status, headers = self.answer
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()

    do_GET = do_POST  # noqa: N815

    def log_message(self, *args: Any) -> None:
        pass


def serve(
    answer: tuple[int, dict[str, str]] = (204, {}),
) -> tuple[ThreadingHTTPServer, list[tuple[str, str]]]:
    hits: list[tuple[str, str]] = []
    handler = type("R", (Recorder,), {"hits": hits, "answer": answer})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, hits


@pytest.fixture
def receiver() -> Iterator[tuple[int, list[tuple[str, str]]]]:
    server, hits = serve()
    yield server.server_address[1], hits
    server.shutdown()


def test_internal_addresses_are_refused_after_resolution(receiver) -> None:
    port, hits = receiver
    for url in (
        f"http://127.0.0.1:{port}/hook",
        f"http://localhost:{port}/hook",
        f"http://[::1]:{port}/hook",
        f"http://0x7f000001:{port}/hook",
        f"http://2130706433:{port}/hook",
        f"http://[::ffff:127.0.0.1]:{port}/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "http://192.168.1.1/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
    ):
        with pytest.raises(webhooks.WebhookRefusedError, match="not a public internet address"):
            webhooks.post(url, b"{}", NOBODY)
    assert hits == []


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://user:pw@example.org/hook", "no user name or password"),
        ("http://@example.org/hook", "no user name or password"),
        ("ftp://example.org/hook", "http:// or https://"),
        ("file:///etc/passwd", "http:// or https://"),
        ("gopher://127.0.0.1:25/", "http:// or https://"),
        ("http://exa mple.org/", "no spaces"),
        ("http://example.org:99999/", "not a valid URL"),
        ("http:///path", "names no host"),
    ],
)
def test_malformed_urls_are_refused(url: str, said: str) -> None:
    with pytest.raises(webhooks.WebhookRefusedError, match=said):
        webhooks.post(url, b"{}", NOBODY)


def test_a_password_in_the_url_is_refused_when_saved() -> None:
    with pytest.raises(DeskError, match="webhook: no user name or password"):
        notifications.check_prefs("", "https://user:pw@hooks.example.org/x", ["turn_opened"])


def test_a_rebinding_name_is_checked_and_pinned(receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name is resolved once: the POST goes to the very address checked, with the name
    as its Host; a name with any internal address among its answers is refused."""
    port, hits = receiver
    real = socket.getaddrinfo
    answers = {"rebind.example": ["93.184.215.14", "127.0.0.1"], "hooks.example": ["127.0.0.1"]}

    def fake(host: str, *args: Any, **kw: Any) -> list[Any]:
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, args[0])) for a in answers[host]]
        return real(host, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    with pytest.raises(webhooks.WebhookRefusedError, match="not a public"):
        webhooks.post(f"http://rebind.example:{port}/x", b"{}", NOBODY)
    assert hits == []
    # listed by the operator (PATE_WEBHOOK_HOSTS): delivered, to the address it resolved to
    assert webhooks.post(f"http://hooks.example:{port}/x?a=1", b"{}", frozenset({"hooks.example"})) == 204
    assert hits == [("/x?a=1", f"hooks.example:{port}")]
    with pytest.raises(webhooks.WebhookRefusedError, match="only to the hosts its operator lists"):
        webhooks.post("https://example.org/x", b"{}", frozenset({"hooks.example"}))


def test_a_redirect_is_not_followed(receiver) -> None:
    port, inner_hits = receiver
    outer, outer_hits = serve((302, {"location": f"http://127.0.0.1:{port}/internal"}))
    try:
        allow = frozenset({"127.0.0.1"})
        assert webhooks.post(f"http://127.0.0.1:{outer.server_address[1]}/hook", b"{}", allow) == 302
    finally:
        outer.shutdown()
    assert len(outer_hits) == 1 and inner_hits == []


class Trickler:
    """A receiver that accepts and then sends one byte of its status line every ``every`` s."""

    def __init__(self, every: float, released: threading.Event | None = None) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.every, self.released = every, released
        self.saw_release: list[bool] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        if self.released is not None:  # did the fast receiver get its message meanwhile?
            self.saw_release.append(self.released.wait(timeout=5))
        try:
            for byte in b"HTTP/1.1 204 No Content\r\nX-Slow: " + b"a" * 1000:
                conn.sendall(bytes([byte]))
                time.sleep(self.every)
        except OSError:
            pass
        finally:
            conn.close()


def test_a_trickling_receiver_is_cut_at_the_deadline() -> None:
    slow = Trickler(every=0.05)
    # each byte comes well within any per-read timeout: only a deadline on the whole ends it
    with pytest.raises(TimeoutError, match="no whole answer within 1 s"):
        webhooks.post(f"http://127.0.0.1:{slow.port}/", b"{}", frozenset({"127.0.0.1"}), deadline=1.0)
    slow.sock.close()


def test_a_slow_receiver_delays_only_its_own_messages(
    engine: Engine,
    campaign,  # noqa: F811 (the fixture)
    hooks,  # noqa: F811 (the fixture)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, got, _ = hooks
    fast_got = threading.Event()
    slow = Trickler(every=0.2, released=fast_got)
    _subscribe(engine, "calder", f"http://localhost:{slow.port}/slow", ["turn_opened"])
    _subscribe(engine, "cornwallis", url, ["turn_opened"])
    with engine.begin() as conn:
        work.on_turn_opened(conn, _opened_bytes(), {}, now=NOW)
    sender = work.Sender(engine, None, allow=frozenset({"127.0.0.1", "localhost"}))
    original = work.post_webhook

    def watched(target: str, *args: Any, **kw: Any) -> bool:
        ok = original(target, *args, **kw)
        if target == url:
            fast_got.set()
        return ok

    monkeypatch.setattr(work, "post_webhook", watched)
    try:
        sent, _failed = sender.send_due(NOW)
    finally:
        slow.sock.close()
    assert len(got) == 1 and sent >= 1
    assert slow.saw_release and all(slow.saw_release)  # the fast one was sent while the slow one hung


def _opened_bytes() -> bytes:
    from tests.integration.test_notifier import _opened

    return _opened(2)
