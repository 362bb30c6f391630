"""The questions: UnitsNear with holds, PortHolders, GetLandSnapshot, ListLandEvents, ReleaseHold.

L3, L25, L26, L27 and L28; nothing here changes the land.
"""

from __future__ import annotations

import hashlib
from typing import cast

from examples.gitm_land4 import checks, errors
from examples.gitm_land4.common import Clock, opened, unit_answer
from examples.gitm_land4.contract import Contract
from examples.gitm_land4.store import CITY, Store
from gitm.v1 import land_pb2 as pb


def units_near(
    store: Store, contract: Contract, clock: Clock, req: pb.UnitsNearRequest
) -> pb.UnitsNearResponse:
    checks.units_near(req)
    cid = req.campaign_id
    with store.transaction():
        closed = opened(store, cid)  # the campaign before the city ("Precedence")
        if req.port not in contract.cities:
            raise errors.city_not_on_map(req.port)
        reserved_units, reserved_supplies = store.reservations(cid)
        answer = pb.UnitsNearResponse(
            supplies=store.stock(cid, CITY, req.port),
            reserved_supplies=reserved_supplies.get((CITY, req.port), 0),
        )
        for row in store.units_at(cid, req.port):
            if not row.transport:
                answer.units.append(unit_answer(row, row.id in reserved_units))
        if req.hold and not closed:
            held = [u.id for u in answer.units]
            answer.hold_id, answer.hold_expires_at = _hold(store, contract, clock, req, held)
        return answer


def _hold(
    store: Store, contract: Contract, clock: Clock, req: pb.UnitsNearRequest, held: list[str]
) -> tuple[str, int]:
    """Given once per (campaign, turn, request id): a repeat gets the same hold and expiry."""
    cid = req.campaign_id
    request_id = req.hold_request_id or f"{cid}:{req.turn}:{req.port}:hold"
    known = store.hold_by_request(cid, req.turn, request_id)
    if known is not None:
        return str(known[0]), int(known[5])
    key = "\0".join((cid, str(req.turn), request_id)).encode("utf-8")
    hold_id = "hold-" + hashlib.sha256(key).hexdigest()[:32]
    expires = int(clock()) + contract.hold_seconds
    store.add_hold(hold_id, cid, req.turn, request_id, req.port, expires, held)
    return hold_id, expires


def release_hold(store: Store, clock: Clock, req: pb.ReleaseHoldRequest) -> pb.ReleaseHoldResponse:
    checks.opaque("campaign_id", req.campaign_id)
    checks.name("hold_id", req.hold_id)
    with store.transaction():
        opened(store, req.campaign_id)
        row = store.hold(req.hold_id)
        if row is None or row[1] != req.campaign_id:
            raise errors.hold_not_found(req.hold_id)
        if row[6]:
            return pb.ReleaseHoldResponse(hold_id=req.hold_id, state=row[6], duplicate=True)
        ended = "expired" if clock() >= row[5] else "released"
        store.end_hold(req.hold_id, ended)
        return pb.ReleaseHoldResponse(hold_id=req.hold_id, state=ended)


def _holders(store: Store, cid: str) -> list[pb.PortHolder]:
    """Each city's holder, occupied while a unit of the holder stands in the city itself."""
    answer = []
    for city, state in store.holders(cid):
        occupied = bool(state) and any(
            u.state == state and u.tactical and not u.transport for u in store.units_at(cid, city)
        )
        answer.append(pb.PortHolder(port=city, state=state, occupied=occupied))
    return answer


def port_holders(store: Store, req: pb.PortHoldersRequest) -> pb.PortHoldersResponse:
    checks.opaque("campaign_id", req.campaign_id)
    checks.turn("turn", req.turn)
    with store.transaction():
        opened(store, req.campaign_id)
        return pb.PortHoldersResponse(holders=_holders(store, req.campaign_id))


def snapshot(store: Store, clock: Clock, req: pb.GetLandSnapshotRequest) -> pb.LandSnapshot:
    """Everything held for the campaign, read in one transaction (L26)."""
    checks.opaque("campaign_id", req.campaign_id)
    cid = req.campaign_id
    with store.transaction():
        closed = opened(store, cid)
        known = store.campaign(cid)
        assert known is not None
        reserved_units, reserved_supplies = store.reservations(cid)
        answer = pb.LandSnapshot(
            campaign_id=cid,
            pate_turn=int(known[4]),
            land_turn=0,  # this service plays no land turns of its own
            taken_at_unix=int(clock()),
            last_event_sequence=store.last_sequence(cid),
            closed=closed,
        )
        for row in store.units(cid):
            answer.units.append(
                pb.SnapshotUnit(
                    unit=unit_answer(row, row.id in reserved_units),
                    city=row.city if row.standing() and not row.transport else "",
                    transport_id=row.transport if row.standing() else "",
                    fate=row.fate,
                    captor=row.captor,
                    reserved_by=reserved_units.get(row.id, ""),
                )
            )
        for kind, place, supplies in store.stocks(cid):
            stock = pb.SnapshotStock(supplies=supplies, reserved=reserved_supplies.get((kind, place), 0))
            if kind == CITY:
                stock.city = place
            else:
                stock.transport_id = place
            answer.stocks.append(stock)
        answer.holders.extend(_holders(store, cid))
        for t in store.transfers(cid):
            answer.transfers.append(
                pb.SnapshotTransfer(
                    transfer_id=t.id,
                    state=cast(pb.TransferState.ValueType, t.state),
                    direction=cast(pb.Direction.ValueType, t.direction),
                    port=t.port,
                    transport_id=t.transport,
                    units=t.status.units,
                    supplies=t.status.supplies,
                    turn=t.turn,
                )
            )
        return answer


def land_events(store: Store, req: pb.ListLandEventsRequest) -> pb.ListLandEventsResponse:
    """The feed (L27): in sequence order above after_sequence, one page at a time."""
    checks.events(req)
    limit = min(req.limit or checks.EVENT_PAGE, checks.EVENT_PAGE)
    with store.transaction():
        opened(store, req.campaign_id)
        page = store.events(req.campaign_id, req.after_sequence, limit + 1)
        return pb.ListLandEventsResponse(
            events=page[:limit],
            more=len(page) > limit,
            last_sequence=store.last_sequence(req.campaign_id),
        )
