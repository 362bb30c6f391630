"""BeginTransfer, CompleteTransfer and GetTransfer (L4 to L14, L32)."""

from __future__ import annotations

from typing import Any

from gitm.v1 import land_pb2 as pb

from . import errors, holds, validation
from .store import Tx
from .world import (
    LOAD,
    World,
    add_stock,
    city_key,
    reserved_supplies,
    reserved_units,
    same_content,
    stock,
    transport_key,
)

Refused = tuple[str, str, str]  # item, reason, code
BEGUN, COMPLETED, CANCELLED, REFUSED = (
    pb.TRANSFER_STATE_BEGUN,
    pb.TRANSFER_STATE_COMPLETED,
    pb.TRANSFER_STATE_CANCELLED,
    pb.TRANSFER_STATE_REFUSED,
)


def opened(tx: Tx, cid: str) -> dict[str, Any]:
    campaign = tx.campaign(cid)
    if campaign is None:
        raise errors.not_opened(cid)
    return campaign


def status(tid: str, record: dict[str, Any]) -> pb.TransferStatus:
    if record["state"] == REFUSED:
        refusals = [pb.Refusal(item=i, reason=r, code=c) for i, r, c in record["refusals"]]
        reason = "; ".join(f"{i}: {r}" for i, r, _ in record["refusals"])
        return pb.TransferStatus(
            transfer_id=tid, accepted=False, state=REFUSED, reason=reason, refusals=refusals
        )
    return pb.TransferStatus(
        transfer_id=tid,
        accepted=True,
        state=record["state"],
        units=record["units"],
        supplies=record["supplies"],
    )


def _unit_refusal(
    world: World, req: pb.BeginTransferRequest, uid: str, reserved: dict[str, str], on_map: bool
) -> Refused | None:
    """The first reason found, in the order of "Refusal codes"."""
    unit = world["units"].get(uid)
    if unit is None:
        return (uid, "no such unit", "unknown")
    load = req.direction == LOAD
    if load and req.state and unit["state"] != req.state:
        return (uid, f"a unit of {unit['state']}, not of {req.state}", "foreign")
    if unit["fate"]:
        return (uid, f"no such unit ({unit['fate']})", "unknown")
    if uid in reserved:
        return (uid, "already being moved by another transfer", "reserved")
    if load and unit["transport"]:
        return (uid, "already embarked", "embarked")
    if load and (unit["city"] != req.port or not unit["tactical"] or not on_map):
        return (uid, f"not in {req.port}", "elsewhere")
    if not load and unit["transport"] != req.transport_id:
        return (uid, f"not aboard {req.transport_id}", "elsewhere")
    if not load and not on_map:
        return (uid, f"not in {req.port}", "elsewhere")
    return None


def _refusals(world: World, req: pb.BeginTransferRequest, on_map: bool) -> list[Refused]:
    out: list[tuple[str, str, str]] = []
    reserved = reserved_units(world)
    named = list(dict.fromkeys(req.units))
    if len(named) != len(req.units):
        twice = sorted({u for u in req.units if list(req.units).count(u) > 1})
        out.append(("units", "a unit is named twice: " + ", ".join(twice), "twice"))
    for uid in named:
        refusal = _unit_refusal(world, req, uid, reserved, on_map)
        if refusal:
            out.append(refusal)
    if req.supplies:
        source = city_key(req.port) if req.direction == LOAD else transport_key(req.transport_id)
        free = stock(world, source) - reserved_supplies(world, source) if on_map else 0
        if req.supplies > free:
            where = req.port if req.direction == LOAD else f"aboard {req.transport_id}"
            out.append(("supplies", f"only {max(free, 0)} free supplies in {where}", "supplies"))
    return out


def begin(tx: Tx, req: pb.BeginTransferRequest, now: int, cities: frozenset[str]) -> pb.TransferStatus:
    if not req.units and req.supplies == 0:
        validation.check(req, [("units", "a transfer moves at least one unit or one supply")])
    content = same_content(req, "hold_id")
    known = tx.transfer(req.transfer_id)
    if known is not None:
        if known[1] != content:
            raise errors.id_reused("BeginTransfer", req.transfer_id, "transfer_id")
        return status(req.transfer_id, known[2])
    campaign = opened(tx, req.campaign_id)
    if campaign["closed"]:
        raise errors.closed(req.campaign_id)
    world = campaign["world"]
    refusals = holds.begin_refusal(tx, req, now) or _refusals(world, req, req.port in cities)
    record: dict[str, Any] = {
        "direction": req.direction,
        "port": req.port,
        "transport": req.transport_id,
        "units": list(dict.fromkeys(req.units)),
        "supplies": req.supplies,
        "turn": req.turn,
        "refusals": [list(r) for r in refusals],
    }
    if refusals:
        record.update(state=REFUSED, units=[], supplies=0)
    else:
        record["state"] = BEGUN
        world["open"][req.transfer_id] = {
            k: record[k] for k in ("direction", "port", "transport", "units", "supplies")
        }
        tx.save_world(req.campaign_id, world)
    tx.put_transfer(req.transfer_id, req.campaign_id, content, record)
    return status(req.transfer_id, record)


def _known(tx: Tx, tid: str, cid: str) -> tuple[str, dict[str, Any]]:
    known = tx.transfer(tid)
    if known is not None and cid and known[0] != cid:
        raise errors.invalid("campaign_id", f"transfer {tid} is not of campaign {cid}")
    if known is None:
        if cid and tx.campaign(cid) is None:
            raise errors.not_opened(cid)
        raise errors.transfer_not_found(tid)
    return known[0], known[2]


def get(tx: Tx, req: pb.GetTransferRequest) -> pb.TransferStatus:
    _, record = _known(tx, req.transfer_id, req.campaign_id)
    return status(req.transfer_id, record)


def complete(tx: Tx, req: pb.CompleteTransferRequest) -> pb.TransferStatus:
    cid, record = _known(tx, req.transfer_id, req.campaign_id)
    if record["state"] != BEGUN:
        return status(req.transfer_id, record)
    campaign = opened(tx, cid)
    world = campaign["world"]
    world["open"].pop(req.transfer_id, None)
    if req.cancelled:
        record["state"] = CANCELLED
    else:
        move(world, record)
        record["state"] = COMPLETED
    tx.save_world(cid, world)
    tx.put_transfer(req.transfer_id, cid, tx.transfer(req.transfer_id)[1], record)  # type: ignore[index]
    return status(req.transfer_id, record)


def move(world: World, record: dict[str, Any]) -> None:
    """L9: what is still where the begin found it moves; what was lost meanwhile does not."""
    load = record["direction"] == LOAD
    for uid in record["units"]:
        unit = world["units"].get(uid)
        if unit is None or unit["fate"]:
            continue
        if load and unit["city"] == record["port"] and not unit["transport"]:
            unit.update(city="", tactical=False, transport=record["transport"])
        elif not load and unit["transport"] == record["transport"]:
            unit.update(city=record["port"], tactical=True, transport="")
    source, target = city_key(record["port"]), transport_key(record["transport"])
    if not load:
        source, target = target, source
    amount = min(int(record["supplies"]), stock(world, source))
    add_stock(world, source, -amount)
    add_stock(world, target, amount)
