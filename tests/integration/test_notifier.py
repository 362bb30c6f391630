"""The notifier worker's work on a real database, with a local SMTP sink
(aiosmtpd) and a local webhook receiver: what each player chose reaches him
once, a redelivered event sends nothing twice, a failing sink is retried
later without stopping anything, and a deadline coming near names the ships
without orders."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlalchemy import Engine, select

from pate.datafiles import load_scenario
from pate.v1 import events_pb2
from services.notifier import work
from services.notifier.sinks import Smtp
from services.orders import campaigns
from services.platform.bus.natsserver import free_port
from services.platform.errors import DeskError
from services.platform.store import notifications, tables
from services.platform.store import repository as repo
from tests.support.passwords import EveryPlayer

pytestmark = pytest.mark.integration
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

# the tests' own receivers listen on loopback: listed as the operator would (PATE_WEBHOOK_HOSTS)
LOCAL = frozenset({"127.0.0.1"})


class Inbox:
    def __init__(self) -> None:
        self.mails: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        self.mails.append(envelope)
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Smtp, Inbox]]:
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield Smtp.from_url(f"smtp://127.0.0.1:{port}?from=desk@pate.test"), inbox  # type: ignore[misc]
    finally:
        controller.stop()


@pytest.fixture
def hooks() -> Iterator[tuple[str, list[dict[str, Any]], dict[str, int]]]:
    got: list[dict[str, Any]] = []
    state = {"status": 204}

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["content-length"]))
            if state["status"] < 300:
                got.append(json.loads(body))
            self.send_response(state["status"])
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", got, state
    finally:
        server.shutdown()


@pytest.fixture
def campaign(engine: Engine) -> str:
    scenario = load_scenario("training")
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            "notes",
            scenario,
            "training",
            seed=1,
            turns=15,
            first_deadline=NOW + timedelta(hours=2),
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        repo.set_status(
            conn, "notes", turn=1, expect=("STARTING",), status="OPEN", deadline=NOW + timedelta(hours=2)
        )
    return "notes"


def _opened(turn: int) -> bytes:
    msg = events_pb2.TurnOpened(campaign_id="notes", turn=turn)
    msg.deadline.FromDatetime(NOW + timedelta(days=1))
    return msg.SerializeToString()


def _subscribe(engine: Engine, player: str, hook: str, kinds: list[str], email: str = "") -> None:
    prefs = notifications.check_prefs(email, hook, kinds)
    with engine.begin() as conn:
        notifications.set_prefs(conn, "notes", player, prefs, NOW)


def test_a_turn_opening_reaches_mail_and_webhook_once_even_when_redelivered(
    engine, campaign, smtp, hooks
) -> None:
    sink, inbox = smtp
    url, got, _ = hooks
    _subscribe(engine, "cornwallis", url, ["turn_opened", "reports"], email="cornwallis@fleet.test")
    _subscribe(engine, "calder", url, ["deadline"])  # chose nothing about turns opening
    for _ in range(2):  # the bus delivers the event twice
        with engine.begin() as conn:
            work.on_turn_opened(conn, _opened(2), {}, now=NOW)
    sender = work.Sender(engine, sink, allow=LOCAL)
    assert sender.send_due(NOW) == (4, 0)  # turn open + reports ready, by mail and by webhook
    assert sender.send_due(NOW + timedelta(hours=1)) == (0, 0)
    subjects = sorted(
        m.content.decode().split("Subject: ", 1)[1].split("\n", 1)[0].strip() for m in inbox.mails
    )
    assert subjects == ["notes: turn 2 is open", "notes: your reports of turn 1 are ready"]
    assert all(m.rcpt_tos == ["cornwallis@fleet.test"] for m in inbox.mails)
    assert sorted(h["subject"] for h in got) == subjects
    assert all("content" in h and "text" in h for h in got)  # what Discord and Slack read


def test_a_failing_webhook_is_retried_later_and_holds_nothing_up(engine, campaign, smtp, hooks) -> None:
    sink, inbox = smtp
    url, got, state = hooks
    _subscribe(engine, "cornwallis", url, ["turn_opened"], email="cornwallis@fleet.test")
    with engine.begin() as conn:
        work.on_turn_opened(conn, _opened(3), {}, now=NOW)
    state["status"] = 500
    sender = work.Sender(engine, sink, allow=LOCAL)
    assert sender.send_due(NOW) == (1, 1)  # the mail went; the webhook failed
    assert len(inbox.mails) == 1 and got == []
    assert sender.send_due(NOW + timedelta(seconds=1)) == (0, 0)  # not before its wait
    state["status"] = 200
    assert sender.send_due(NOW + timedelta(minutes=5)) == (1, 0)
    assert len(got) == 1 and len(inbox.mails) == 1
    with engine.connect() as conn:
        rows = conn.execute(select(tables.notifications.c.status, tables.notifications.c.attempts)).all()
    assert sorted(rows) == [("sent", 1), ("sent", 2)]


def test_a_dead_mail_server_gives_up_after_the_last_attempt(engine, campaign) -> None:
    _subscribe(engine, "cornwallis", "", ["turn_opened"], email="cornwallis@fleet.test")
    with engine.begin() as conn:
        work.on_turn_opened(conn, _opened(4), {}, now=NOW)
    sender = work.Sender(engine, Smtp.from_url(f"smtp://127.0.0.1:{free_port()}"), allow=LOCAL)
    at = NOW
    for _ in range(notifications.MAX_ATTEMPTS):
        assert sender.send_due(at) == (0, 1)
        at += timedelta(hours=2)
    assert sender.send_due(at) == (0, 0)
    with engine.connect() as conn:
        assert conn.execute(select(tables.notifications.c.status)).scalars().all() == ["failed"]


def test_a_deadline_coming_near_names_the_ships_without_orders(engine, campaign, hooks) -> None:
    url, got, _ = hooks
    _subscribe(engine, "calder", url, ["deadline"])
    _subscribe(engine, "cornwallis", url, ["turn_opened"])  # did not ask
    with engine.begin() as conn:
        assert work.scan_deadlines(conn, NOW - timedelta(hours=10), timedelta(hours=6)) == 0  # not yet near
        assert work.scan_deadlines(conn, NOW, timedelta(hours=6)) == 1
        assert work.scan_deadlines(conn, NOW + timedelta(minutes=5), timedelta(hours=6)) == 0  # once
    assert work.Sender(engine, None, allow=LOCAL).send_due(NOW) == (1, 0)
    assert got[0]["subject"] == "notes: deadline of turn 1 in 2 hours"
    assert "BR2FL" in got[0]["text"] and "BR2FR" in got[0]["text"] and "BR1FL" not in got[0]["text"]
    assert "BR3SL" not in got[0]["text"]  # attached to BR2FL: it copies her orders (rule 4.2)


def test_choices_are_checked_field_by_field() -> None:
    with pytest.raises(DeskError, match="email"):
        notifications.check_prefs("not an address\r\nBcc: x@y.z", "", [])
    with pytest.raises(DeskError, match="webhook"):
        notifications.check_prefs("", "file:///etc/passwd", [])
    with pytest.raises(DeskError, match="kinds"):
        notifications.check_prefs("", "", ["everything"])
