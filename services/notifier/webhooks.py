"""Webhook delivery that cannot be turned against the server (docs/security.md, threat model).

A player's webhook URL is hostile input.  It must be ``http`` or ``https``,
with no user or password in it.  Its host is resolved once; every address it
resolves to must be a public one (no loopback, private, link-local, carrier
NAT, multicast, reserved or cloud metadata address), and the POST goes to that
very address (Host header and TLS server name of the name), so a name that
resolves elsewhere the second time (DNS rebinding) changes nothing.  No
redirect is followed.  Each delivery has a total deadline, not only one per
socket read.

``PATE_WEBHOOK_HOSTS`` (comma-separated host names): when set, webhooks go to
these hosts only, and to them whatever their addresses (the operator vouches
for them: an internal chat server, the tests' own receivers).
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import os
import socket
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

DEADLINE_S = 15.0  # a whole delivery: connect, send, the response's status line and headers
MAX_URL = 500


class WebhookRefusedError(ValueError):
    """The URL may not be called; the message names the rule, never the resolved address."""


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the checked address the connection goes to


def allowed_hosts(environ: dict[str, str] | None = None) -> frozenset[str]:
    env = os.environ if environ is None else environ
    raw = env.get("PATE_WEBHOOK_HOSTS", "")
    return frozenset(h.strip().lower().rstrip(".") for h in raw.split(",") if h.strip())


def parse(url: str) -> SplitResult:
    """The URL's form alone (used when a player saves it, and again before each delivery)."""
    if len(url) > MAX_URL or any(c.isspace() or ord(c) < 32 for c in url):
        raise WebhookRefusedError(f"webhook: at most {MAX_URL} characters, no spaces")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise WebhookRefusedError("webhook: not a valid URL") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookRefusedError("webhook: an http:// or https:// URL")
    if "@" in parts.netloc:
        raise WebhookRefusedError("webhook: no user name or password in the URL")
    if not parts.hostname:
        raise WebhookRefusedError("webhook: the URL names no host")
    if port == 0:
        raise WebhookRefusedError("webhook: port 0")
    return parts


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve(url: str, allow: frozenset[str]) -> Target:
    """The one address this delivery will use, checked; WebhookRefusedError otherwise."""
    parts = parse(url)
    host = (parts.hostname or "").lower().rstrip(".")
    if allow and host not in allow:
        raise WebhookRefusedError("webhook: this server sends webhooks only to the hosts its operator lists")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise WebhookRefusedError("webhook: the host name does not resolve") from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise WebhookRefusedError("webhook: the host name does not resolve")
    if host not in allow and not all(is_public(a) for a in addresses):
        raise WebhookRefusedError("webhook: the host is not a public internet address")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path, addresses[0])


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the checked address; the Host header is still the URL's name."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """As _PinnedHTTP, over TLS verified for the URL's name (the SNI is the name too)."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self.address = target.address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, allow: frozenset[str], deadline: float = DEADLINE_S) -> int:
    """POST ``body``; the response's status (a redirect is a status like any other, not
    followed).  Raises WebhookRefusedError for a URL that may not be called, OSError when
    the receiver fails or takes longer than ``deadline`` in all."""
    target = resolve(url, allow)
    klass = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    conn = klass(target, timeout=deadline)
    cut = threading.Event()
    timer = threading.Timer(deadline, _cut, args=(conn, cut))
    timer.start()
    try:
        conn.request("POST", target.path, body=body, headers={"content-type": "application/json"})
        status = int(conn.getresponse().status)
    finally:
        timer.cancel()
        conn.close()
    if cut.is_set():  # what was read before the cut is not an answer
        raise TimeoutError(f"webhook: no whole answer within {deadline:.0f} s")
    return status


def _cut(conn: http.client.HTTPConnection, cut: threading.Event) -> None:
    """The deadline passed: unblock the read in progress."""
    cut.set()
    sock = conn.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
