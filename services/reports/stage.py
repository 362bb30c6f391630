"""Reports stage: each player's event and position reports.

The stage stores the structured report (the player's knowledge, as canonical
JSON) of every player; the text and HTML forms are rendered from it on first
request by the reports service and kept (:mod:`services.reports.rendering`),
so a closed turn is reported without rendering reports nobody reads yet.  The
rendering is pure, so a form rendered late is the same bytes as one rendered
at once.
"""

from __future__ import annotations

from sqlalchemy import Connection

from pate.v1 import events_pb2
from services.platform import bus
from services.platform.bus.group import groupable
from services.platform.bus.outbox import emit_event
from services.platform.store import repository as repo
from services.platform.telemetry import tracing
from services.platform.telemetry.logging import get_logger

log = get_logger("reports")


@groupable  # its messages may share a transaction (services/platform/bus/group.py)
def handle_intel_ready(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    msg = events_pb2.IntelReady.FromString(data)
    campaign, turn = msg.campaign_id, msg.turn
    knowledge = repo.load_knowledge(conn, campaign, turn)
    players = sorted(knowledge)
    if players and repo.load_report(conn, campaign, turn, players[0], "json") is not None:
        log.info("intel_ready_ignored", campaign=campaign, turn=turn, reason="reports exist")
        return
    with tracing.span("store reports", attributes={"pate.campaign": campaign, "pate.turn": turn}):
        repo.save_reports(conn, campaign, turn, "json", knowledge)
    if turn > 0:
        repo.set_status(conn, campaign, turn=turn, expect=("RESOLVED",), status="REPORTED")
    event = events_pb2.ReportsReady(campaign_id=campaign, turn=turn, players=players)
    emit_event(conn, bus.REPORTS_READY, campaign, turn, event, headers)
    log.info("reports_ready", campaign=campaign, turn=turn, players=len(players))
