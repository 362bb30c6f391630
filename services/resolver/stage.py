"""Resolver stage: a closed turn becomes the next world state, exactly once.

Runs inside the idempotent consumer's transaction: the new world state, the
events, the replay record, the status change and the outbox row commit
together.  A second delivery, a restarted worker or a racing worker finds the
next world state already stored (its primary key makes a racing insert fail and
roll back) and does nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from sqlalchemy import Connection

from pate.core.campaign import resolve_submitted
from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.events import Event
from pate.core.orders.effective import EffectiveOrder
from pate.core.orders.model import StoresMove
from pate.core.rules.amphibious import transfer_turn
from pate.core.rules.landsaga import LandTransfer, LandWord
from pate.core.rules.landsync import PortLandReport
from pate.core.rules.validation.assign import Assignment, apply_assignments
from pate.core.world.state import WorldState
from pate.engine.context import turn_context
from pate.v1 import events_pb2
from services.platform import bus
from services.platform.bus.consumer import is_transient
from services.platform.bus.group import groupable
from services.platform.bus.outbox import emit_event
from services.platform.config import gitm_address
from services.platform.faults import crash_point
from services.platform.store import assignments, failures
from services.platform.store import repository as repo
from services.platform.telemetry import tracing
from services.platform.telemetry.logging import get_logger
from services.platform.telemetry.metrics import TURN_FAILURES, rules_cpu
from services.resolver import bridge, land_questions
from services.resolver.gitm import client_for

log = get_logger("resolver")
STAGE = "resolver"  # the durable consumer's name: a failure says which stage gave up


@groupable  # its messages may share a transaction (services/platform/bus/group.py)
def handle_turn_closed(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    msg = events_pb2.TurnClosed.FromString(data)
    campaign, turn = msg.campaign_id, msg.turn
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None or row.turn != turn or row.status not in ("CLOSED", "RESOLVING"):
        log.info("turn_closed_ignored", campaign=campaign, turn=turn, reason="not closed")
        return
    probe = repo.probe_turn(conn, campaign, turn)  # after the lock: it sees what the lock waited for
    if probe.resolved:
        log.info("turn_closed_ignored", campaign=campaign, turn=turn, reason="already resolved")
        return
    world = repo.load_world_resolved(conn, campaign, turn, probe.digest)
    # players whose orders the game master replaced by the defaults of rule 4.11 (a failed turn)
    defaulted = failures.defaulted_players(conn, campaign, turn) if probe.defaulted else frozenset()
    moves = repo.stores_moves(conn, campaign, turn, excluding=defaulted) if probe.moves else []
    land, word = fetch_land_inputs(conn, world) if row.gitm else ([], None)
    submitted = repo.submitted_orders(conn, campaign, turn, excluding=defaulted)
    # rule 4.11, as his orders
    officers = assignments.assignments(conn, campaign, turn, excluding=defaulted) if probe.officers else []
    try:
        with (
            tracing.span("resolve", attributes={"pate.campaign": campaign, "pate.turn": turn}),
            rules_cpu(STAGE) as rules,
        ):
            crash_point(f"resolver.resolve.{campaign}")  # the failed-turn tests make one campaign fail
            resolution = resolve_submitted(turn_context(), world, submitted, moves, land, word)
            # rule 2.3: the officers the naval ministers assigned command from the next turn
            after = apply_assignments(resolution.result.state, officers)
    except Exception as exc:
        if is_transient(exc):
            raise
        mark_failed(conn, msg, data, headers, exc)
        return
    result = resolution.result
    if probe.failed:
        failures.clear_failure(conn, campaign)
    state_sha = repo.save_world(conn, campaign, turn + 1, after, resolved_from=world)
    repo.remember_world(conn, campaign, turn + 1, after, state_sha)
    events_text = repo.save_events(conn, campaign, turn, result.events)
    orders_json = replay_inputs(resolution.effective, moves, land, officers, word)
    repo.save_resolution(conn, campaign, turn, orders_json, digest_of(state_sha, events_text))
    repo.set_status(conn, campaign, turn=turn, expect=("CLOSED", "RESOLVING"), status="RESOLVED")
    event = events_pb2.TurnResolved(
        campaign_id=campaign, turn=turn, state_sha256=state_sha, events=len(result.events)
    )
    crash_point("resolver.before_commit")  # the crash test kills the worker here
    emit_event(conn, bus.TURN_RESOLVED, campaign, turn, event, headers)
    log.info(
        "turn_resolved",
        campaign=campaign,
        turn=turn,
        events=len(result.events),
        state_sha256=state_sha,
        rules_cpu_ms=rules.ms,
    )


def replay_inputs(
    effective: Mapping[str, EffectiveOrder],
    moves: Sequence[StoresMove],
    land: Sequence[PortLandReport],
    officers: Sequence[Assignment],
    word: LandWord | None,
) -> str:
    """What a replay needs besides the world, as canonical JSON: the effective orders, the
    store moves, GITM's land reports and word, and the officers assigned."""
    inputs = {
        "orders": {sid: to_plain(e) for sid, e in effective.items()},
        "stores_moves": [to_plain(m) for m in moves],
        "land_reports": [to_plain(r) for r in land],
        "assignments": [to_plain(a) for a in officers],
    }
    if word is not None:
        inputs["land_word"] = to_plain(word)
    return canonical_json(inputs)


def mark_failed(
    conn: Connection, msg: events_pb2.TurnClosed, data: bytes, headers: dict[str, str], exc: Exception
) -> None:
    """The engine cannot resolve this turn: the campaign waits for its game master with the
    reason (docs/operations.md, "A failed turn"), committed with this message, so a
    redelivery changes nothing.  The same inputs would fail again: nothing to retry by itself."""
    campaign, turn = msg.campaign_id, msg.turn
    reason = failures.failure_reason(exc)
    subject = bus.subject(bus.TURN_CLOSED, campaign)
    failures.record_failure(
        conn, campaign, turn, stage=STAGE, reason=reason, subject=subject, payload=data, headers=headers
    )
    TURN_FAILURES.labels(stage=STAGE).inc()
    log.error("turn_failed", campaign=campaign, turn=turn, reason=reason, exc_info=exc)


def result_digest(state_sha: str, events: Sequence[Event]) -> str:
    """One digest over the next world state and the turn's events (for replay)."""
    return digest_of(state_sha, repo.events_json(events))


def digest_of(state_sha: str, events_text: str) -> str:
    """The same digest from the events' canonical JSON array (as save_events returns it)."""
    return repo.sha256(state_sha + events_text)


def fetch_land_inputs(conn: Connection, world: WorldState) -> tuple[list[PortLandReport], LandWord | None]:
    """What GITM says of the units in the ports where ships are and of the
    earlier transfers, asked once per turn of a campaign played with GITM and
    stored with the orders, so a replay never asks again.  No GITM configured
    (PATE_GITM_ADDR empty) or a campaign created without it: nothing to ask,
    the world's own units stand.  GITM unreachable: the turn resolves without
    it (docs/gitm.md)."""
    addr = gitm_address()
    if not addr:
        return [], None
    earlier = earlier_transfers(conn, world.campaign, world.turn)
    turns = (transfer_turn(t.transfer) for t in earlier)
    told = bridge.delivered_turns(conn, world.campaign, (t for t in turns if t is not None))
    after = events_read(conn, world.campaign, world.turn)
    return land_questions.land_inputs(client_for(addr), world, turn_context().map, earlier, told, after)


def events_read(conn: Connection, campaign: str, turn: int) -> int:
    """The last sequence of GITM's land events PATE applied (docs/gitm.md "Land events"): the
    ``events_after`` of the latest turn resolved with GITM's word, so that a turn resolved
    without GITM configured in between does not read the feed again from its start."""
    for earlier in range(turn - 1, 0, -1):
        stored = repo.load_resolution(conn, campaign, earlier)
        word = json.loads(stored[0]).get("land_word") if stored is not None else None
        if word:
            return int(word.get("events_after", 0))
    return 0


def earlier_transfers(conn: Connection, campaign: str, turn: int) -> list[LandTransfer]:
    """The transfers not yet settled in GITM: those still pending when the
    last turn was resolved, and those the last turn began (when GITM was
    asked then: a resolver without PATE_GITM_ADDR resolves a GITM campaign's
    turn without it)."""
    if turn <= 1:
        return []
    stored = repo.load_resolution(conn, campaign, turn - 1)
    word = json.loads(stored[0]).get("land_word") if stored is not None else None
    if not word:  # resolved with no GITM configured: nothing of it was told, nothing to wait for
        return []
    pending: list[LandTransfer] = list(from_plain(LandWord, word).pending)
    return pending + land_questions.begun_on_map(repo.load_events(conn, campaign, turn - 1))
