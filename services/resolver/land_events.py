"""What GITM's own land rules did to units, cities and stocks (edition 4 of gitm.v1,
docs/gitm.md "Land events"): read at each turn close after the last sequence PATE applied, and
given to the core as data in the turn's land word (``pate.core.rules.landevents``), so the turn
and its replay apply the same events.  A page at a time, at most :data:`MAX_PAGES` pages; what
is left waits for the next close, in order."""

from __future__ import annotations

from gitm.v1 import land_pb2
from pate.core.rules import landevents as le
from pate.core.world.state import WorldState
from services.platform.telemetry.logging import get_logger
from services.resolver.editions import Capabilities
from services.resolver.gitm import GitmClient
from services.resolver.optional_calls import ask_optional

log = get_logger("gitm-land-events")
CALL = "ListLandEvents"
PAGE = 500  # the largest page a land service answers (docs/gitm.md "Land events")
MAX_PAGES = 20  # 10,000 events a close at the largest page: the rest are read at the next close
KINDS = {
    land_pb2.LAND_EVENT_UNIT_DESTROYED: le.UNIT_DESTROYED,
    land_pb2.LAND_EVENT_UNIT_CAPTURED: le.UNIT_CAPTURED,
    land_pb2.LAND_EVENT_CITY_TAKEN: le.CITY_TAKEN,
    land_pb2.LAND_EVENT_STOCK_LOST: le.STOCK_LOST,
}
# GITM's strings are bounded before they reach a player's report or PATE's store
MAX_ID, MAX_REASON = 256, 300


def _line(text: str, limit: int) -> str:
    return " ".join(text.split())[:limit]


def _event(e: land_pb2.LandEvent, kind: str) -> le.LandEvent:
    return le.LandEvent(
        sequence=e.sequence,
        kind=kind,
        unit=_line(e.unit_id, MAX_ID),
        transfer=_line(e.transfer_id, MAX_ID),
        city=_line(e.city, MAX_ID),
        captor=_line(e.captor, 2),
        supplies=max(0, min(e.supplies, 1_000_000)),
        reason=_line(e.reason, MAX_REASON),
    )


def land_events(
    client: GitmClient, world: WorldState, served: Capabilities, after: int
) -> tuple[tuple[le.LandEvent, ...], int]:
    """The events above ``after`` and the sequence the next close reads after.  None from a
    service that does not serve the call.  Unreachable, slow or NOT_FOUND: :class:`TransientError`,
    GITM has not answered the turn.  An event of a kind PATE does not know is passed over (its
    sequence counts as read); a sequence not above the last one read is a repeat, ignored."""
    if not served.serves(CALL):
        return (), after
    out: list[le.LandEvent] = []
    cursor = after
    for _ in range(MAX_PAGES):
        answer = _page(client, world, served, cursor)
        if answer is None:
            return (), after
        for e in answer.events:
            if e.sequence <= cursor:
                continue
            cursor = e.sequence
            kind = KINDS.get(e.kind)
            if kind is None:
                log.warning("gitm_land_event_unknown", campaign=world.campaign, sequence=e.sequence)
                continue
            out.append(_event(e, kind))
        if not answer.more or not answer.events:
            break
    return tuple(out), cursor


def _page(
    client: GitmClient, world: WorldState, served: Capabilities, after: int
) -> land_pb2.ListLandEventsResponse | None:
    return ask_optional(client, served, CALL, lambda: client.land_events(world.campaign, world.turn, after))
