"""BeginTransfer, CompleteTransfer, GetTransfer: reservations and moves (L4-L15, L28, L32)."""

from __future__ import annotations

import re

from examples.gitm_land4 import checks, errors
from examples.gitm_land4.common import Clock, content, joined, open_for_work, refusal
from examples.gitm_land4.contract import Contract
from examples.gitm_land4.store import CITY, TRANSPORT, Store, TransferRow, UnitRow
from gitm.v1 import land_pb2 as pb

TRANSPORT_FORM = re.compile(r"[A-Za-z0-9_\-]{1,64}")


def begin(store: Store, contract: Contract, clock: Clock, req: pb.BeginTransferRequest) -> pb.TransferStatus:
    checks.begin(req)
    # The hold is not part of a begin's content (B5): a repeat naming another hold is the same.
    body = content(req, "hold_id")
    with store.transaction():
        known = store.transfer(req.transfer_id)
        if known is not None:
            if known.content != body:
                raise errors.id_reused("BeginTransfer", req.transfer_id)
            return known.status
        open_for_work(store, req.campaign_id)
        refusals = _hold_refusals(store, req, clock) or _refusals(store, contract, req)
        status = pb.TransferStatus(transfer_id=req.transfer_id)
        if refusals:
            status.accepted = False
            status.state = pb.TRANSFER_STATE_REFUSED
            status.reason = joined(refusals)
            status.refusals.extend(refusals)
        else:
            status.accepted = True
            status.state = pb.TRANSFER_STATE_BEGUN
            status.units.extend(req.units)
            status.supplies = req.supplies
        store.put_transfer(
            TransferRow(
                req.transfer_id,
                req.campaign_id,
                body,
                status.state,
                req.direction,
                req.port,
                req.transport_id,
                list(status.units),
                status.supplies,
                req.turn,
                status,
            )
        )
        return status


def complete(store: Store, req: pb.CompleteTransferRequest) -> pb.TransferStatus:
    checks.opaque("transfer_id", req.transfer_id)
    checks.opaque("campaign_id", req.campaign_id, required=False)
    with store.transaction():
        known = _known(store, req.transfer_id, req.campaign_id)
        if known.state != pb.TRANSFER_STATE_BEGUN:
            return known.status  # final: whatever the flag of the repeat (L13)
        if req.cancelled:
            known.state = pb.TRANSFER_STATE_CANCELLED
        else:
            _move(store, known)
            known.state = pb.TRANSFER_STATE_COMPLETED
        known.status.state = known.state
        store.put_transfer(known)
        return known.status


def get(store: Store, req: pb.GetTransferRequest) -> pb.TransferStatus:
    checks.opaque("transfer_id", req.transfer_id)
    checks.opaque("campaign_id", req.campaign_id, required=False)
    with store.transaction():
        return _known(store, req.transfer_id, req.campaign_id).status


def cancel_open(store: Store, cid: str) -> int:
    """CloseCampaign: every BEGUN transfer cancelled, its reservation freed (L22)."""
    count = 0
    for t in store.transfers(cid, pb.TRANSFER_STATE_BEGUN):
        t.state = pb.TRANSFER_STATE_CANCELLED
        t.status.state = t.state
        store.put_transfer(t)
        count += 1
    return count


def _known(store: Store, tid: str, cid: str) -> TransferRow:
    """The transfer, checked against the campaign the request names (P7, L32)."""
    known = store.transfer(tid)
    if known is not None:
        if cid and cid != known.campaign:
            raise errors.invalid("campaign_id", "is not the campaign of this transfer")
        return known
    if cid and store.campaign(cid) is None:
        raise errors.campaign_not_opened(cid)
    raise errors.transfer_not_found(tid)


def _move(store: Store, t: TransferRow) -> None:
    """The completion moves what the begin reserved, or what of it is still there (L9)."""
    cid = t.campaign
    loading = t.direction == pb.DIRECTION_LOAD
    for uid in t.units:
        row = store.unit(cid, uid)
        if row is None or not row.standing():
            continue
        if loading and row.city == t.port and not row.transport:
            row.city, row.tactical, row.transport = "", False, t.transport
            store.put_unit(row)
        elif not loading and row.transport == t.transport:
            row.city, row.tactical, row.transport = t.port, True, ""
            store.put_unit(row)
    source, target = ((CITY, t.port), (TRANSPORT, t.transport))
    if not loading:
        source, target = target, source
    moved = min(t.supplies, store.stock(cid, *source))
    if moved:
        store.add_stock(cid, *source, -moved)
        store.add_stock(cid, *target, moved)


def _hold_refusals(store: Store, req: pb.BeginTransferRequest, clock: Clock) -> list[pb.Refusal]:
    """A begin naming a hold that no longer holds is refused, item "hold" (L28)."""
    if not req.hold_id:
        return []
    row = store.hold(req.hold_id)
    if row is None or row[1] != req.campaign_id or row[4] != req.port:
        code, text = "hold_unknown", "no such hold was given for this campaign and port"
    elif row[6] == "released":
        code, text = "hold_released", "the hold was released"
    elif row[6] == "expired" or clock() >= row[5]:
        code, text = "hold_expired", "the hold's time has passed"
    else:
        return []
    return [refusal("hold", "refused", f"{code}: {text}")]


def _refusals(store: Store, contract: Contract, req: pb.BeginTransferRequest) -> list[pb.Refusal]:
    """Every faulty item with the first reason found; none when the begin may be taken."""
    cid = req.campaign_id
    on_map = req.port in contract.cities
    reserved_units, reserved_supplies = store.reservations(cid)
    found: list[pb.Refusal] = []
    twice = sorted({u for u in req.units if list(req.units).count(u) > 1})
    if twice:
        found.append(refusal("units", "twice", f"a unit is named twice ({', '.join(twice)})"))
    seen: set[str] = set()
    for uid in req.units:
        if uid in seen:
            continue
        seen.add(uid)
        why = _unit_refusal(store.unit(cid, uid), req, on_map, reserved_units)
        if why is not None:
            found.append(refusal(uid, *why))
    loading = req.direction == pb.DIRECTION_LOAD
    if loading and not TRANSPORT_FORM.fullmatch(req.transport_id):
        found.append(refusal("transport_id", "refused", "no such transport"))
    if req.supplies:
        place = (CITY, req.port) if loading else (TRANSPORT, req.transport_id)
        free = store.stock(cid, *place) - reserved_supplies.get(place, 0) if on_map else 0
        if req.supplies > free:
            where = f"in {req.port}" if loading else f"aboard {req.transport_id}"
            found.append(refusal("supplies", "supplies", f"only {max(free, 0)} free {where}"))
    return found


def _unit_refusal(
    row: UnitRow | None, req: pb.BeginTransferRequest, on_map: bool, reserved: dict[str, str]
) -> tuple[str, str] | None:
    """(code, reason) in the order "Refusal codes" gives, or None when the unit may go."""
    loading = req.direction == pb.DIRECTION_LOAD
    if row is None:
        return "unknown", "no such unit"
    if loading and row.state != req.state:
        # Nothing more is said of another state's unit ("Reasons reach players").
        return "foreign", f"a unit of {row.state}, not of {req.state}"
    if not row.standing():
        return "unknown", "no longer exists (lost, captured or destroyed)"
    if not on_map:
        return "elsewhere", f"not in {req.port}"
    if row.id in reserved:
        return "reserved", "already being moved by another transfer"
    if loading and row.transport:
        return "embarked", "already embarked"
    if loading and (row.city != req.port or not row.tactical):
        return "elsewhere", f"not in {req.port}"
    if not loading and row.transport != req.transport_id:
        return "elsewhere", f"not aboard {req.transport_id}"
    return None
