"""ReportSightings, ReportCargoLoss and ReportCargoMoves: idempotent by their ids."""

from __future__ import annotations

from typing import Any

from examples.gitm_land6 import errors, model
from gitm.v1 import land_pb2 as pb


def _repeat(state: dict[str, Any], call: str, ident: str, print_: str, cls: type) -> Any:
    known = state["reports"].get(f"{call}|{ident}")
    if known is None:
        return None
    if known["fp"] != print_:
        raise errors.reused(call, ident)
    answer = model.from_dict(known["answer"], cls)
    answer.duplicate = True
    return answer


def _new_work(state: dict[str, Any], campaign_id: str) -> dict[str, Any]:
    camp = model.campaign(state, campaign_id)
    if camp["closed"]:
        raise errors.closed(campaign_id)
    return camp


def _keep(state: dict[str, Any], call: str, ident: str, print_: str, answer: Any) -> None:
    state["reports"][f"{call}|{ident}"] = {"fp": print_, "answer": model.to_dict(answer)}


def sightings(state: dict[str, Any], request: pb.ReportSightingsRequest) -> pb.ReportSightingsResponse:
    print_ = model.fingerprint(request, "next_close_unix")
    again = _repeat(state, "ReportSightings", request.report_id, print_, pb.ReportSightingsResponse)
    if again is not None:
        return again
    camp = _new_work(state, request.campaign_id)
    camp["pate_turn"] = max(camp["pate_turn"], request.turn)
    answer = pb.ReportSightingsResponse(report_id=request.report_id, sightings=len(request.sightings))
    _keep(state, "ReportSightings", request.report_id, print_, answer)
    return answer


def cargo_loss(state: dict[str, Any], request: pb.ReportCargoLossRequest) -> pb.ReportCargoLossResponse:
    if request.fate == pb.CARGO_FATE_CAPTURED and not request.captor:
        raise errors.invalid("captor", "required when the fate is CARGO_FATE_CAPTURED")
    print_ = model.fingerprint(request)
    again = _repeat(state, "ReportCargoLoss", request.loss_id, print_, pb.ReportCargoLossResponse)
    if again is not None:
        return again
    camp = _new_work(state, request.campaign_id)
    captured = request.fate == pb.CARGO_FATE_CAPTURED
    for transfer in model.open_transfers(state, request.campaign_id):
        # PATE sends a loss after the completions; should a landing still be open, what it
        # reserved aboard is gone: its completion then moves only what is left.
        if transfer["direction"] == pb.DIRECTION_UNLOAD and transfer["transport"] == request.transport_id:
            transfer["freed"] = True
    answer = pb.ReportCargoLossResponse(loss_id=request.loss_id)
    for unit_id in dict.fromkeys(request.units):
        entry = camp["units"].get(unit_id)
        if entry is None or entry["fate"]:
            answer.refusals.add(item=unit_id, reason="no such unit", code="unknown")
        elif entry["transport"] != request.transport_id:
            answer.refusals.add(item=unit_id, reason=f"not aboard {request.transport_id}", code="elsewhere")
        else:
            entry.update(
                transport="",
                city="",
                tactical=False,
                fate="captured" if captured else "lost",
                captor=request.captor if captured else "",
            )
            answer.units.append(unit_id)
    aboard = max(model.stock(camp, "t:" + request.transport_id), 0)
    taken = min(request.supplies, aboard)
    model.add_stock(camp, "t:" + request.transport_id, -taken)
    answer.supplies = taken
    if request.supplies > taken:
        answer.refusals.add(item="supplies", reason=f"only {aboard} aboard", code="supplies")
    answer.accepted = not answer.refusals
    answer.reason = "; ".join(f"{r.item}: {r.reason}" for r in answer.refusals)
    _keep(state, "ReportCargoLoss", request.loss_id, print_, answer)
    return answer


def _apply_move(
    state: dict[str, Any],
    camp: dict[str, Any],
    campaign_id: str,
    move: pb.CargoMove,
    answer: pb.ReportCargoMovesResponse,
) -> None:
    reserved = model.reserved_by(state, campaign_id)
    done = pb.CargoMove(from_transport=move.from_transport, to_transport=move.to_transport)
    for unit_id in move.units:
        entry = camp["units"].get(unit_id)
        if entry is None or entry["fate"]:
            answer.refusals.add(item=unit_id, reason="no such unit", code="unknown")
        elif entry["transport"] != move.from_transport:
            answer.refusals.add(item=unit_id, reason=f"not aboard {move.from_transport}", code="elsewhere")
        elif unit_id in reserved:
            answer.refusals.add(
                item=unit_id, reason="already being moved by another transfer", code="reserved"
            )
        else:
            entry["transport"] = move.to_transport
            done.units.append(unit_id)
    if move.supplies:
        source = "t:" + move.from_transport
        free = model.stock(camp, source) - model.reserved_supplies(state, campaign_id, source)
        if move.supplies > free:
            answer.refusals.add(item="supplies", reason=f"only {max(free, 0)} free aboard", code="supplies")
        else:
            model.add_stock(camp, source, -move.supplies)
            model.add_stock(camp, "t:" + move.to_transport, move.supplies)
            done.supplies = move.supplies
    if done.units or done.supplies:
        answer.applied.append(done)


def cargo_moves(state: dict[str, Any], request: pb.ReportCargoMovesRequest) -> pb.ReportCargoMovesResponse:
    for i, move in enumerate(request.moves):
        if move.from_transport == move.to_transport:
            raise errors.invalid(f"moves[{i}].to_transport", f"must differ from moves[{i}].from_transport")
    print_ = model.fingerprint(request)
    again = _repeat(state, "ReportCargoMoves", request.move_id, print_, pb.ReportCargoMovesResponse)
    if again is not None:
        return again
    camp = _new_work(state, request.campaign_id)
    answer = pb.ReportCargoMovesResponse(move_id=request.move_id)
    for move in request.moves:
        _apply_move(state, camp, request.campaign_id, move, answer)
    answer.accepted = not answer.refusals
    _keep(state, "ReportCargoMoves", request.move_id, print_, answer)
    return answer
