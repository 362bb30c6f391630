"""Reports stage: each player's event and position reports, in every format."""

from __future__ import annotations

from sqlalchemy import Connection

from pate.engine.context import turn_context
from pate.engine.pipeline import reports_for
from pate.v1 import events_pb2
from services.common import bus, tracing
from services.common import repository as repo
from services.common.logging import get_logger
from services.common.outbox import emit_event

log = get_logger("reports")


def handle_intel_ready(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    msg = events_pb2.IntelReady.FromString(data)
    campaign, turn = msg.campaign_id, msg.turn
    knowledge = repo.load_knowledge(conn, campaign, turn)
    players = sorted(knowledge)
    if players and repo.load_report(conn, campaign, turn, players[0], "json") is not None:
        log.info("intel_ready_ignored", campaign=campaign, turn=turn, reason="reports exist")
        return
    ctx = turn_context()
    with tracing.span("render reports", attributes={"pate.campaign": campaign, "pate.turn": turn}):
        for player in players:
            for fmt, body in reports_for(ctx, knowledge[player]).items():
                repo.save_report(conn, campaign, turn, player, fmt, body)
    if turn > 0:
        repo.set_status(conn, campaign, turn=turn, expect=("RESOLVED",), status="REPORTED")
    event = events_pb2.ReportsReady(campaign_id=campaign, turn=turn, players=players)
    emit_event(conn, bus.REPORTS_READY, campaign, turn, event, headers)
    log.info("reports_ready", campaign=campaign, turn=turn, players=len(players))
