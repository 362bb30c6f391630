"""BeginTransfer, CompleteTransfer and GetTransfer (L4 to L14)."""

from __future__ import annotations

import time
from typing import Any

from examples.gitm_land6 import errors, model
from gitm.v1 import land_pb2 as pb

LOAD = pb.DIRECTION_LOAD


def _hold_refusal(state: dict[str, Any], request: pb.BeginTransferRequest) -> str | None:
    hold = state["holds"].get(request.hold_id)
    if hold is None or hold["campaign"] != request.campaign_id or hold["port"] != request.port:
        return "hold_unknown: no such hold for this campaign and port"
    if hold["release"] is not None:
        return "hold_released: the hold was released"
    if time.time() >= hold["expires"]:
        return "hold_expired: the hold's ten minutes passed"
    return None


def _unit_refusal(
    camp: dict[str, Any], reserved: dict[str, str], request: pb.BeginTransferRequest, unit_id: str
) -> tuple[str, str] | None:
    entry = camp["units"].get(unit_id)
    if entry is None:
        return "no such unit", "unknown"
    load = request.direction == LOAD
    off_map = request.port not in model.CITIES
    unit_state = entry["unit"].get("state", "")
    if load and request.state and unit_state != request.state:
        return f"a unit of {unit_state}, not of {request.state}", "foreign"
    if entry["fate"]:
        return "no such unit", "unknown"
    if unit_id in reserved:
        return "already being moved by another transfer", "reserved"
    if load:
        if entry["transport"]:
            return "already embarked", "embarked"
        if entry["city"] != request.port or not entry["tactical"] or off_map:
            return f"not in {request.port}", "elsewhere"
    elif entry["transport"] != request.transport_id:
        return f"not aboard {request.transport_id}", "elsewhere"
    elif off_map:
        return f"not in {request.port}", "elsewhere"
    return None


def _refusals(
    state: dict[str, Any], camp: dict[str, Any], request: pb.BeginTransferRequest
) -> list[tuple[str, str, str]]:
    refusals: list[tuple[str, str, str]] = []
    counts: dict[str, int] = {}
    for unit_id in request.units:
        counts[unit_id] = counts.get(unit_id, 0) + 1
    twice = sorted(u for u, n in counts.items() if n > 1)
    if twice:
        refusals.append(("units", "a unit is named twice: " + ", ".join(twice), "twice"))
    reserved = model.reserved_by(state, request.campaign_id)
    for unit_id in counts:
        found = _unit_refusal(camp, reserved, request, unit_id)
        if found is not None:
            refusals.append((unit_id, found[0], found[1]))
    if request.supplies:
        on_map = request.port in model.CITIES
        place = "c:" + request.port if request.direction == LOAD else "t:" + request.transport_id
        free = model.stock(camp, place) - model.reserved_supplies(state, request.campaign_id, place)
        free = free if on_map else 0
        if request.supplies > free:
            refusals.append(("supplies", f"only {max(free, 0)} free", "supplies"))
    return refusals


def begin(state: dict[str, Any], request: pb.BeginTransferRequest) -> pb.TransferStatus:
    if not request.units and request.supplies == 0:
        raise errors.invalid("units", "a transfer moves at least one unit or one supply")
    print_ = model.fingerprint(request, "hold_id")
    known = state["transfers"].get(request.transfer_id)
    if known is not None:
        if known["fp"] != print_:
            raise errors.reused("BeginTransfer", request.transfer_id)
        return model.status(known)
    camp = model.campaign(state, request.campaign_id)
    if camp["closed"]:
        raise errors.closed(request.campaign_id)
    refusals: list[tuple[str, str, str]] = []
    if request.hold_id:
        lapsed = _hold_refusal(state, request)
        if lapsed is not None:
            refusals = [("hold", lapsed, "refused")]
    if not refusals:
        refusals = _refusals(state, camp, request)
    refused = bool(refusals)
    transfer = {
        "id": request.transfer_id,
        "fp": print_,
        "campaign": request.campaign_id,
        "state": pb.TRANSFER_STATE_REFUSED if refused else pb.TRANSFER_STATE_BEGUN,
        "direction": request.direction,
        "port": request.port,
        "transport": request.transport_id,
        "units": [] if refused else list(request.units),
        "supplies": 0 if refused else request.supplies,
        "turn": request.turn,
        "reason": "; ".join(f"{item}: {reason}" for item, reason, _ in refusals),
        "refusals": refusals,
    }
    state["transfers"][request.transfer_id] = transfer
    return model.status(transfer)


def _find(state: dict[str, Any], transfer_id: str, campaign_id: str) -> dict[str, Any]:
    # The campaign first among NOT_FOUNDs; a mismatch of campaigns depends on what is held,
    # so it comes after them (docs/gitm.md "Precedence").
    if campaign_id and campaign_id not in state["campaigns"]:
        raise errors.no_campaign(campaign_id)
    transfer = state["transfers"].get(transfer_id)
    if transfer is None:
        raise errors.not_found(
            "TRANSFER_NOT_FOUND", "transfer_id: transfer never begun", transfer_id=transfer_id[:64]
        )
    if campaign_id and campaign_id != transfer["campaign"]:
        raise errors.invalid("campaign_id", "not the campaign of this transfer")
    return transfer


def _move(state: dict[str, Any], transfer: dict[str, Any]) -> None:
    camp = state["campaigns"][transfer["campaign"]]
    port, transport = transfer["port"], transfer["transport"]
    for unit_id in transfer["units"]:
        entry = camp["units"].get(unit_id)
        if entry is None or entry["fate"]:
            continue
        if transfer["direction"] == LOAD:
            if entry["transport"] == "" and entry["city"] == port:
                entry.update(transport=transport, city="", tactical=False)
        elif entry["transport"] == transport:
            entry.update(transport="", city=port, tactical=True)
    source, target = ("c:" + port, "t:" + transport)
    if transfer["direction"] != LOAD:
        source, target = target, source
    moved = min(transfer["supplies"], max(model.stock(camp, source), 0))
    model.add_stock(camp, source, -moved)
    model.add_stock(camp, target, moved)


def complete(state: dict[str, Any], request: pb.CompleteTransferRequest) -> pb.TransferStatus:
    transfer = _find(state, request.transfer_id, request.campaign_id)
    if transfer["state"] == pb.TRANSFER_STATE_BEGUN:
        if request.cancelled:
            transfer["state"] = pb.TRANSFER_STATE_CANCELLED
        else:
            _move(state, transfer)
            transfer["state"] = pb.TRANSFER_STATE_COMPLETED
    return model.status(transfer)


def get(state: dict[str, Any], request: pb.GetTransferRequest) -> pb.TransferStatus:
    return model.status(_find(state, request.transfer_id, request.campaign_id))
