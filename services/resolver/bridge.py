"""The GITM land bridge: amphibious transfers reach GITM after the turn commits.

The core's amphibious phases record each transfer as events
(``transfer_begun`` in the initial phase, ``transfer_completed`` in the final
one, rules 3.6 and 3.9), stored with the turn.  This stage consumes the
``turn_resolved`` event the resolver writes to its outbox in the same
transaction, reads the turn's stored events, and calls ``BeginTransfer`` then
``CompleteTransfer`` for each transfer at an on-GITM-map port (rule 1.5:
off-map ports have no GITM side).  Add it to the resolver's stages::

    Stage("gitm-bridge", bus.TURN_RESOLVED, bridge.handle_turn_resolved)

- Nothing is done when ``PATE_GITM_ADDR`` is empty (no GITM configured; the
  resolver then runs no bridge at all) or for a campaign created without GITM.
- GITM unreachable (UNAVAILABLE, DEADLINE_EXCEEDED, connection refused):
  :class:`TransientError`, so the consumer rolls back and retries for ever.
  Calls already made are made again; the transfer ids make them harmless.
  GITM busy (RESOURCE_EXHAUSTED, ABORTED): the same, set aside after 20
  deliveries (services/resolver/gitm_errors.py); a RetryInfo's delay is honoured.
- GITM answering no (``accepted`` false, or INVALID_ARGUMENT,
  FAILED_PRECONDITION, NOT_FOUND, ALREADY_EXISTS): an audit row
  ``gitm_transfer_refused`` for the administrators, and the next call goes on.
  The committed turn stands: PATE's world is the record of the naval side.
- A call the land service does not serve (docs/gitm.md "Versioning",
  services/resolver/editions.py): not made, an audit row ``gitm_call_skipped``.
  One it lists but answers UNIMPLEMENTED: its capabilities are asked again; still
  listed, the turn's calls are made again later (never lost), else skipped.
- Any other error is raised as it is: the consumer retries it a few times and
  then records the message as poison.

Turn 0 (the campaign's creation) opens the campaign in GITM with its initial
positions, then reports the start's (empty) sightings; the last turn's calls
end with CloseCampaign.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import grpc
from sqlalchemy import Connection, or_, select

from pate.core.codec import to_plain
from pate.core.events import Event
from pate.core.world.state import WorldState
from pate.engine.context import turn_context
from pate.v1 import events_pb2
from services.platform import bus
from services.platform.bus.consumer import BusyError, TransientError
from services.platform.config import gitm_address
from services.platform.store import repository as repo
from services.platform.store import tables
from services.platform.store.writes import record_audit
from services.platform.telemetry.logging import get_logger
from services.resolver import data_check, editions, gitm_life, land_holds
from services.resolver.gitm import (
    Begin,
    CargoLoss,
    CargoMoves,
    CloseCampaign,
    Complete,
    GitmClient,
    OpenCampaign,
    client_for,
)
from services.resolver.gitm_calls import (
    Call,
    cargo_calls,
    cargo_moves_call,
    open_call,
    sightings_call,
    transfer_calls,
)
from services.resolver.gitm_errors import GIVE_UP_AFTER, OUTAGES, plain, retry_error, status_code
from services.resolver.land_holds import ReleaseHold

log = get_logger("gitm-bridge")
DURABLE = "gitm-bridge"  # the bridge's durable consumer (services/resolver/main.py)
REFUSALS = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.ALREADY_EXISTS,
}
__all__ = [
    "OUTAGES",
    "Call",
    "CloseCampaign",
    "cargo_calls",
    "cargo_moves_call",
    "deliver",
    "handle_turn_resolved",
    "open_call",
    "sightings_call",
    "status_code",
    "transfer_calls",
]


def turn_calls(conn: Connection, campaign: repo.CampaignRow, turn: int) -> list[Call]:
    """Every call of a committed turn (:func:`calls_of`), from the store; turn
    0 opens the campaign, the last turn closes it."""
    name = campaign.id
    close = gitm_life.next_close(campaign.turn, campaign.deadline, turn)
    if turn == 0:
        world = _world(conn, name, 1)
        if world is None:
            return []
        return [
            open_call(world, turn_context().map, campaign.scenario, campaign.turns),
            *gitm_life.with_next_close([sightings_call(name, 0, (), world)], close),
        ]
    events = repo.load_events(conn, name, turn)
    stored = repo.load_resolution(conn, name, turn)
    holds = land_holds.holds_of_inputs(stored[0]) if stored else {}
    end = _world(conn, name, turn + 1)
    calls = calls_of(name, turn, events, _world(conn, name, turn), end, holds)
    if turn >= campaign.turns:
        calls.append(CloseCampaign(name, turn, gitm_life.laden(end, turn_context().map)))
    return gitm_life.with_next_close(calls, close)


def calls_of(
    campaign: str,
    turn: int,
    events: Sequence[Event],
    start: WorldState | None,
    end: WorldState | None,
    holds: land_holds.Holds | None = None,
) -> list[Call]:
    """Every call of a turn, in the order docs/gitm.md gives: the transfers
    (begin before complete, each begin naming its port's hold of the close), the holds
    released (edition 4), the cargo lost or taken, the cargo moved between
    transport groups (rule 2.5, after the amphibious phases), the sightings."""
    states = {sid: s.state for w in (start, end) if w for sid, s in w.ships.items()}
    transfers = transfer_calls(campaign, turn, events, states)
    calls: list[Call] = [
        *land_holds.with_holds(campaign, turn, transfers, holds or {}),
        *cargo_calls(campaign, turn, events),
    ]
    moves = cargo_moves_call(campaign, turn, events)
    if moves is not None:
        calls.append(moves)
    calls.append(sightings_call(campaign, turn, events, end))
    return calls


def _world(conn: Connection, campaign: str, turn: int) -> WorldState | None:
    try:
        return repo.load_world_cached(conn, campaign, turn)
    except LookupError:
        return None


def must_wait(turn: int, previous_delivered: bool) -> bool:
    """A turn's calls go to GITM only after the previous turn's (docs/gitm.md
    "Order"): a cargo loss must never reach GITM before the load that put the
    units aboard, nor turn 1's before turn 0 opened the campaign."""
    return turn >= 1 and not previous_delivered


def _delivered(conn: Connection, campaign: str, turn: int) -> bool:
    """Whether this consumer has committed the turn's delivery: its claim of the turn's message,
    or of a copy an administrator sent again (``pate campaign retry``: the same id with
    ``:retry-<n>`` for a turn that waited, a fresh ``<campaign>:<turn>:gitm-bridge:...`` id for
    one that failed here)."""
    mid = bus.msg_id(campaign, turn, bus.TURN_RESOLVED)
    again = bus.msg_id(campaign, turn, DURABLE)
    pm = tables.processed_messages.c
    claimed = or_(
        pm.msg_id == mid,
        pm.msg_id.startswith(f"{mid}:", autoescape=True),
        pm.msg_id.startswith(f"{again}:", autoescape=True),
    )
    return conn.execute(select(pm.msg_id).where(pm.consumer == DURABLE, claimed).limit(1)).first() is not None


def delivered_turns(conn: Connection, campaign: str, turns: Iterable[int]) -> frozenset[int]:
    """The turns among ``turns`` whose calls the bridge has made (GITM has answered them)."""
    return frozenset(t for t in set(turns) if _delivered(conn, campaign, t))


def handle_turn_resolved(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    """Deliver a committed turn of a campaign played with GITM (``campaigns.gitm``, fixed at
    its creation); a campaign created without GITM is never sent (docs/gitm.md, "Campaigns
    with and without GITM").  The resolver runs this consumer only where PATE_GITM_ADDR is set."""
    addr = gitm_address()
    if not addr:
        return
    msg = events_pb2.TurnResolved.FromString(data)
    campaign = repo.get_campaign(conn, msg.campaign_id)
    if campaign is None or not campaign.gitm:
        return
    if must_wait(msg.turn, _delivered(conn, msg.campaign_id, msg.turn - 1)):
        raise TransientError(f"turn {msg.turn - 1} of {msg.campaign_id} is not yet delivered to GITM")
    calls = turn_calls(conn, campaign, msg.turn)
    errors: dict[int, dict[str, object]] = {}
    refused = deliver(client_for(addr), calls, errors)
    for i, (call, reason) in enumerate(refused):
        action = "gitm_transfer_refused" if isinstance(call, Begin | Complete) else "gitm_call_refused"
        record_audit(
            conn,
            action="gitm_call_skipped" if reason.startswith(editions.SKIPPED) else action,
            accepted=False,
            campaign=msg.campaign_id,
            turn=msg.turn,
            # what an error (code, reason, fields) or the refusals (by code) add, docs/gitm.md
            detail={"call": type(call).__name__, "reason": reason, **errors.get(i, {}), **to_plain(call)},
        )
    log.info("gitm_turn_delivered", calls=len(calls), refused=len(refused))


METHODS: dict[type, str] = {
    Begin: "BeginTransfer",
    Complete: "CompleteTransfer",
    ReleaseHold: "ReleaseHold",
    CargoLoss: "ReportCargoLoss",
    CargoMoves: "ReportCargoMoves",
    OpenCampaign: "OpenCampaign",
    CloseCampaign: "CloseCampaign",
}


def _send(client: GitmClient, call: Call) -> tuple[bool, str, Sequence[Any]]:
    """(accepted, the reason to audit, the answer's refusals, whose codes the audit groups)."""
    if isinstance(call, Begin):
        status = client.begin(land_holds.live_hold(client, call))
        return status.accepted, status.reason, status.refusals
    if isinstance(call, Complete):
        status = client.complete(call)
        return status.accepted, status.reason, status.refusals
    if isinstance(call, ReleaseHold):
        return (*land_holds.release(client, call), ())
    if isinstance(call, CargoLoss):
        answer = client.report_cargo_loss(call)
        return answer.accepted, answer.reason, answer.refusals
    if isinstance(call, CargoMoves):
        moved = client.report_cargo_moves(call)
        return moved.accepted, "; ".join(f"{r.item}: {r.reason}" for r in moved.refusals), moved.refusals
    if isinstance(call, OpenCampaign):
        data_check.before_open(capabilities(client), call)
        client.open_campaign(call)
        return True, "", ()
    if isinstance(call, CloseCampaign):
        closed = client.close_campaign(call)
        stuck = closed.cancelled_transfers
        return not stuck, f"{stuck} open transfers cancelled by the close" if stuck else "", ()
    client.report_sightings(call)
    return True, "", ()


MAX_CODED = 50  # refusals grouped into one audit row


def refusal_codes(refusals: Sequence[Any]) -> dict[str, list[str]]:
    """The items refused, grouped by ``Refusal.code`` (edition 4; "" from an older service), for
    the audit row: the administrators group by the code, the players read the reason."""
    out: dict[str, list[str]] = {}
    for r in list(refusals)[:MAX_CODED]:
        out.setdefault(str(r.code)[:16], []).append(str(r.item)[:64])
    return out


def capabilities(client: GitmClient) -> editions.Capabilities:
    """What the land service serves (docs/gitm.md "Versioning"): asked on first need and again
    once the answer is older than ``editions.CAPABILITIES_TTL_SECONDS``, so that an upgraded land
    service is noticed without restarting PATE (an optional call dropped for answering
    UNIMPLEMENTED is tried again then too)."""
    now = client.clock()
    stale = now - client.capabilities_at > editions.CAPABILITIES_TTL_SECONDS
    if client.capabilities is None or stale:
        try:
            answer = client.get_capabilities()
            client.capabilities = editions.from_answer(answer.edition, list(answer.calls), answer.data_digest)
        except grpc.RpcError as exc:
            again = retry_error(client, exc)
            if again is not None:
                raise again from exc
            if status_code(exc) != grpc.StatusCode.UNIMPLEMENTED:
                raise
            client.capabilities = editions.FIRST_EDITION
        client.capabilities_at = now
    return client.capabilities


def deliver(
    client: GitmClient, calls: Sequence[Call], errors: dict[int, dict[str, object]] | None = None
) -> list[tuple[Call, str]]:
    """Make every call in order; return those GITM refused, with its reason,
    and those it does not serve (reason ``editions.SKIPPED``...); ``errors``: filled, by
    position in that list, with what its audit row adds: the code and details of one refused
    by a status code, the items of one refused in an answer grouped by their refusal codes.
    GITM unreachable or slow past the deadline: :class:`TransientError`; busy:
    :class:`BusyError` (the consumer retries the whole turn later; the ids make repeats
    harmless)."""
    refused: list[tuple[Call, str]] = []
    errors = {} if errors is None else errors
    for call in calls:
        method = METHODS.get(type(call), "ReportSightings")
        if not capabilities(client).serves(method):
            refused.append((call, f"{editions.SKIPPED}the land service does not serve {method}"))
            continue
        try:
            accepted, reason, refusals = _send(client, call)
        except grpc.RpcError as exc:
            code = status_code(exc)
            again = retry_error(client, exc)
            if again is not None:
                raise again from exc
            if code == grpc.StatusCode.UNIMPLEMENTED and method not in editions.REQUIRED:
                refused.append((call, unimplemented(client, method)))
                continue
            if code is None or code not in REFUSALS:
                raise
            details = exc.details() if isinstance(exc, grpc.Call) else ""
            errors[len(refused)] = plain(exc)
            log.warning("gitm_call_error", call=method, **plain(exc))
            refused.append((call, f"{code.name}: {details}"))
            continue
        if not accepted:
            if refusals:
                errors[len(refused)] = {"refusal_codes": refusal_codes(refusals)}
            refused.append((call, reason or "refused"))
    return refused


def unimplemented(client: GitmClient, method: str) -> str:
    """A call other than the four required answered UNIMPLEMENTED: the reason it is skipped with
    when the service does not list it (edition 1, or no longer listed once its capabilities are
    asked again); when it still lists it, :class:`BusyError`, so that the turn's calls (the
    skipped report among them) are made again later rather than lost (docs/gitm.md, P4)."""
    listed = client.capabilities is not None and client.capabilities.edition >= 2
    if listed:
        client.capabilities = None  # its word is stale: asked again now
    served = capabilities(client)
    if not listed or not served.serves(method):
        client.capabilities = served.without(method)
        return f"{editions.SKIPPED}{method} answered UNIMPLEMENTED"
    raise BusyError(
        f"GITM at {client.addr} lists {method} but answered UNIMPLEMENTED: the turn's calls wait",
        give_up_after=GIVE_UP_AFTER,
    )
