"""ReportSightings, ReportCargoLoss and ReportCargoMoves: idempotent by their ids (L17 to L19)."""

from __future__ import annotations

from typing import Any, TypeVar

from google.protobuf.message import Message

from gitm.v1 import land_pb2 as pb

from . import errors, validation
from .store import Tx
from .transfers import opened
from .world import World, add_stock, reserved_supplies, reserved_units, same_content, stock, transport_key

T = TypeVar("T", bound=Message)


def _stored(tx: Tx, kind: str, rid: str, content: bytes, answer_type: type[T]) -> T | None:
    """The first answer with duplicate set, ALREADY_EXISTS for other content, None when new."""
    known = tx.report(kind, rid)
    if known is None:
        return None
    if known[0] != content:
        raise errors.id_reused(
            kind, rid, {"ReportSightings": "report_id", "ReportCargoLoss": "loss_id"}.get(kind, "move_id")
        )
    answer = answer_type()
    answer.ParseFromString(known[1])
    answer.duplicate = True  # type: ignore[attr-defined]
    return answer


def _new_work(tx: Tx, cid: str) -> dict[str, Any]:
    campaign = opened(tx, cid)
    if campaign["closed"]:
        raise errors.closed(cid)
    return campaign


def _keep(tx: Tx, kind: str, rid: str, content: bytes, answer: Message) -> None:
    tx.put_report(kind, rid, content, answer.SerializeToString())


def sightings(tx: Tx, req: pb.ReportSightingsRequest) -> pb.ReportSightingsResponse:
    content = same_content(req, "next_close_unix")
    stored = _stored(tx, "ReportSightings", req.report_id, content, pb.ReportSightingsResponse)
    if stored is not None:
        return stored
    campaign = _new_work(tx, req.campaign_id)
    answer = pb.ReportSightingsResponse(report_id=req.report_id, sightings=len(req.sightings))
    _keep(tx, "ReportSightings", req.report_id, content, answer)
    tx.run(
        "UPDATE campaigns SET pate_turn = ? WHERE id = ?",
        max(campaign["pate_turn"], req.turn),
        req.campaign_id,
    )
    return answer


def _refusal(item: str, reason: str, code: str) -> pb.Refusal:
    return pb.Refusal(item=item, reason=reason, code=code)


def cargo_loss(tx: Tx, req: pb.ReportCargoLossRequest) -> pb.ReportCargoLossResponse:
    if req.fate == pb.CARGO_FATE_CAPTURED and not req.captor:
        validation.check(req, [("captor", "required when the fate is CARGO_FATE_CAPTURED")])
    content = same_content(req)
    stored = _stored(tx, "ReportCargoLoss", req.loss_id, content, pb.ReportCargoLossResponse)
    if stored is not None:
        return stored
    world = _new_work(tx, req.campaign_id)["world"]
    captured = req.fate == pb.CARGO_FATE_CAPTURED
    answer = pb.ReportCargoLossResponse(loss_id=req.loss_id)
    for uid in dict.fromkeys(req.units):
        unit = world["units"].get(uid)
        if unit is None or unit["fate"]:
            answer.refusals.append(_refusal(uid, "no such unit", "unknown"))
        elif unit["transport"] != req.transport_id:
            answer.refusals.append(_refusal(uid, f"not aboard {req.transport_id}", "elsewhere"))
        else:
            unit.update(
                fate="captured" if captured else "lost", captor=req.captor if captured else "", transport=""
            )
            answer.units.append(uid)
    key = transport_key(req.transport_id)
    taken = min(req.supplies, stock(world, key))
    add_stock(world, key, -taken)
    answer.supplies = taken
    if taken < req.supplies:
        answer.refusals.append(
            _refusal("supplies", f"only {taken} supplies aboard {req.transport_id}", "supplies")
        )
    answer.accepted = not answer.refusals
    answer.reason = "; ".join(f"{r.item}: {r.reason}" for r in answer.refusals)
    tx.save_world(req.campaign_id, world)
    _keep(tx, "ReportCargoLoss", req.loss_id, content, answer)
    return answer


def _apply_move(
    world: World, move: pb.CargoMove, reserved: dict[str, str]
) -> tuple[pb.CargoMove, list[pb.Refusal]]:
    done = pb.CargoMove(from_transport=move.from_transport, to_transport=move.to_transport)
    refusals: list[pb.Refusal] = []
    for uid in dict.fromkeys(move.units):
        unit = world["units"].get(uid)
        if unit is None or unit["fate"]:
            refusals.append(_refusal(uid, "no such unit", "unknown"))
        elif uid in reserved:
            refusals.append(_refusal(uid, "already being moved by another transfer", "reserved"))
        elif unit["transport"] != move.from_transport:
            refusals.append(_refusal(uid, f"not aboard {move.from_transport}", "elsewhere"))
        else:
            unit["transport"] = move.to_transport
            done.units.append(uid)
    if move.supplies:
        source = transport_key(move.from_transport)
        free = stock(world, source) - reserved_supplies(world, source)
        if move.supplies > free:
            refusals.append(
                _refusal(
                    "supplies", f"only {max(free, 0)} free supplies aboard {move.from_transport}", "supplies"
                )
            )
        else:
            add_stock(world, source, -move.supplies)
            add_stock(world, transport_key(move.to_transport), move.supplies)
            done.supplies = move.supplies
    return done, refusals


def cargo_moves(tx: Tx, req: pb.ReportCargoMovesRequest) -> pb.ReportCargoMovesResponse:
    faults = [
        (f"moves[{i}].to_transport", f"moves[{i}].to_transport must differ from moves[{i}].from_transport")
        for i, move in enumerate(req.moves)
        if move.to_transport and move.to_transport == move.from_transport
    ]
    if faults:
        validation.check(req, faults)
    content = same_content(req)
    stored = _stored(tx, "ReportCargoMoves", req.move_id, content, pb.ReportCargoMovesResponse)
    if stored is not None:
        return stored
    world = _new_work(tx, req.campaign_id)["world"]
    reserved = reserved_units(world)
    answer = pb.ReportCargoMovesResponse(move_id=req.move_id)
    for move in req.moves:
        done, refusals = _apply_move(world, move, reserved)
        if done.units or done.supplies:
            answer.applied.append(done)
        answer.refusals.extend(refusals)
    answer.accepted = not answer.refusals
    tx.save_world(req.campaign_id, world)
    _keep(tx, "ReportCargoMoves", req.move_id, content, answer)
    return answer
