"""UnitsNear with holds, ReleaseHold, PortHolders, ListLandEvents, GetLandSnapshot."""

from __future__ import annotations

import hashlib

from gitm.v1 import land_pb2

from . import errors
from .land import open_campaign, reservations, unit_msg
from .store import CITY, Store


def _city_units(store: Store, campaign: str, city: str, held):
    rows = store.all(
        "SELECT unit FROM units WHERE campaign=? AND city=? AND transport='' AND fate='' ORDER BY id",
        campaign,
        city,
    )
    for (blob,) in rows:
        unit = unit_msg(blob)
        unit.reserved = unit.id in held.units
        yield unit


def units_near(store: Store, data, now: int, request: land_pb2.UnitsNearRequest):
    errors.check_rules(request)
    if request.hold and not request.hold_request_id:
        raise errors.malformed("hold_request_id", "required when hold is asked")
    closed, _turn, _holders = open_campaign(store, request.campaign_id)
    if request.port not in data.cities:
        raise errors.LandError(
            "CITY_NOT_ON_MAP",
            f"port: {request.port} is not on GITM's map",
            metadata={"port": request.port},
        )
    answer = land_pb2.UnitsNearResponse()
    if request.hold and not closed:  # a closed campaign gives no hold: no begin can follow
        answer.hold_id, answer.hold_expires_at = _hold(store, data, now, request)
    held = reservations(store, request.campaign_id)
    answer.units.extend(_city_units(store, request.campaign_id, request.port, held))
    answer.supplies = store.stock(request.campaign_id, CITY, request.port)
    answer.reserved_supplies = min(held.city.get(request.port, 0), answer.supplies)
    return answer


def _hold(store: Store, data, now: int, request):
    """The hold of (campaign, turn, request id): given once, its expiry never restarted."""
    row = store.one(
        "SELECT hold_id, port, expires_at FROM holds WHERE campaign=? AND turn=? AND request_id=?",
        request.campaign_id,
        request.turn,
        request.hold_request_id,
    )
    if row is not None:
        if row[1] != request.port:
            raise errors.malformed("hold_request_id", "already asked for another port")
        return row[0], row[2]
    seed = f"{request.campaign_id}\n{request.turn}\n{request.hold_request_id}"
    hold_id = "hold-" + hashlib.sha256(seed.encode()).hexdigest()[:32]
    expires = now + data.hold_seconds
    store.run(
        "INSERT INTO holds (hold_id, campaign, turn, request_id, port, expires_at) VALUES (?,?,?,?,?,?)",
        hold_id,
        request.campaign_id,
        request.turn,
        request.hold_request_id,
        request.port,
        expires,
    )
    return hold_id, expires


def release_hold(store: Store, now: int, request: land_pb2.ReleaseHoldRequest):
    errors.check_rules(request)
    open_campaign(store, request.campaign_id)  # answered after the close as before it
    row = store.one("SELECT campaign, expires_at, released FROM holds WHERE hold_id=?", request.hold_id)
    if row is None or row[0] != request.campaign_id:
        raise errors.LandError(
            "HOLD_NOT_FOUND",
            f"hold_id: no hold {request.hold_id} was given in this campaign",
            metadata={"hold_id": request.hold_id},
        )
    if row[2]:
        return land_pb2.ReleaseHoldResponse(hold_id=request.hold_id, state=row[2], duplicate=True)
    state = "expired" if now >= row[1] else "released"
    store.run("UPDATE holds SET released=? WHERE hold_id=?", state, request.hold_id)
    return land_pb2.ReleaseHoldResponse(hold_id=request.hold_id, state=state)


def _holders(store: Store, campaign: str, holders: dict):
    for port in sorted(holders):
        state = holders[port]
        occupied = False
        for (blob,) in store.all(
            "SELECT unit FROM units WHERE campaign=? AND city=? AND transport='' AND fate=''",
            campaign,
            port,
        ):
            unit = unit_msg(blob)
            occupied = occupied or (unit.tactical_square and unit.state == state)
        yield land_pb2.PortHolder(port=port, state=state, occupied=occupied)


def port_holders(store: Store, request: land_pb2.PortHoldersRequest):
    errors.check_rules(request)
    _closed, _turn, holders = open_campaign(store, request.campaign_id)
    return land_pb2.PortHoldersResponse(holders=list(_holders(store, request.campaign_id, holders)))


def land_events(store: Store, request: land_pb2.ListLandEventsRequest):
    """No land game of its own, so the feed stays empty: no event was ever made."""
    errors.check_rules(request)
    open_campaign(store, request.campaign_id)
    return land_pb2.ListLandEventsResponse(more=False, last_sequence=0)


def snapshot(store: Store, now: int, request: land_pb2.GetLandSnapshotRequest):
    errors.check_rules(request)
    campaign = request.campaign_id
    closed, pate_turn, holders = open_campaign(store, campaign)
    held = reservations(store, campaign)
    answer = land_pb2.LandSnapshot(
        campaign_id=campaign,
        pate_turn=pate_turn,
        land_turn=pate_turn,
        taken_at_unix=now,
        last_event_sequence=0,
        closed=closed,
    )
    for blob, city, transport, fate, captor in store.all(
        "SELECT unit, city, transport, fate, captor FROM units WHERE campaign=? ORDER BY id", campaign
    ):
        unit = unit_msg(blob)
        unit.reserved = unit.id in held.units
        where = ("", "") if fate else (city, transport)
        # tactical_square says the unit stands in the city itself: never true aboard or gone
        unit.tactical_square = unit.tactical_square and bool(where[0])
        answer.units.add(
            unit=unit,
            city=where[0],
            transport_id=where[1],
            fate=fate,
            captor=captor,
            reserved_by=held.units.get(unit.id, ""),
        )
    for kind, place, supplies in store.all(
        "SELECT kind, place, supplies FROM stocks WHERE campaign=? ORDER BY kind, place", campaign
    ):
        reserved = (held.city if kind == CITY else held.aboard).get(place, 0)
        stock = answer.stocks.add(supplies=supplies, reserved=min(reserved, supplies))
        setattr(stock, "city" if kind == CITY else "transport_id", place)
    answer.holders.extend(_holders(store, campaign, holders))
    _transfers(store, campaign, answer)
    return answer


def _transfers(store: Store, campaign: str, answer) -> None:
    for blob, status_blob in store.all(
        "SELECT request, status FROM transfers WHERE campaign=? ORDER BY id", campaign
    ):
        begun = land_pb2.BeginTransferRequest.FromString(blob)
        status = land_pb2.TransferStatus.FromString(status_blob)
        answer.transfers.add(
            transfer_id=status.transfer_id,
            state=status.state,
            direction=begun.direction,
            port=begun.port,
            transport_id=begun.transport_id,
            units=status.units,
            supplies=status.supplies,
            turn=begun.turn,
        )
