"""What the notifier does: queue messages when events arrive (in the
consumer's transaction, so a redelivered event queues nothing twice), look
for deadlines coming near, and send what is queued apart from all that, so a
failing mail server or webhook never holds up a turn or a consumer."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Connection, Engine

from pate.core.orders.effective import Author, Source, effective_orders
from pate.core.rules.validation.orders import Actor, authority
from pate.core.world.ships import InAtlantic
from pate.core.world.state import Role
from pate.v1 import events_pb2
from services.notifier import messages, webhooks
from services.notifier.sinks import Smtp, post_webhook
from services.platform import bus
from services.platform.store import notifications
from services.platform.store import repository as repo
from services.platform.telemetry.logging import get_logger

log = get_logger("notifier")


def on_turn_opened(conn: Connection, data: bytes, headers: dict[str, str], *, now: datetime) -> None:
    """Turn N is open (and so the reports of turn N-1 are out: the orders
    service opens a turn only when they are, rule 3.11)."""
    msg = events_pb2.TurnOpened.FromString(data)
    campaign, turn = msg.campaign_id, msg.turn
    deadline = msg.deadline.ToDatetime(tzinfo=UTC) if msg.HasField("deadline") else None
    subject, body = messages.turn_opened(campaign, turn, deadline)
    for player, prefs in notifications.subscribers(conn, campaign, "turn_opened"):
        notifications.enqueue(conn, campaign, player, f"turn_opened:{turn}", prefs, subject, body, now)
    if turn > 1:
        subject, body = messages.reports_ready(campaign, turn - 1)
        for player, prefs in notifications.subscribers(conn, campaign, "reports"):
            notifications.enqueue(conn, campaign, player, f"reports:{turn - 1}", prefs, subject, body, now)


def on_campaign_event(conn: Connection, data: bytes, headers: dict[str, str], *, now: datetime) -> None:
    msg_id = headers.get(bus.MSG_ID_HEADER, "")
    if msg_id and not msg_id.endswith(":finished"):
        return  # the subject carries other events too: only the campaign's end is told
    msg = events_pb2.CampaignFinished.FromString(data)
    if not msg.campaign_id:
        return
    subject, body = messages.campaign_finished(msg.campaign_id, msg.turns)
    for player, prefs in notifications.subscribers(conn, msg.campaign_id, "campaign"):
        notifications.enqueue(conn, msg.campaign_id, player, "finished", prefs, subject, body, now)


def scan_deadlines(conn: Connection, now: datetime, before: timedelta) -> int:
    """Open turns whose deadline is within ``before``: each subscribed player
    hears which of his ships have no orders (once per turn and deadline)."""
    queued = 0
    for row in repo.list_campaigns(conn):
        if row.status != "OPEN" or row.deadline is None or not now < row.deadline <= now + before:
            continue
        subs = notifications.subscribers(conn, row.id, "deadline")
        if not subs:
            continue
        world = repo.load_world_cached(conn, row.id, row.turn)
        submitted = repo.submitted_orders(conn, row.id, row.turn)
        effective = effective_orders(world.ships, submitted)
        hours = (row.deadline - now).total_seconds() / 3600
        for player, prefs in subs:
            actor = _actor(conn, row.id, player)
            if actor is None:
                continue
            idle = [
                sid
                for sid, ship in sorted(world.ships.items())
                if authority(actor, ship) in (Author.COMMANDER, Author.DEPUTY)
                and not isinstance(ship.location, InAtlantic)
                and sid in effective
                and effective[sid].source is Source.DEFAULT
            ]
            if not idle:
                continue
            subject, body = messages.deadline_near(row.id, row.turn, row.deadline, hours, idle)
            key = f"deadline:{row.turn}:{row.deadline.isoformat()}"  # a new deadline warns again
            queued += notifications.enqueue(conn, row.id, player, key, prefs, subject, body, now)
    return queued


def _actor(conn: Connection, campaign: str, player: str) -> Actor | None:
    found = repo.get_player(conn, campaign, player)
    if found is None:
        return None
    roles = frozenset(Role(r) for r in json.loads(found.roles_json))
    return Actor(player=found.id, state=found.state, roles=roles)


@dataclass
class Sender:
    """Sends the queued messages that are due; each outcome recorded at once."""

    engine: Engine
    smtp: Smtp | None
    lease: timedelta = timedelta(seconds=60)
    allow: frozenset[str] = field(default_factory=webhooks.allowed_hosts)  # PATE_WEBHOOK_HOSTS
    concurrency: int = 8  # destinations sent to at once (each one's messages in turn)

    def _claim(self, now: datetime) -> Sequence[Any]:
        with self.engine.begin() as conn:
            rows = notifications.due(conn, now)
            for r in rows:  # leased: another notifier process leaves them alone for a while
                notifications.lease(conn, r, now + self.lease)
            return rows

    def send_due(self, now: datetime | None = None) -> tuple[int, int]:
        """Send what is due: one queue per destination host, at most ``concurrency``
        destinations at once, so a slow receiver delays only its own messages."""
        now = now or datetime.now(UTC)
        queues: dict[str, list[Any]] = {}
        for r in self._claim(now):
            queues.setdefault(_destination(r), []).append(r)
        outcomes: list[bool] = []
        with ThreadPoolExecutor(max_workers=max(1, self.concurrency)) as pool:
            for done in pool.map(lambda rows: self._send_queue(rows, now), queues.values()):
                outcomes.extend(done)
        sent, failed = sum(outcomes), len(outcomes) - sum(outcomes)
        if sent or failed:
            log.info("notifications_sent", sent=sent, failed=failed)
        return sent, failed

    def _send_queue(self, rows: list[Any], now: datetime) -> list[bool]:
        outcomes = []
        for r in rows:
            ok = self._send(r)
            with self.engine.begin() as conn:
                notifications.mark(conn, r, ok, now)
            outcomes.append(ok)
        return outcomes

    def _send(self, r: Any) -> bool:
        if r.channel == "email":
            if self.smtp is None:
                log.warning("email_not_configured")  # PATE_SMTP_URL is empty
                return False
            return self.smtp.send(r.target, r.subject, r.body)
        extra = {"campaign": r.campaign, "key": r.key}
        return post_webhook(r.target, r.subject, r.body, extra, self.allow)

    async def run_once(self) -> None:
        await asyncio.to_thread(self.send_due)


def _destination(r: Any) -> str:
    """The queue a message waits in: its webhook's host (every mail goes one way)."""
    if r.channel == "email":
        return "email"
    try:
        return "webhook:" + (urlsplit(r.target).hostname or "")
    except ValueError:
        return "webhook:"
