"""BeginTransfer, CompleteTransfer, GetTransfer (rules 3.6, 3.9; L4 to L11, L13, L14)."""

from __future__ import annotations

from examples.gitm_land import checks
from examples.gitm_land.errors import conflict, invalid, not_found
from examples.gitm_land.land import BEGUN, LOAD, UNLOAD, Land, digest
from examples.gitm_land.store import ABOARD, CAPTURED, CITY, LOST, TRANSPORT, Transfer
from gitm.v1 import land_pb2 as pb


def _check_begin(req: pb.BeginTransferRequest) -> str:
    checks.opaque_id("transfer_id", req.transfer_id)
    checks.opaque_id("campaign_id", req.campaign_id)
    checks.turn("turn", req.turn)
    checks.city("port", req.port)
    checks.name_id("transport_id", req.transport_id)
    if req.direction not in (LOAD, UNLOAD):
        raise invalid("direction", "must be DIRECTION_LOAD or DIRECTION_UNLOAD")
    checks.unit_ids("units", req.units)
    checks.count("supplies", req.supplies, checks.MAX_SUPPLIES)
    checks.state("state", req.state, optional=True)
    if not req.units and not req.supplies:
        raise invalid("units", "a transfer moves at least one unit or one supply")
    canonical = pb.BeginTransferRequest()
    canonical.CopyFrom(req)
    canonical.units[:] = sorted(req.units)
    return digest(canonical)


def begin(land: Land, req: pb.BeginTransferRequest) -> pb.TransferStatus:
    content = _check_begin(req)
    old = land.store.transfer(req.transfer_id)
    if old is not None:
        if old.digest != content:
            raise conflict("transfer_id", req.transfer_id)
        return pb.TransferStatus.FromString(old.answer)
    land.live_campaign(req.campaign_id)
    refusals = _refusals(land, req)
    status = pb.TransferStatus(
        transfer_id=req.transfer_id,
        accepted=not refusals,
        units=[] if refusals else req.units,  # a refused transfer holds nothing (docs/gitm.md)
        supplies=0 if refusals else req.supplies,
        state=pb.TRANSFER_STATE_REFUSED if refusals else BEGUN,
        refusals=refusals,
        reason="; ".join(f"{r.item}: {r.reason}" for r in refusals),
    )
    _save(land, req, content, status)
    return status


def _save(land: Land, req: pb.BeginTransferRequest, content: str, s: pb.TransferStatus) -> None:
    land.store.save_transfer(
        Transfer(
            req.transfer_id,
            req.campaign_id,
            content,
            req.direction,
            req.port,
            req.transport_id,
            tuple(req.units),
            req.supplies,
            s.state,
            s.SerializeToString(deterministic=True),
        )
    )


def _refusals(land: Land, req: pb.BeginTransferRequest) -> list[pb.Refusal]:
    """Every reason the land game has to refuse; none means the transfer is taken whole (L7)."""
    held = land.reserved_units(req.campaign_id)
    refusals: list[pb.Refusal] = []
    seen: set[str] = set()
    for uid in req.units:
        why = "named twice" if uid in seen else _unit_refusal(land, req, uid, held)
        seen.add(uid)
        if why:
            refusals.append(pb.Refusal(item=uid, reason=why))
    if req.supplies:
        why = _supply_refusal(land, req)
        if why:
            refusals.append(pb.Refusal(item="supplies", reason=why))
    return refusals


def _unit_refusal(land: Land, req: pb.BeginTransferRequest, uid: str, held: dict[str, str]) -> str | None:
    if req.port not in land.cities:
        return f"not in {req.port}"
    unit = land.store.unit(req.campaign_id, uid)
    if unit is None:
        return "no such unit"
    if req.direction == LOAD and req.state and unit.state != req.state:
        return f"a unit of {unit.state}, not of {req.state}"  # before saying where or what it is
    if unit.place == LOST:
        return "lost"
    if unit.place == CAPTURED:
        return f"a prisoner of {unit.location}"
    if uid in held:
        return "reserved by another open transfer"  # whose, the player may not know
    if req.direction == UNLOAD:
        if unit.place != ABOARD or unit.location != req.transport_id:
            return f"not aboard {req.transport_id}"
        return None
    if unit.place == ABOARD:
        return f"already embarked on {unit.location}"
    if unit.location != req.port or not unit.tactical:
        return f"not in {req.port}"
    return None


def _supply_refusal(land: Land, req: pb.BeginTransferRequest) -> str | None:
    cid = req.campaign_id
    if req.port not in land.cities:
        return f"not in {req.port}"
    if req.direction == LOAD:
        free = land.store.stock(cid, CITY, req.port) - land.reserved_city_supplies(cid, req.port)
        where = f"in {req.port}"
    else:
        aboard = land.store.stock(cid, TRANSPORT, req.transport_id)
        free = aboard - land.reserved_aboard_supplies(cid, req.transport_id)
        where = f"aboard {req.transport_id}"
    if req.supplies > free:
        return f"{req.supplies} asked, {max(free, 0)} free {where}"
    return None


def complete(land: Land, req: pb.CompleteTransferRequest) -> pb.TransferStatus:
    checks.opaque_id("transfer_id", req.transfer_id)
    t = land.store.transfer(req.transfer_id)
    if t is None:
        raise not_found(f"transfer_id: transfer {req.transfer_id!r} was never begun")
    if t.state != BEGUN:
        return pb.TransferStatus.FromString(t.answer)  # final, whatever the flag (L13)
    status = pb.TransferStatus.FromString(t.answer)
    if req.cancelled:
        status.state = pb.TRANSFER_STATE_CANCELLED
    else:
        _carry_out(land, t)
        status.state = pb.TRANSFER_STATE_COMPLETED
    finish(land, t, status)
    return status


def finish(land: Land, t: Transfer, status: pb.TransferStatus) -> None:
    answer = status.SerializeToString(deterministic=True)
    land.store.save_transfer(
        Transfer(
            t.id,
            t.campaign,
            t.digest,
            t.direction,
            t.port,
            t.transport,
            t.units,
            t.supplies,
            status.state,
            answer,
        )
    )


def _carry_out(land: Land, t: Transfer) -> None:
    """The move the reservation guaranteed (L9): never refused."""
    store, cid = land.store, t.campaign
    if t.direction == LOAD:
        for uid in t.units:
            store.move_unit(cid, uid, ABOARD, t.transport, False)
        store.add_stock(cid, CITY, t.port, -t.supplies)
        store.add_stock(cid, TRANSPORT, t.transport, t.supplies)
        return
    for uid in t.units:
        unit = store.unit(cid, uid)
        if unit is not None and unit.place == ABOARD and unit.location == t.transport:
            store.move_unit(cid, uid, CITY, t.port, True)
    landed = min(t.supplies, store.stock(cid, TRANSPORT, t.transport))
    store.add_stock(cid, TRANSPORT, t.transport, -landed)
    store.add_stock(cid, CITY, t.port, landed)


def get(land: Land, req: pb.GetTransferRequest) -> pb.TransferStatus:
    checks.opaque_id("transfer_id", req.transfer_id)
    t = land.store.transfer(req.transfer_id)
    if t is None:
        raise not_found(f"transfer_id: transfer {req.transfer_id!r} was never begun")
    return pb.TransferStatus.FromString(t.answer)
