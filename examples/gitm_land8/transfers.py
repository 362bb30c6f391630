"""BeginTransfer, CompleteTransfer, GetTransfer (docs/gitm.md "Answers", L4-L14, L32)."""

from __future__ import annotations

from gitm.v1 import land_pb2

from . import errors
from .land import (
    LOAD,
    content,
    for_new_work,
    free_aboard,
    free_in_city,
    joined,
    refusal,
    reservations,
    unit_msg,
)
from .store import CITY, TRANSPORT, Store

BEGUN = land_pb2.TRANSFER_STATE_BEGUN
COMPLETED = land_pb2.TRANSFER_STATE_COMPLETED
CANCELLED = land_pb2.TRANSFER_STATE_CANCELLED
REFUSED = land_pb2.TRANSFER_STATE_REFUSED


def begin(store: Store, cities, now: int, request: land_pb2.BeginTransferRequest):
    errors.check_rules(request)
    if not request.units and request.supplies == 0:
        raise errors.malformed("units", "a transfer moves at least one unit or one supply")
    key = content(request, "hold_id")  # the hold is no part of a begin's content (B5)
    row = store.one("SELECT content, status FROM transfers WHERE id=?", request.transfer_id)
    if row is not None:
        if row[0] != key:
            raise errors.reused("BeginTransfer", request.transfer_id)
        return land_pb2.TransferStatus.FromString(row[1])
    for_new_work(store, request.campaign_id)
    refusals = _hold_refusals(store, now, request) or _land_refusals(store, cities, request)
    status = land_pb2.TransferStatus(transfer_id=request.transfer_id)
    if refusals:
        status.accepted = False
        status.state = REFUSED
        status.reason = joined(refusals)
        status.refusals.extend(refusals)
    else:
        status.accepted = True
        status.state = BEGUN
        status.units.extend(request.units)
        status.supplies = request.supplies
    store.run(
        "INSERT INTO transfers (id, campaign, content, request, state, status) VALUES (?,?,?,?,?,?)",
        request.transfer_id,
        request.campaign_id,
        key,
        request.SerializeToString(deterministic=True),
        status.state,
        status.SerializeToString(deterministic=True),
    )
    return status


def _hold_refusals(store: Store, now: int, request) -> list:
    """A begin naming a dead hold: that one refusal and nothing else checked ("Holds")."""
    if not request.hold_id:
        return []
    row = store.one("SELECT campaign, port, expires_at, released FROM holds WHERE hold_id=?", request.hold_id)
    if row is None or row[0] != request.campaign_id or row[1] != request.port:
        text = "hold_unknown: no such hold was given for this port"
    elif row[3]:
        text = "hold_released: the hold was released"  # checked before the expiry
    elif now >= row[2]:
        text = "hold_expired: the hold's ten minutes had passed"
    else:
        return []
    return [refusal("hold", text, "refused")]


def _land_refusals(store: Store, cities, request) -> list:
    """Every faulty item once, with the first reason found (L4-L7, "Refusal codes")."""
    held = reservations(store, request.campaign_id)
    found, seen, twice = [], set(), False
    for unit_id in request.units:
        if unit_id in seen:
            twice = True
            continue
        seen.add(unit_id)
        why = _unit_fault(store, request, unit_id, held, request.port in cities)
        if why:
            found.append(refusal(unit_id, *why))
    if twice:
        found.append(refusal("units", "a unit is named twice", "twice"))
    if request.supplies:
        on_map = request.port in cities
        if request.direction == LOAD:
            free = free_in_city(store, request.campaign_id, request.port, held) if on_map else 0
            where = f"in {request.port}"
        else:
            free = free_aboard(store, request.campaign_id, request.transport_id, held) if on_map else 0
            where = f"aboard {request.transport_id}"
        if request.supplies > free:
            found.append(refusal("supplies", f"only {max(free, 0)} free {where}", "supplies"))
    return found


def _unit_fault(store: Store, request, unit_id: str, held, on_map: bool):
    """(reason, code) of one unit, checked in the order of "Refusal codes", or None."""
    row = store.unit(request.campaign_id, unit_id)
    if row is None:
        return "no such unit", "unknown"
    unit, city, transport, fate, _captor = row
    state = unit_msg(unit).state
    load = request.direction == LOAD
    if load and request.state and state != request.state:
        return f"a unit of {state}, not of {request.state}", "foreign"
    if fate:
        return f"{fate}", "unknown"
    if unit_id in held.units:
        return "already being moved by another transfer", "reserved"
    if load:
        if transport:
            return "already embarked", "embarked"
        if city != request.port or not unit_msg(unit).tactical_square:
            return f"not in {request.port}", "elsewhere"
        return None
    if transport != request.transport_id:
        return f"not aboard {request.transport_id}", "elsewhere"
    if not on_map:  # no city to land in: its units are refused as not there ("Answers")
        return f"not in {request.port}", "elsewhere"
    return None


def _known(store: Store, request, call: str):
    """The stored transfer named by a CompleteTransfer or GetTransfer (L14, L32)."""
    errors.check_rules(request)
    if request.campaign_id and store.campaign(request.campaign_id) is None:
        raise errors.not_opened(request.campaign_id)
    row = store.one("SELECT campaign, request, status FROM transfers WHERE id=?", request.transfer_id)
    if row is None:
        raise errors.LandError(
            "TRANSFER_NOT_FOUND",
            f"transfer_id: {call} of transfer {request.transfer_id}, never begun",
            metadata={"transfer_id": request.transfer_id},
        )
    if request.campaign_id and request.campaign_id != row[0]:
        raise errors.malformed("campaign_id", "the transfer belongs to another campaign")
    return row


def get(store: Store, request: land_pb2.GetTransferRequest):
    row = _known(store, request, "GetTransfer")
    return land_pb2.TransferStatus.FromString(row[2])


def complete(store: Store, request: land_pb2.CompleteTransferRequest):
    campaign, begun_blob, status_blob = _known(store, request, "CompleteTransfer")
    status = land_pb2.TransferStatus.FromString(status_blob)
    if status.state != BEGUN:
        return status  # final for ever, whatever the flag of the repeat (L13)
    if request.cancelled:
        status.state = CANCELLED  # frees the reservation and moves nothing (L10)
    else:
        move(store, campaign, land_pb2.BeginTransferRequest.FromString(begun_blob))
        status.state = COMPLETED
    set_status(store, status)
    return status


def set_status(store: Store, status) -> None:
    store.run(
        "UPDATE transfers SET state=?, status=? WHERE id=?",
        status.state,
        status.SerializeToString(deterministic=True),
        status.transfer_id,
    )


def move(store: Store, campaign: str, begun) -> None:
    """A completion: what is still there moves (L9); the reservation guaranteed the rest."""
    port, transport = begun.port, begun.transport_id
    for unit_id in dict.fromkeys(begun.units):
        row = store.unit(campaign, unit_id)
        if row is None or row[3]:
            continue  # lost or gone meanwhile: nothing left to move
        if begun.direction == LOAD and not row[2]:
            store.place_unit(campaign, unit_id, "", transport, tactical=False)
        elif begun.direction != LOAD and row[2] == transport:
            store.place_unit(campaign, unit_id, port, "", tactical=True)
    source, target = (CITY, port), (TRANSPORT, transport)
    if begun.direction != LOAD:
        source, target = target, source
    moved = min(begun.supplies, store.stock(campaign, *source))
    if moved:
        store.add_stock(campaign, *source, -moved)
        store.add_stock(campaign, *target, moved)
