"""The bot admiral service (docs/bots.md): a client of the orders and reports
services, like a human player, that plays the players the bot holds.

Settings (environment): PATE_ORDERS_ADDR, PATE_REPORTS_ADDR, PATE_ADMIRAL_TOKEN (or PATE_ADMIN_TOKEN)
(the game master's token: it asks the orders service for its players'
sessions), PATE_ADMIRAL_LEVEL (cautious | bold; bold), PATE_ADMIRAL_WAIT_SECONDS
(how long one BotAdmirals.WaitForWork call waits for work; 20 s, at most 60;
0 = no long poll), PATE_ADMIRAL_POLL_SECONDS (how often the open turns are
looked at without the long poll, and the pause after a sweep that failed or
played nothing of the work it was told of; 2 s), PATE_ADMIRAL_ADDR (gRPC
health and reflection; port 0 = any), PATE_METRICS_ADDR (Prometheus; none
when empty).  It opens no database and no bus.

It asks the orders service for work with a long poll (docs/bots.md "Waiting for
work"), so it plays a seat as soon as its turn opens, not at its next look: a
solo player's turn then closes at his Confirm (docs/operations.md "The solo wait").
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys

import grpc

from pate.admiral.levels import Level
from pate.engine.bots import DEFAULT_LEVEL, load_levels
from pate.engine.context import turn_context
from pate.v1 import bots_pb2
from services.admiral.work import TIMEOUT, Metadata, Stubs, credentials, sweep
from services.platform.config import ConfigError, Settings, load_settings
from services.platform.processes import die_with_launcher
from services.platform.runtime.grpcutil import serve_grpc
from services.platform.security.redial import RotatingChannel
from services.platform.security.tls import load_tls
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import configure_logging, get_logger

log = get_logger("admiral")


def _seconds(name: str, default: float, top: float, zero: bool = False) -> float:
    text = os.environ.get(name, "").strip()
    try:
        value = float(text) if text else default
    except ValueError:
        raise ConfigError(f"{name}={text!r}: expected a number of seconds") from None
    low_ok = value >= 0 if zero else value > 0
    if not low_ok or value > top:
        raise ConfigError(f"{name}={text!r}: expected 0 to {top:g} seconds")
    return value


def _poll() -> float:
    return _seconds("PATE_ADMIRAL_POLL_SECONDS", 2.0, 3600)


def _wait() -> float:
    return _seconds("PATE_ADMIRAL_WAIT_SECONDS", 20.0, 60, zero=True)


async def ask_for_work(stubs: Stubs, admin: Metadata, wait: float, stop: asyncio.Event) -> list[str] | None:
    """The campaigns the orders service names as having work (none at the call's timeout),
    or None once ``stop`` is set: the call in flight is then cancelled, not waited out."""
    req = bots_pb2.WaitForWorkRequest(timeout_seconds=wait)
    with tracing.untraced():  # an idle server's long polls say nothing: no trace of their own
        call = stubs.bots.WaitForWork.future(req, metadata=admin, timeout=wait + TIMEOUT)
    answer = asyncio.ensure_future(asyncio.to_thread(call.result))
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({answer, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if not answer.done():
        call.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await answer
        return None
    return list(answer.result().campaign_ids)


async def serve_seats(
    stubs: Stubs, settings: Settings, level: Level, poll: float, wait: float, stop: asyncio.Event
) -> None:
    """Play the bot's seats until ``stop``: each sweep after the long poll names work (or at
    its timeout, all of them), or every ``poll`` seconds if the server has no long poll."""
    ctx = turn_context()
    creds = credentials(settings.admin_token, settings.admiral_token)
    long_poll = wait > 0
    while not stop.is_set():
        only: list[str] = []
        try:
            if long_poll:
                named = await ask_for_work(stubs, creds, wait, stop)
                if named is None:
                    return
                only = named
            played = await asyncio.to_thread(sweep, stubs, creds, ctx, level, only)
        except grpc.RpcError as err:  # a service restarting: the next sweep tries again
            if err.code() == grpc.StatusCode.UNIMPLEMENTED and long_poll:
                long_poll = False  # an orders service older than WaitForWork: look every poll
            log.warning("sweep_failed", status=str(err.code()))
            played = -1
        # no long poll, a failure, or work named but none played (a seat that cannot be played
        # now): pause, so a server answering at once is never asked in a busy loop
        if not long_poll or played < 0 or (only and played == 0):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=poll)


async def run() -> int:
    try:
        settings = load_settings()
        poll, wait = _poll(), _wait()
        name = os.environ.get("PATE_ADMIRAL_LEVEL", "").strip() or DEFAULT_LEVEL
        levels = load_levels()
        if name not in levels:
            raise ConfigError(f"PATE_ADMIRAL_LEVEL={name!r}: one of {', '.join(sorted(levels))}")
        if not (settings.admiral_token or settings.admin_token):
            raise ConfigError("PATE_ADMIRAL_TOKEN: the admiral needs its token (or PATE_ADMIN_TOKEN)")
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
    log.info("service_started", level=name, wait_s=wait)
    try:
        await serve_seats(stubs, settings, levels[name], poll, wait, stop)
    finally:
        await server.stop(grace=2)
        orders.close()
        reports.close()
        log.info("service_stopped")
    return 0


def main() -> int:
    die_with_launcher()
    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
