"""Helpers the calls share: the content of a request, campaign checks, units as answers."""

from __future__ import annotations

import time
from collections.abc import Callable

from google.protobuf.message import Message

from examples.gitm_land4 import errors
from examples.gitm_land4.store import Store, UnitRow
from gitm.v1 import land_pb2 as pb

Clock = Callable[[], float]


def wall_clock() -> float:
    return time.time()


def content(request: Message, *cleared: str) -> bytes:
    """The request's content for "same content" (B5): known fields only, some left out.

    Unknown fields are discarded so that a newer PATE filling a field this service
    does not know is still the same call; the fields the document names as not part
    of the content (a hold, a digest, a forecast) are cleared.
    """
    copy = type(request)()
    copy.CopyFrom(request)
    copy.DiscardUnknownFields()
    for field in cleared:
        copy.ClearField(field)
    return copy.SerializeToString(deterministic=True)


def opened(store: Store, cid: str) -> bool:
    """The campaign exists; NOT_FOUND naming it otherwise. Returns whether it is closed."""
    row = store.campaign(cid)
    if row is None:
        raise errors.campaign_not_opened(cid)
    return bool(row[2])


def open_for_work(store: Store, cid: str) -> None:
    """New work: the campaign must be opened (NOT_FOUND) and not closed (L22)."""
    if opened(store, cid):
        raise errors.campaign_closed(cid)


def unit_answer(row: UnitRow, reserved: bool) -> pb.Unit:
    unit = pb.Unit.FromString(row.size)
    unit.id = row.id
    unit.state = row.state
    unit.tactical_square = row.tactical and bool(row.city)
    unit.reserved = reserved
    return unit


def refusal(item: str, code: str, reason: str) -> pb.Refusal:
    return pb.Refusal(item=item, code=code, reason=reason)


def joined(refusals: list[pb.Refusal]) -> str:
    return "; ".join(f"{r.item}: {r.reason}" for r in refusals)
