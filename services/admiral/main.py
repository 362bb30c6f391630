"""The bot admiral service (docs/bots.md): a client of the orders and reports
services, like a human player, that plays the players the bot holds.

Settings (environment): PATE_ORDERS_ADDR, PATE_REPORTS_ADDR, PATE_ADMIN_TOKEN
(the game master's token: it asks the orders service for its players'
sessions), PATE_ADMIRAL_LEVEL (cautious | bold; bold), PATE_ADMIRAL_POLL_SECONDS
(how often the open turns are looked at; 2 s), PATE_ADMIRAL_ADDR (gRPC
health and reflection; port 0 = any), PATE_METRICS_ADDR (Prometheus; none
when empty).  It opens no database and no bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys

import grpc

from pate.engine.bots import DEFAULT_LEVEL, load_levels
from pate.engine.context import turn_context
from services.admiral.work import Stubs, sweep
from services.platform.config import ConfigError, load_settings
from services.platform.runtime.grpcutil import serve_grpc
from services.platform.security.redial import RotatingChannel
from services.platform.security.tls import load_tls
from services.platform.telemetry import metrics
from services.platform.telemetry.logging import configure_logging, get_logger

log = get_logger("admiral")


def _poll() -> float:
    text = os.environ.get("PATE_ADMIRAL_POLL_SECONDS", "").strip()
    try:
        value = float(text) if text else 2.0
    except ValueError:
        raise ConfigError(f"PATE_ADMIRAL_POLL_SECONDS={text!r}: expected a number of seconds") from None
    if not 0 < value <= 3600:
        raise ConfigError(f"PATE_ADMIRAL_POLL_SECONDS={text!r}: expected 0 to 3600 seconds")
    return value


async def run() -> int:
    try:
        settings = load_settings()
        poll = _poll()
        name = os.environ.get("PATE_ADMIRAL_LEVEL", "").strip() or DEFAULT_LEVEL
        levels = load_levels()
        if name not in levels:
            raise ConfigError(f"PATE_ADMIRAL_LEVEL={name!r}: one of {', '.join(sorted(levels))}")
        if not settings.admin_token:
            raise ConfigError("PATE_ADMIN_TOKEN: the admiral needs the game master's token")
    except ConfigError as err:
        print(f"pate-admiral: {err}", file=sys.stderr)
        return 2
    configure_logging("admiral", settings)
    metrics.serve_metrics(settings.metrics_addr)  # its process and gRPC health figures
    tls = load_tls()
    server = await serve_grpc(
        [], os.environ.get("PATE_ADMIRAL_ADDR", "").strip() or "127.0.0.1:0", "admiral", tls=tls
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    # dialled again when the certificate files are renewed, for the stubs made once here
    orders, reports = RotatingChannel(settings.orders_addr, tls), RotatingChannel(settings.reports_addr, tls)
    stubs = Stubs.of(orders, reports)
    ctx = turn_context()
    log.info("service_started", level=name)
    try:
        while not stop.is_set():
            try:
                await asyncio.to_thread(sweep, stubs, settings.admin_token, ctx, levels[name])
            except grpc.RpcError as err:  # a service restarting: the next sweep tries again
                log.warning("sweep_failed", status=str(err.code()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=poll)
    finally:
        await server.stop(grace=2)
        orders.close()
        reports.close()
        log.info("service_stopped")
    return 0


def main() -> int:
    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
