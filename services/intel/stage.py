"""Intel stage: what each player's ships could know of a resolved turn (section 5).

Turn 0 stands for the start of the campaign: knowledge of the starting
positions with no events (rule 3.11).
"""

from __future__ import annotations

from sqlalchemy import Connection

from pate.engine.context import turn_context
from pate.engine.pipeline import all_knowledge
from pate.v1 import events_pb2
from services.platform import bus
from services.platform.bus.group import groupable
from services.platform.bus.outbox import emit_event
from services.platform.store import repository as repo
from services.platform.telemetry import tracing
from services.platform.telemetry.logging import get_logger
from services.platform.telemetry.metrics import rules_cpu

log = get_logger("intel")


@groupable  # its messages may share a transaction (services/platform/bus/group.py)
def handle_turn_resolved(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    msg = events_pb2.TurnResolved.FromString(data)
    campaign, turn = msg.campaign_id, msg.turn
    # each player's picture of the enemy goes on from his knowledge of the turn before (none
    # before turn 0); asked with whether this turn's is stored already, in one statement
    previous = repo.knowledge_before(conn, campaign, turn)
    if previous is None:
        log.info("turn_resolved_ignored", campaign=campaign, turn=turn, reason="knowledge exists")
        return
    # decoded once per process: the next world of this turn is the world before the next one
    if turn == 0:
        before = after = repo.load_world_cached(conn, campaign, 1)
        events = []
    else:
        before = repo.load_world_cached(conn, campaign, turn)
        after = repo.load_world_cached(conn, campaign, turn + 1)
        events = repo.load_events(conn, campaign, turn)
    with (
        tracing.span("knowledge", attributes={"pate.campaign": campaign, "pate.turn": turn}),
        rules_cpu("intel") as rules,
    ):
        knowledge = all_knowledge(turn_context(), before, after, events, previous=previous)
    repo.save_all_knowledge(conn, campaign, turn, knowledge)
    event = events_pb2.IntelReady(campaign_id=campaign, turn=turn, players=sorted(knowledge))
    emit_event(conn, bus.INTEL_READY, campaign, turn, event, headers)
    log.info("intel_ready", campaign=campaign, turn=turn, players=len(knowledge), rules_cpu_ms=rules.ms)
