"""BeginTransfer, CompleteTransfer and GetTransfer (docs/gitm.md "Answers", L4 to L14)."""

import json
import sqlite3
import time
from typing import Any

from examples.gitm_land7 import common, holds
from examples.gitm_land7.contract import ContractData
from examples.gitm_land7.errors import Fault, malformed, reused
from gitm.v1 import land_pb2 as pb

LOAD = pb.DIRECTION_LOAD


def _status(row: tuple[Any, ...]) -> pb.TransferStatus:
    ident, state, units, supplies, refusals = row
    answer = pb.TransferStatus(transfer_id=ident, state=state)
    if state == pb.TRANSFER_STATE_REFUSED:
        answer.refusals.extend(pb.TransferStatus.FromString(bytes(refusals)).refusals)
        answer.reason = "; ".join(f"{r.item}: {r.reason}" for r in answer.refusals)
        return answer
    answer.accepted = True
    answer.units.extend(json.loads(units))
    answer.supplies = supplies
    return answer


def _find(db: sqlite3.Connection, transfer_id: str) -> tuple[Any, ...] | None:
    row: tuple[Any, ...] | None = db.execute(
        "SELECT id, state, units, supplies, refusals, campaign FROM transfers WHERE id = ?",
        (transfer_id,),
    ).fetchone()
    return row


def _check_unit(
    db: sqlite3.Connection, request: pb.BeginTransferRequest, unit_id: str, on_map: bool
) -> pb.Refusal | None:
    """The first reason a unit is refused, in the order of "Refusal codes"."""
    found = common.unit(db, request.campaign_id, unit_id)
    if found is None:
        return common.refusal(unit_id, "unknown", "no such unit")
    load = request.direction == LOAD
    if load and request.state and found.state != request.state:
        return common.refusal(unit_id, "foreign", f"a unit of {found.state}, not of {request.state}")
    if found.fate:
        return common.refusal(unit_id, "unknown", f"the unit was {found.fate}")
    if found.reserved_by:
        return common.refusal(unit_id, "reserved", "already being moved by another transfer")
    if load and found.transport:
        return common.refusal(unit_id, "embarked", "already aboard a transport")
    if load and (not on_map or found.city != request.port or not found.tactical):
        return common.refusal(unit_id, "elsewhere", f"not in {request.port}")
    if not load and found.transport != request.transport_id:
        return common.refusal(unit_id, "elsewhere", f"not aboard {request.transport_id}")
    if not load and not on_map:
        return common.refusal(unit_id, "elsewhere", f"not in {request.port}")
    return None


def _refusals(
    db: sqlite3.Connection, request: pb.BeginTransferRequest, data: ContractData
) -> list[pb.Refusal]:
    on_map = request.port in data.cities
    found: list[pb.Refusal] = []
    names = list(request.units)
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        found.append(common.refusal("units", "twice", "a unit is named twice: " + ", ".join(twice)))
    for unit_id in dict.fromkeys(names):
        refused = _check_unit(db, request, unit_id, on_map)
        if refused is not None:
            found.append(refused)
    if request.supplies:
        cid = request.campaign_id
        place = (request.port, "") if request.direction == LOAD else ("", request.transport_id)
        free = common.stock(db, cid, *place) - common.reserved_stock(db, cid, *place)
        if not on_map:
            free = 0
        if request.supplies > free:
            found.append(common.refusal("supplies", "supplies", f"only {max(free, 0)} free"))
    return found


def begin(db: sqlite3.Connection, request: pb.BeginTransferRequest, data: ContractData) -> pb.TransferStatus:
    if not request.units and not request.supplies:
        raise malformed("units", "a transfer must move at least one unit or supply")
    body = common.content(request, "hold_id")
    row = db.execute("SELECT content FROM transfers WHERE id = ?", (request.transfer_id,)).fetchone()
    if row is not None:
        if bytes(row[0]) != body:
            raise reused("BeginTransfer", request.transfer_id)
        return _status(_find(db, request.transfer_id)[:5])  # type: ignore[index]
    common.open_campaign(db, request.campaign_id)
    refused: list[pb.Refusal] = []
    if request.hold_id:
        lapsed = holds.lapsed(db, request.campaign_id, request.port, request.hold_id, time.time())
        if lapsed:
            refused = [common.refusal("hold", "refused", lapsed)]
    if not refused:
        refused = _refusals(db, request, data)
    state = pb.TRANSFER_STATE_REFUSED if refused else pb.TRANSFER_STATE_BEGUN
    kept = pb.TransferStatus(refusals=refused).SerializeToString() if refused else None
    db.execute(
        "INSERT INTO transfers (id, campaign, content, state, direction, port, transport, units, "
        "supplies, turn, refusals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            request.transfer_id,
            request.campaign_id,
            body,
            state,
            request.direction,
            request.port,
            request.transport_id,
            json.dumps([] if refused else list(request.units)),
            0 if refused else request.supplies,
            request.turn,
            kept,
        ),
    )
    if not refused:
        for unit_id in request.units:
            db.execute(
                "UPDATE units SET reserved_by = ? WHERE campaign = ? AND id = ?",
                (request.transfer_id, request.campaign_id, unit_id),
            )
    return _status(_find(db, request.transfer_id)[:5])  # type: ignore[index]


def _known(db: sqlite3.Connection, transfer_id: str, campaign_id: str) -> tuple[Any, ...]:
    row = _find(db, transfer_id)
    if row is None:
        raise Fault(
            "TRANSFER_NOT_FOUND", "transfer_id: no such transfer", metadata={"transfer_id": transfer_id}
        )
    if campaign_id and campaign_id != row[5]:
        raise malformed("campaign_id", "is not the campaign of this transfer")
    return row


def get(db: sqlite3.Connection, request: pb.GetTransferRequest) -> pb.TransferStatus:
    return _status(_known(db, request.transfer_id, request.campaign_id)[:5])


def complete(db: sqlite3.Connection, request: pb.CompleteTransferRequest) -> pb.TransferStatus:
    row = _known(db, request.transfer_id, request.campaign_id)
    if row[1] != pb.TRANSFER_STATE_BEGUN:
        return _status(row[:5])
    ident, cid = row[0], row[5]
    info = db.execute(
        "SELECT direction, port, transport, units, supplies FROM transfers WHERE id = ?", (ident,)
    ).fetchone()
    direction, port, transport, names, supplies = info
    if request.cancelled:
        new_state = pb.TRANSFER_STATE_CANCELLED
        db.execute("UPDATE units SET reserved_by = '' WHERE campaign = ? AND reserved_by = ?", (cid, ident))
    else:
        new_state = pb.TRANSFER_STATE_COMPLETED
        _move(db, cid, ident, direction, port, transport, json.loads(names), supplies)
    db.execute("UPDATE transfers SET state = ? WHERE id = ?", (new_state, ident))
    return _status(_find(db, ident)[:5])  # type: ignore[index]


def _move(
    db: sqlite3.Connection,
    cid: str,
    ident: str,
    direction: int,
    port: str,
    transport: str,
    names: list[str],
    supplies: int,
) -> None:
    """The completion moves what is still there of what was begun (L9)."""
    for unit_id in names:
        found = common.unit(db, cid, unit_id)
        if found is None or found.fate or found.reserved_by != ident:
            continue
        if direction == LOAD:
            common.place_unit(db, cid, unit_id, "", transport, False)
        else:
            common.place_unit(db, cid, unit_id, port, "", True)
    source = (port, "") if direction == LOAD else ("", transport)
    target = ("", transport) if direction == LOAD else (port, "")
    moved = min(supplies, common.stock(db, cid, *source))
    common.add_stock(db, cid, *source, -moved)
    common.add_stock(db, cid, *target, moved)
