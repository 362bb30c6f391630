"""Shared reads of the land: reservations of open transfers, content keys, campaign checks."""

from __future__ import annotations

from dataclasses import dataclass, field

from gitm.v1 import land_pb2

from . import errors
from .store import CITY, TRANSPORT, Store

LOAD = land_pb2.DIRECTION_LOAD
UNLOAD = land_pb2.DIRECTION_UNLOAD


@dataclass
class Reservations:
    """What the BEGUN transfers of a campaign hold (L8): units, city stocks, supplies aboard."""

    units: dict[str, str] = field(default_factory=dict)  # unit id -> transfer id
    city: dict[str, int] = field(default_factory=dict)  # city -> supplies held by loads
    aboard: dict[str, int] = field(default_factory=dict)  # transport -> supplies held by landings


def reservations(store: Store, campaign: str) -> Reservations:
    held = Reservations()
    for transfer_id, blob in store.open_transfers(campaign):
        request = land_pb2.BeginTransferRequest.FromString(blob)
        for unit_id in request.units:
            held.units.setdefault(unit_id, transfer_id)
        if request.direction == LOAD:
            held.city[request.port] = held.city.get(request.port, 0) + request.supplies
        else:
            key = request.transport_id
            held.aboard[key] = held.aboard.get(key, 0) + request.supplies
    return held


def free_in_city(store: Store, campaign: str, city: str, held: Reservations) -> int:
    return store.stock(campaign, CITY, city) - held.city.get(city, 0)


def free_aboard(store: Store, campaign: str, transport: str, held: Reservations) -> int:
    return store.stock(campaign, TRANSPORT, transport) - held.aboard.get(transport, 0)


def content(request, *cleared: str) -> bytes:
    """The request's content for "same content" (docs/gitm.md "Repeats are exact"): every
    known field but those the page names as not part of it; unknown fields ignored."""
    copy = type(request)()
    copy.CopyFrom(request)
    copy.DiscardUnknownFields()
    for name in cleared:
        copy.ClearField(name)
    return copy.SerializeToString(deterministic=True)


def open_campaign(store: Store, campaign_id: str):
    """The campaign's (closed, pate_turn, holders), or NOT_FOUND when never opened."""
    found = store.campaign(campaign_id)
    if found is None:
        raise errors.not_opened(campaign_id)
    return found


def for_new_work(store: Store, campaign_id: str):
    """NOT_FOUND, then FAILED_PRECONDITION for new work in a closed campaign ("Precedence")."""
    found = open_campaign(store, campaign_id)
    if found[0]:
        raise errors.closed(campaign_id)
    return found


def unit_msg(blob: bytes) -> land_pb2.Unit:
    return land_pb2.Unit.FromString(blob)


def refusal(item: str, reason: str, code: str) -> land_pb2.Refusal:
    return land_pb2.Refusal(item=item, reason=reason[:300], code=code)


def joined(refusals) -> str:
    return "; ".join(f"{r.item}: {r.reason}" for r in refusals)
