"""``pate serve web``: the web Ship Order Desk on PATE_WEB_ADDR.

A client of the orders and reports services (PATE_ORDERS_ADDR,
PATE_REPORTS_ADDR; over TLS when PATE_TLS_CA is set); it keeps serving, with
a page saying so, while either of them is down.  SIGTERM stops it cleanly (uvicorn's own handling).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from pate.core.world.fields import DataError
from pate.messaging import message_limits
from services.platform.config import ConfigError, load_settings
from services.platform.processes import die_with_launcher
from services.platform.security.tls import load_tls
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import configure_logging, get_logger
from services.platform.telemetry.observe import ObservedAsgi
from services.web import server
from services.web.backend import Backend
from services.web.config import load_web_settings
from services.web.ready import Readiness
from services.web.routes import create_app

log = get_logger("web")


def main() -> int:
    die_with_launcher()
    try:
        platform = load_settings()
        configure_logging("web", platform)
        settings = load_web_settings()
        tls = load_tls()  # a bad PATE_TLS_* path stops the process here, not at the first page
        message_limits()  # so does a bad data/messages.toml
    except (ConfigError, DataError) as err:
        print(f"pate web: {err}", file=sys.stderr)
        return 2
    backend = Backend(settings.orders_addr, settings.reports_addr, tls)
    # /metrics on PATE_METRICS_ADDR as every process; each request counted, logged and traced
    tracing.configure_tracing("web", platform.otlp_endpoint)
    metrics.serve_metrics(platform.metrics_addr)
    desk_app = create_app(backend, settings)
    app = ObservedAsgi(desk_app, routes=desk_app.routes)
    log.info(
        "web_listening",
        addr=settings.addr,
        health=settings.health_addr,
        orders=settings.orders_addr,
        reports=settings.reports_addr,
    )
    # deadlines for reading requests, a per-request concurrency limit, health apart (server.py)
    asyncio.run(
        server.serve(
            app,
            (settings.host, settings.port),
            settings.guard,
            settings.health,
            Readiness(backend).down,
            **proxy_options(platform.trusted_proxies),
        )
    )
    return 0


def proxy_options(trusted: frozenset[str]) -> dict[str, Any]:
    """X-Forwarded-For/-Proto are believed only from PATE_TRUSTED_PROXIES (the ingress
    controller's network in production); with it unset, from no one, not even 127.0.0.1
    (uvicorn's default) and whatever FORWARDED_ALLOW_IPS says."""
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": sorted(trusted)}


if __name__ == "__main__":
    sys.exit(main())
