"""A GITM campaign ended by its operators before its last turn (edition 4, docs/gitm.md
"Opening and closing", A19): ``pate gitm end CAMPAIGN --turn N``.

The command finishes PATE's campaign after its committed turn N, in one transaction with an
event on the outbox (``pate.gitm_ended.<campaign>``, id ``<campaign>:<N>:gitm_ended``) and an
audit row ``gitm_campaign_ended``; the resolver's stage :data:`END_DURABLE` takes the event
once turn N's calls have reached GITM (the bridge's order: nothing of turn N may follow the
close) and sends ``CloseCampaign(last_turn N)`` with the transport groups laden at the end of
turn N.  Repeating the command changes nothing; the close is idempotent by campaign id."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from pate.core.codec import to_plain
from pate.engine.context import turn_context
from pate.v1 import events_pb2
from services.platform import bus
from services.platform.bus.consumer import TransientError
from services.platform.bus.outbox import add_to_outbox, emit_event
from services.platform.config import gitm_address
from services.platform.store import repository as repo
from services.platform.store import tables
from services.platform.store.writes import record_audit
from services.platform.telemetry.logging import get_logger
from services.resolver import bridge, editions, gitm_life
from services.resolver.gitm import CloseCampaign, client_for

log = get_logger("gitm-bridge")
ENDED = "gitm_ended"  # the event's subject token: pate.gitm_ended.<campaign>
END_DURABLE = "gitm-bridge-end"  # the resolver's durable consumer of it
AUDITED = "gitm_campaign_ended"


class EndRefusedError(Exception):
    """The campaign cannot be ended so (the message says why, naming the argument)."""


@dataclass(frozen=True)
class Ended:
    campaign: str
    turn: int
    already: bool  # ended before (this command repeated): nothing new was done


def _ended_at(conn: Connection, campaign: str) -> int | None:
    a = tables.audit.c
    row = conn.execute(
        select(a.turn).where(a.campaign == campaign, a.action == AUDITED).order_by(a.id).limit(1)
    ).first()
    return None if row is None else int(row.turn)


def end_campaign(conn: Connection, campaign: str, turn: int) -> Ended:
    """Finish ``campaign`` after its committed turn ``turn`` (its next turn open, not yet
    closed) and queue the close for the bridge; the same again: :class:`Ended` ``already``."""
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise EndRefusedError(f"campaign: no campaign {campaign!r}")
    if not row.gitm:
        raise EndRefusedError(f"campaign: {campaign!r} is naval only: GITM never heard of it")
    before = _ended_at(conn, campaign)
    if before is not None:
        if before != turn:
            raise EndRefusedError(f"--turn: the campaign was ended after turn {before}, not {turn}")
        return Ended(campaign, turn, already=True)
    if row.status != "OPEN" or row.turn != turn + 1:
        raise EndRefusedError(
            f"--turn: the campaign is at turn {row.turn} ({row.status}); a campaign is ended after a"
            f" committed turn while the next is open: --turn {row.turn - 1} once turn {row.turn} is OPEN"
        )
    if turn < 1:
        raise EndRefusedError("--turn: no turn has been played yet; end it after turn 1 at the earliest")
    if not repo.set_status(conn, campaign, turn=row.turn, expect=("OPEN",), status="FINISHED", deadline=None):
        raise EndRefusedError("campaign: its turn changed meanwhile; look again and repeat the command")
    ended = events_pb2.TurnResolved(campaign_id=campaign, turn=turn)
    mid = bus.msg_id(campaign, turn, ENDED)
    add_to_outbox(
        conn, bus.subject(ENDED, campaign), mid, ended.SerializeToString(), bus.event_headers(campaign, turn)
    )
    # the players are told as at a campaign's last turn (the notifier's campaign_events)
    done = events_pb2.CampaignFinished(campaign_id=campaign, turns=turn)
    emit_event(
        conn,
        bus.CAMPAIGN_EVENTS,
        campaign,
        turn,
        done,
        bus.event_headers(campaign, turn),
        id_stage="finished",
    )
    record_audit(conn, action=AUDITED, accepted=True, campaign=campaign, turn=turn, detail={"msg_id": mid})
    log.info(AUDITED, campaign=campaign, turn=turn)
    return Ended(campaign, turn, already=False)


def handle_campaign_ended(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    """Send the close of a campaign its operators ended, once its last turn's calls are through."""
    addr = gitm_address()
    if not addr:
        raise TransientError("PATE_GITM_ADDR is not set: the close waits for a resolver with GITM")
    msg = events_pb2.TurnResolved.FromString(data)
    campaign = repo.get_campaign(conn, msg.campaign_id)
    if campaign is None or not campaign.gitm:
        return
    if not bridge.delivered_turns(conn, msg.campaign_id, [msg.turn]):
        raise TransientError(f"turn {msg.turn} of {msg.campaign_id} is not yet delivered to GITM")
    try:
        end = repo.load_world_cached(conn, msg.campaign_id, msg.turn + 1)
    except LookupError:
        end = None
    close = CloseCampaign(msg.campaign_id, msg.turn, gitm_life.laden(end, turn_context().map))
    for call, reason in bridge.deliver(client_for(addr), [close]):
        record_audit(
            conn,
            action="gitm_call_skipped" if reason.startswith(editions.SKIPPED) else "gitm_call_refused",
            accepted=False,
            campaign=msg.campaign_id,
            turn=msg.turn,
            detail={"call": type(call).__name__, "reason": reason, **to_plain(call)},
        )
    log.info("gitm_campaign_closed", campaign=msg.campaign_id, last_turn=msg.turn)
