"""Campaign administration and the turn lifecycle (rule 3.1).

OPEN -> CLOSED (administrator or deadline) -> RESOLVED (resolver) -> REPORTED
(reports) -> the next turn OPEN, or FINISHED after the last turn.  A new
campaign starts in STARTING while the reports of its starting positions are
made (rule 3.11, turn 0 of the pipeline).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from prometheus_client import Counter
from sqlalchemy import Connection

from pate.core.codec import canonical_json
from pate.core.scenario.parse import Scenario
from pate.core.world.state import COMBAT_RULESETS, NAVAL_RULESETS, WorldState
from pate.engine.context import turn_context
from pate.v1 import events_pb2
from services.orders import absence, civil, reliability, schedule
from services.platform import bus
from services.platform.bus.outbox import emit_event
from services.platform.config import gitm_address
from services.platform.errors import Code, DeskError
from services.platform.security import field_shapes
from services.platform.security.passwords import MAX_PASSWORD_LENGTH
from services.platform.security.quoting import excerpt
from services.platform.store import repository as repo
from services.platform.telemetry import tracing
from services.platform.telemetry.logging import get_logger

log = get_logger("orders")

CAMPAIGN_ID = field_shapes.CAMPAIGN_ID
CLOSE_FAILURES = Counter(
    "pate_deadline_close_failures", "Turns past their deadline that could not be closed (bad data)"
)


def check_fits(scenario: Scenario) -> None:
    """The scenario's names fit the columns and the id rules they are stored under
    (a scenario given inline is as hostile as any other input)."""
    if len(scenario.name) > 200:
        raise DeskError(Code.INVALID_ARGUMENT, "scenario: its name is longer than 200 characters")
    for p in scenario.world.players.values():
        if not field_shapes.PLAYER_ID.fullmatch(p.id):
            raise DeskError(
                Code.INVALID_ARGUMENT,
                f"scenario: player id {excerpt(p.id)} is not [A-Za-z0-9_.-]{{1,64}}",
            )
        if len(p.name) > 200 or (p.state is not None and len(p.state) > 64):
            raise DeskError(Code.INVALID_ARGUMENT, f"scenario: player {p.id}: name or state too long")


def create_campaign(
    conn: Connection,
    campaign: str,
    scenario: Scenario,
    scenario_name: str,
    *,
    seed: int,
    turns: int,
    first_deadline: datetime | None,
    turn_seconds: int,
    password_hashes: Mapping[str, str],
    combat_rules: str = "",
    naval_rules: str = "",
) -> repo.CampaignRow:
    """Store a new campaign; ``password_hashes`` holds the argon2 hash of every player's password."""
    _check_id(conn, campaign)
    _check_settings(seed=seed, turns=turns, turn_seconds=turn_seconds, combat_rules=combat_rules)
    _check_naval_rules(naval_rules)
    check_fits(scenario)
    start = replace(scenario.world, combat_rules=combat_rules) if combat_rules else scenario.world
    start = replace(start, naval_rules=naval_rules) if naval_rules else start
    # imported here: it brings the whole turn resolution, which the orders process needs only
    # to create a campaign, and a restarted orders process serves sooner without it
    from pate.core.campaign import start_campaign

    world = start_campaign(turn_context(), start, campaign, seed, turns, place=scenario.placement == "random")
    row = repo.CampaignRow(
        id=campaign,
        name=scenario.name,
        scenario=scenario_name,
        seed=seed,
        turns=turns,
        turn=1,
        status="STARTING",
        deadline=first_deadline,
        turn_seconds=turn_seconds,
        combat_rules=world.combat_rules,  # the rules of the world actually started
        naval_rules=world.naval_rules,
        gitm=gitm_address() is not None,  # fixed for the campaign's life (docs/gitm.md)
    )
    repo.insert_campaign(conn, row)
    repo.save_world(conn, campaign, 1, world)
    repo.insert_players(conn, campaign, _player_rows(world, password_hashes))
    # Turn 0 of the pipeline: the position reports of the start (rule 3.11).
    started = events_pb2.TurnResolved(campaign_id=campaign, turn=0, events=0)
    emit_event(conn, bus.TURN_RESOLVED, campaign, 0, started)
    log.info("campaign_created", campaign=campaign, scenario=scenario_name, seed=seed, turns=turns)
    return row


def _check_id(conn: Connection, campaign: str) -> None:
    if not CAMPAIGN_ID.fullmatch(campaign):
        raise DeskError(Code.INVALID_ARGUMENT, "id: use 1 to 40 lowercase letters, digits and dashes")
    if repo.get_campaign(conn, campaign) is not None:
        raise DeskError(Code.ALREADY_EXISTS, f"id: campaign {campaign!r} already exists")


def _check_settings(*, seed: int, turns: int, turn_seconds: int, combat_rules: str) -> None:
    """Each setting within its limit, refused by its field's name."""
    if turns < 1 or turns > 100:
        raise DeskError(Code.INVALID_ARGUMENT, "turns: must be between 1 and 100")
    if not 0 <= seed < 2**63:
        raise DeskError(Code.INVALID_ARGUMENT, "seed: must be below 2^63")
    if not 0 <= turn_seconds <= field_shapes.MAX_TURN_SECONDS:
        raise DeskError(Code.INVALID_ARGUMENT, f"turn_seconds: between 0 and {field_shapes.MAX_TURN_SECONDS}")
    if combat_rules and combat_rules not in COMBAT_RULESETS:
        known = ", ".join(COMBAT_RULESETS)
        raise DeskError(
            Code.INVALID_ARGUMENT, f"combat_rules: {combat_rules[:40]!r} is not a known rule set ({known})"
        )


def _check_naval_rules(naval_rules: str) -> None:
    if naval_rules and naval_rules not in NAVAL_RULESETS:
        known = ", ".join(NAVAL_RULESETS)
        raise DeskError(
            Code.INVALID_ARGUMENT, f"naval_rules: {naval_rules[:40]!r} is not a known rule set ({known})"
        )


def _player_rows(world: WorldState, password_hashes: Mapping[str, str]) -> Iterator[dict[str, Any]]:
    """The players' rows in id order, each with the hash of its password."""
    for p in sorted(world.players.values(), key=lambda p: p.id):
        yield {
            "id": p.id,
            "name": p.name,
            "state": p.state,
            "roles_json": canonical_json(sorted(r.value for r in p.roles)),
            "password_hash": password_hashes[p.id],
        }


GENERATED_PASSWORD_BYTES = 12  # 96 random bits, 16 characters
MIN_PASSWORD_LENGTH = 8


def initial_passwords(scenario: Scenario, given: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(every player's password, the generated ones) for a new campaign.

    The game master may give some or all; the server generates the others
    (shown once, in the reply to CreateCampaign)."""
    players = scenario.world.players
    unknown = sorted(set(given) - set(players))
    if unknown:
        raise DeskError(Code.INVALID_ARGUMENT, f"passwords: no player {unknown[0][:64]!r} in the scenario")
    for pid, password in sorted(given.items()):
        if not MIN_PASSWORD_LENGTH <= len(password) <= MAX_PASSWORD_LENGTH:
            raise DeskError(
                Code.INVALID_ARGUMENT,
                f"passwords[{pid}]: {MIN_PASSWORD_LENGTH} to {MAX_PASSWORD_LENGTH} characters",
            )
    generated = {pid: new_password() for pid in sorted(players) if pid not in given}
    return {**given, **generated}, generated


def new_password() -> str:
    """A generated password, shown once to the one who needs it."""
    return secrets.token_urlsafe(GENERATED_PASSWORD_BYTES)


def close_turn(
    conn: Connection,
    campaign: str,
    turn: int,
    reason: str,
    at: datetime,
    *,
    due: repo.CampaignRow | None = None,
) -> repo.CampaignRow:
    """Close the open turn.  ``due`` is the campaign's row as the deadline watcher read it in
    this transaction: the status change is then its own check (a compare-and-set on the turn
    and OPEN), and the row is not read again under a lock (two of the dozen statements of a
    close on PostgreSQL, three on SQLite)."""
    row = due if due is not None else repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    if turn and turn != row.turn:
        raise DeskError(Code.FAILED_PRECONDITION, f"turn: the current turn is {row.turn}, not {turn}")
    if row.status != "OPEN":
        raise DeskError(Code.FAILED_PRECONDITION, f"turn {row.turn} is {row.status}, not OPEN")
    if not repo.set_status(conn, campaign, turn=row.turn, expect=("OPEN",), status="CLOSED"):
        raise DeskError(Code.FAILED_PRECONDITION, f"turn {row.turn} is no longer OPEN")
    civil.count_missed(conn, campaign, row.turn)  # civil disorder: who missed this deadline
    reliability.at_close(conn, campaign, row.turn)  # accounts' records, the lobby's replacement seats
    closed = events_pb2.TurnClosed(campaign_id=campaign, turn=row.turn, reason=reason)
    closed.closed_at.FromDatetime(at)
    if not emit_event(conn, bus.TURN_CLOSED, campaign, row.turn, closed):
        # the turn was closed before, failed and was reopened: its first id is spent
        again = f"turn_closed:again:{secrets.token_hex(8)}"
        emit_event(conn, bus.TURN_CLOSED, campaign, row.turn, closed, id_stage=again)
    log.info("turn_closed", campaign=campaign, turn=row.turn, reason=reason)
    return replace(row, status="CLOSED")  # set_status changed nothing else the row holds


def close_due_turns(conn: Connection, at: datetime) -> list[str]:
    """The deadline scheduler: close every open turn whose deadline passed.

    Each campaign is closed in a savepoint of its own: one that cannot be closed
    (bad data) is rolled back, logged and counted, and the others still close."""
    closed = []
    for row in repo.due_campaigns(conn, at):
        try:
            # one trace per turn closed by its deadline, from here to its reports
            with conn.begin_nested(), tracing.span("close turn", attributes={"pate.campaign": row.id}):
                close_turn(conn, row.id, row.turn, "deadline", at, due=row)
            closed.append(row.id)
        except DeskError:
            continue  # another scheduler closed it first
        except (ValueError, LookupError, TypeError, ArithmeticError) as exc:
            CLOSE_FAILURES.inc()
            log.error("deadline.close_failed", campaign=excerpt(row.id), error=type(exc).__name__)
    return closed


def handle_reports_ready(conn: Connection, data: bytes, headers: dict[str, str], *, at: datetime) -> None:
    """Reports of turn N are out: open turn N+1, or finish the campaign."""
    msg = events_pb2.ReportsReady.FromString(data)
    campaign, turn = msg.campaign_id, msg.turn
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        return
    if turn == 0:
        expect, current, nxt = ("STARTING",), 1, 1
    else:
        expect, current, nxt = ("REPORTED",), turn, turn + 1
    if row.turn != current or row.status not in expect:
        log.info("reports_ready_ignored", campaign=campaign, turn=turn, status=row.status)
        return
    if nxt > row.turns:
        repo.set_status(conn, campaign, turn=current, expect=expect, status="FINISHED", deadline=None)
        done = events_pb2.CampaignFinished(campaign_id=campaign, turns=row.turns)
        emit_event(conn, bus.CAMPAIGN_EVENTS, campaign, turn, done, headers, id_stage="finished")
        log.info("campaign_finished", campaign=campaign, turns=row.turns)
        return
    deadline = row.deadline if turn == 0 else schedule.next_deadline(conn, row, turn, at)
    repo.set_status(
        conn, campaign, turn=current, expect=expect, status="OPEN", new_turn=nxt, deadline=deadline
    )
    opened = events_pb2.TurnOpened(campaign_id=campaign, turn=nxt)
    if deadline is not None:
        opened.deadline.FromDatetime(deadline)
    absence.seat_absentees(conn, campaign, nxt)  # the bot holds who declared this turn absent
    emit_event(conn, bus.TURN_OPENED, campaign, nxt, opened, headers)
    log.info("turn_opened", campaign=campaign, turn=nxt)
