"""Messages of one fetch in one transaction, for the stages whose turns are short.

A worker's fixed cost per message (the claim, the transaction's begin and commit) weighed as
much as a fifth of a small scenario's turn.  A handler marked :func:`groupable` has the
messages of a fetch handled in one transaction: their ids claimed in one statement, their
work done one after another, one commit.  Every guarantee of the consumer stands:

- a message seen before finds its claim and is skipped, in a group as alone; an id twice in
  one fetch is handled once;
- a worker that dies in a group commits nothing of it: every message of the group is
  redelivered and handled as if never seen;
- a handler that raises (or a commit that fails) rolls the whole group back, and each of its
  messages is then handled again in a transaction of its own, as without groups: a failing
  campaign fails alone and the others commit;
- the events the group's handlers queue are written to the outbox in one statement before it
  commits (outbox.held_outbox), in the order they were queued;
- a group closes once its work has taken GROUP_SECONDS, so it holds its campaigns' rows (and
  on SQLite the database's write lock) about as long as one turn of a small scenario and no
  longer than one large turn; the messages it did not reach are released and go on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from opentelemetry.trace import SpanKind
from sqlalchemy import Connection, Engine

from services.platform.bus import CAMPAIGN_HEADER, MSG_ID_HEADER, TURN_HEADER, campaign_of
from services.platform.bus.outbox import events_added, forget_added, held_outbox
from services.platform.faults import crash_point
from services.platform.store.writes import claim_all, release_claims
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import bind_context, get_logger

if TYPE_CHECKING:
    from nats.aio.msg import Msg


class Worker(Protocol):
    """What a group needs of its consumer (consumer.IdempotentConsumer)."""

    durable: str
    engine: Engine
    handler: Callable[[Connection, bytes, dict[str, str]], None]


log = get_logger(__name__)
F = TypeVar("F", bound=Callable[..., Any])
GROUP_SECONDS = 0.1  # wall time of work after which a group commits what it has done
_MARK = "pate_groupable"


def groupable(handler: F) -> F:
    """Mark a handler whose messages may share one transaction: it keeps no state outside
    the database that a rollback would leave wrong (its caches are checked against the rows)."""
    setattr(handler, _MARK, True)
    return handler


def is_groupable(handler: Callable[..., Any]) -> bool:
    return bool(getattr(handler, _MARK, False))


@dataclass(frozen=True, slots=True)
class Received:
    msg: Msg
    mid: str
    headers: dict[str, str]
    campaign: str | None
    turn: int | None


def received(msg: Msg, turn_of: Callable[[str | None], int | None]) -> Received:
    headers = dict(msg.headers or {})
    mid = headers.get(MSG_ID_HEADER)
    if not mid:
        meta = msg.metadata
        mid = f"{meta.stream}:{meta.sequence.stream}"
    campaign = headers.get(CAMPAIGN_HEADER) or campaign_of(msg.subject)
    return Received(msg, mid, headers, campaign, turn_of(headers.get(TURN_HEADER)))


def attributes(durable: str, r: Received) -> dict[str, Any]:
    return {
        "messaging.system": "nats",
        "messaging.destination.name": r.msg.subject,
        "messaging.consumer.group.name": durable,
        "messaging.message.id": r.mid,
        "pate.campaign": r.campaign,
        "pate.turn": r.turn,
    }


def work_group(
    consumer: Worker, items: Sequence[Received], handled: object, emitted: object
) -> tuple[int, list[tuple[str, object]] | None]:
    """How many of ``items`` the group took, and their outcomes (``handled``, ``emitted`` or
    False for a duplicate); None for the outcomes when the group rolled back: then every one
    of them is to be handled alone."""
    durable, done, started = consumer.durable, list[tuple[str, object]](), time.monotonic()
    try:
        for _ in items:
            crash_point(f"consumer.{durable}.received")  # the recovery test holds a message here
        with consumer.engine.begin() as conn, held_outbox(conn):
            fresh = claim_all(conn, durable, [r.mid for r in items])
            for r in items:
                if done and time.monotonic() - started > GROUP_SECONDS:
                    break
                if r.mid not in fresh:
                    done.append((r.mid, False))
                    continue
                fresh.discard(r.mid)
                done.append((r.mid, emitted if _handle(consumer, conn, r) else handled))
            if fresh:  # claimed, not reached: the next group or transaction takes them
                release_claims(conn, durable, sorted(fresh))
    except Exception as exc:
        # the type only: the message that failed is handled again alone, and its failure told there
        log.warning(
            "consumer.group_rolled_back", consumer=durable, messages=len(items), error=type(exc).__name__
        )
        return len(items), None
    return len(done), done


def _handle(consumer: Worker, conn: Connection, r: Received) -> bool:
    """One message's work in the group's transaction; whether it queued events."""
    with (
        tracing.span(
            f"{consumer.durable} process",
            parent=r.headers,
            kind=SpanKind.CONSUMER,
            attributes=attributes(consumer.durable, r),
        ),
        bind_context(campaign=r.campaign, turn=r.turn, consumer=consumer.durable, msg_id=r.mid),
        metrics.stage_timer(consumer.durable),
    ):
        forget_added(conn)
        consumer.handler(conn, r.msg.data, r.headers)
        return events_added(conn)
