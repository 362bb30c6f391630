"""The web desk believes X-Forwarded-* only from PATE_TRUSTED_PROXIES (uvicorn's own default
trusts 127.0.0.1, and the production overlay once trusted every peer)."""

from __future__ import annotations

import asyncio

import uvicorn
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from services.web.main import proxy_options


def seen_by_app(trusted: frozenset[str], peer: str) -> tuple[str, str]:
    seen: dict[str, object] = {}

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        seen.update(scope)

    config = uvicorn.Config(app, **proxy_options(trusted))
    config.load()
    scope = {
        "type": "http", "scheme": "http", "client": (peer, 5000), "server": ("127.0.0.1", 8080),
        "headers": [(b"x-forwarded-for", b"6.6.6.6"), (b"x-forwarded-proto", b"https")],
    }  # fmt: skip
    asyncio.run(config.loaded_app(scope, None, None))
    client = seen["client"]
    assert isinstance(client, tuple)
    return str(client[0]), str(seen["scheme"])


def test_no_trusted_proxies_means_no_forwarded_headers_from_loopback_either() -> None:
    assert proxy_options(frozenset()) == {"proxy_headers": False, "forwarded_allow_ips": []}
    assert seen_by_app(frozenset(), "127.0.0.1") == ("127.0.0.1", "http")


def test_a_listed_proxy_network_is_believed_and_no_other_peer() -> None:
    trusted = frozenset({"10.244.0.0/16"})
    assert seen_by_app(trusted, "10.244.3.7") == ("6.6.6.6", "https")
    assert seen_by_app(trusted, "127.0.0.1") == ("127.0.0.1", "http")
    assert seen_by_app(trusted, "192.0.2.9") == ("192.0.2.9", "http")


def test_the_middleware_is_there_only_when_someone_is_trusted() -> None:
    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        return None

    for trusted, present in ((frozenset(), False), (frozenset({"10.0.0.1"}), True)):
        config = uvicorn.Config(app, **proxy_options(trusted))
        config.load()
        assert isinstance(config.loaded_app, ProxyHeadersMiddleware) is present
