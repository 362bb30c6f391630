"""The notifier worker: consumes turn_opened and campaign_events,
looks for deadlines coming near, and sends what each player chose by email
(PATE_SMTP_URL) and webhook.

Settings (environment): PATE_SMTP_URL (empty: no email), PATE_NOTIFY_BEFORE_SECONDS
(how long before a deadline players hear of their ships without orders; 6 h),
PATE_NOTIFIER_POLL_SECONDS (how often queued messages and deadlines are looked
at; 5 s), PATE_NOTIFIER_ADDR (gRPC health and reflection; port 0 = any).
"""

from __future__ import annotations

import asyncio
import os
import sys
from datetime import UTC, datetime, timedelta
from functools import partial

from sqlalchemy import Connection, Engine

from services.notifier import work
from services.notifier.sinks import Smtp
from services.platform import bus
from services.platform.config import ConfigError
from services.platform.runtime.rpc import in_transaction
from services.platform.runtime.runner import Service, Stage, run_service


def _seconds(name: str, default: float) -> float:
    text = os.environ.get(name, "").strip()
    try:
        value = float(text) if text else default
    except ValueError:
        raise ConfigError(f"{name}={text!r}: expected a number of seconds") from None
    if value <= 0:
        raise ConfigError(f"{name}={text!r}: expected a positive number of seconds")
    return value


def _turn_opened(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    work.on_turn_opened(conn, data, headers, now=datetime.now(UTC))


def _campaign_event(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    work.on_campaign_event(conn, data, headers, now=datetime.now(UTC))


def build() -> Service:
    smtp = Smtp.from_url(os.environ.get("PATE_SMTP_URL", "").strip())
    before = timedelta(seconds=_seconds("PATE_NOTIFY_BEFORE_SECONDS", 6 * 3600))
    poll = _seconds("PATE_NOTIFIER_POLL_SECONDS", 5)
    senders: dict[int, work.Sender] = {}

    async def deadlines(engine: Engine) -> None:
        await in_transaction(engine, partial(work.scan_deadlines, now=datetime.now(UTC), before=before))

    async def deliver(engine: Engine) -> None:
        sender = senders.setdefault(id(engine), work.Sender(engine, smtp))
        await sender.run_once()

    return Service(
        name="notifier",
        stages=(
            Stage("notifier-turns", bus.TURN_OPENED, _turn_opened),
            Stage("notifier-campaigns", bus.CAMPAIGN_EVENTS, _campaign_event),
        ),
        grpc_addr=lambda s: os.environ.get("PATE_NOTIFIER_ADDR", "").strip() or "127.0.0.1:0",
        periodic=((lambda s: poll, deadlines), (lambda s: poll, deliver)),
    )


def main() -> int:
    try:
        service = build()
    except ConfigError as err:
        print(f"pate notifier: {err}", file=sys.stderr)
        return 2
    return asyncio.run(run_service(service))


if __name__ == "__main__":
    sys.exit(main())
