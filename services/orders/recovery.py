"""What the game master does with a turn that could not be resolved.

A failed turn (services/platform/store/failures.py) keeps its campaign's
status as it was and waits.  The game master can retry it (after a fix is
deployed: the message the stage gave up on is published again under a fresh
id; the same retry sends on the event that a turn which has not failed waits
for), reopen it (not yet resolved: players change their orders, the turn is
closed again as any other), or have it resolved with one player's orders
replaced by the defaults of rule 4.11.  Each acts on one campaign only, and
only on the turn named in the request (docs/operations.md, "A failed turn").
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Connection

from pate.v1 import events_pb2
from services.platform import bus
from services.platform.bus.outbox import add_to_outbox, emit_event
from services.platform.errors import Code, DeskError
from services.platform.runtime import stuck
from services.platform.security import field_shapes
from services.platform.store import failures
from services.platform.store import repository as repo
from services.platform.telemetry.logging import get_logger

log = get_logger("orders")

RESOLVER_STAGE = "resolver"
UNRESOLVED = ("CLOSED", "RESOLVING")  # a failure here leaves the orders still open to change


def failed_turn(conn: Connection, campaign: str, turn: int) -> tuple[repo.CampaignRow, failures.TurnFailure]:
    """The campaign and its failure, when ``turn`` is the turn that failed; refused by field otherwise."""
    if not field_shapes.CAMPAIGN_ID.fullmatch(campaign):
        raise DeskError(Code.INVALID_ARGUMENT, "campaign_id: 1 to 40 lowercase letters, digits and dashes")
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    failure = failures.get_failure(conn, campaign)
    if failure is None:
        raise DeskError(Code.FAILED_PRECONDITION, f"turn: no turn of campaign {campaign!r} has failed")
    if turn != failure.turn:
        raise DeskError(Code.FAILED_PRECONDITION, f"turn: the failed turn is {failure.turn}, not {turn}")
    return row, failure


def retry_turn(conn: Connection, campaign: str, turn: int) -> repo.CampaignRow:
    """The one retry of a turn, whatever held it up.  A failed turn (its stage gave up, or
    its message was poison) has that message published again; a turn that has not failed
    but waits between two stages has the last event its campaign wrote queued again (the
    event was lost: a stream rebuilt after a restore), as ``pate turn stuck`` lists them.
    A stage that finds its work already stored does only what is missing, so a retry of a
    turn that was merely slow is harmless.  Anything else is refused by the turn field."""
    if not field_shapes.CAMPAIGN_ID.fullmatch(campaign):
        raise DeskError(Code.INVALID_ARGUMENT, "campaign_id: 1 to 40 lowercase letters, digits and dashes")
    if failures.get_failure(conn, campaign) is not None:
        failed, failure = failed_turn(conn, campaign, turn)
        _publish_again(conn, failure, "retry")
        log.info("turn_retried", campaign=campaign, turn=turn, stage=failure.stage, why="failed")
        return failed
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    last = stuck.last_event(conn, campaign) if row.status in stuck.WAITING and row.turn == turn else None
    if last is None:
        raise DeskError(
            Code.FAILED_PRECONDITION,
            f"turn: turn {turn} of campaign {campaign!r} has not failed and waits for no event "
            f"(the campaign is at turn {row.turn}, {row.status})",
        )
    try:
        new_id = stuck.retry(conn, last.msg_id)
    except LookupError as err:
        raise DeskError(Code.FAILED_PRECONDITION, f"turn: {err}") from None
    log.info("turn_retried", campaign=campaign, turn=turn, why="event_lost", msg_id=new_id)
    return row


def reopen_turn(conn: Connection, campaign: str, turn: int, deadline: datetime | None) -> repo.CampaignRow:
    _unresolved_failure(conn, campaign, turn, "reopen")
    failures.clear_failure(conn, campaign)
    repo.set_status(conn, campaign, turn=turn, expect=UNRESOLVED, status="OPEN", deadline=deadline)
    opened = events_pb2.TurnOpened(campaign_id=campaign, turn=turn)
    if deadline is not None:
        opened.deadline.FromDatetime(deadline)
    # a fresh id: the turn's first opening already used the deterministic one
    emit_event(conn, bus.TURN_OPENED, campaign, turn, opened, id_stage=f"turn_opened:reopened:{_token()}")
    log.info("turn_reopened", campaign=campaign, turn=turn)
    found = repo.get_campaign(conn, campaign)
    assert found is not None
    return found


def resolve_with_defaults(conn: Connection, campaign: str, turn: int, player: str) -> repo.CampaignRow:
    if not field_shapes.PLAYER_ID.fullmatch(player):
        raise DeskError(Code.INVALID_ARGUMENT, "player_id: [A-Za-z0-9_.-]{1,64}")
    row, failure = _unresolved_failure(conn, campaign, turn, "resolve with defaults")
    if repo.get_player(conn, campaign, player) is None:
        raise DeskError(Code.NOT_FOUND, f"player_id: no player {player!r} in campaign {campaign!r}")
    # rule 4.11: the player's ships carry out the default orders, as if he had sent none
    failures.add_defaulted(conn, campaign, turn, player)
    _publish_again(conn, failure, "defaults")
    log.info("turn_resolved_with_defaults", campaign=campaign, turn=turn, player=player)
    return row


def _unresolved_failure(
    conn: Connection, campaign: str, turn: int, action: str
) -> tuple[repo.CampaignRow, failures.TurnFailure]:
    row, failure = failed_turn(conn, campaign, turn)
    if failure.stage != RESOLVER_STAGE or row.status not in UNRESOLVED or row.turn != turn:
        raise DeskError(
            Code.FAILED_PRECONDITION,
            f"turn: turn {turn} failed in the {failure.stage} stage after it was resolved; "
            f"only a retry applies, not {action}",
        )
    return row, failure


def _publish_again(conn: Connection, failure: failures.TurnFailure, why: str) -> None:
    """The message the stage gave up on, once more under a fresh id (the first id is
    claimed by the consumer, or was terminated), with the failure cleared: the stage
    marks it again if it fails again."""
    failures.clear_failure(conn, failure.campaign)
    msg_id = bus.msg_id(failure.campaign, failure.turn, failure.stage, why, _token())
    headers = bus.event_headers(failure.campaign, failure.turn)
    add_to_outbox(conn, failure.subject, msg_id, failure.payload, headers)


def _token() -> str:
    return uuid.uuid4().hex[:16]
