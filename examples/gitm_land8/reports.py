"""ReportSightings, ReportCargoLoss, ReportCargoMoves (L17-L19), each kept by its id."""

from __future__ import annotations

from gitm.v1 import land_pb2

from . import errors
from .land import content, for_new_work, free_aboard, joined, refusal, reservations
from .store import TRANSPORT, Store


def _repeat(store: Store, kind: str, ident: str, key: bytes, call: str, answer_type):
    """The stored answer of a repeat, ALREADY_EXISTS for other content, else None."""
    kept = store.answer(kind, ident)
    if kept is None:
        return None
    if kept[1] != key:
        raise errors.reused(call, ident)
    answer = answer_type.FromString(kept[2])
    answer.duplicate = True
    return answer


def _keep(store: Store, kind: str, ident: str, campaign: str, key: bytes, answer) -> None:
    store.keep_answer(kind, ident, campaign, key, answer.SerializeToString(deterministic=True))


def sightings(store: Store, request: land_pb2.ReportSightingsRequest):
    errors.check_rules(request)
    key = content(request, "next_close_unix")  # a forecast, no part of the report's content
    found = _repeat(
        store, "sightings", request.report_id, key, "ReportSightings", land_pb2.ReportSightingsResponse
    )
    if found is not None:
        return found
    for_new_work(store, request.campaign_id)
    # Kept as sent (the answer row holds the request's content); counted by entry (L17).
    answer = land_pb2.ReportSightingsResponse(report_id=request.report_id, sightings=len(request.sightings))
    store.run(
        "UPDATE campaigns SET pate_turn=MAX(pate_turn, ?) WHERE id=?", request.turn, request.campaign_id
    )
    _keep(store, "sightings", request.report_id, request.campaign_id, key, answer)
    return answer


def cargo_loss(store: Store, request: land_pb2.ReportCargoLossRequest):
    errors.check_rules(request)
    captured = request.fate == land_pb2.CARGO_FATE_CAPTURED
    if captured and not request.captor:
        raise errors.malformed("captor", "a capture names its captor")
    key = content(request)
    found = _repeat(store, "loss", request.loss_id, key, "ReportCargoLoss", land_pb2.ReportCargoLossResponse)
    if found is not None:
        return found
    campaign, transport = request.campaign_id, request.transport_id
    for_new_work(store, campaign)
    fate, captor = ("captured", request.captor) if captured else ("lost", "")
    answer = land_pb2.ReportCargoLossResponse(loss_id=request.loss_id)
    for unit_id in dict.fromkeys(request.units):  # a unit named twice is lost once
        row = store.unit(campaign, unit_id)
        if row is None or row[3]:
            answer.refusals.append(refusal(unit_id, "no such unit aboard", "unknown"))
        elif row[2] != transport:
            answer.refusals.append(refusal(unit_id, f"not aboard {transport}", "elsewhere"))
        else:
            store.run(
                "UPDATE units SET city='', transport='', fate=?, captor=? WHERE campaign=? AND id=?",
                fate,
                captor,
                campaign,
                unit_id,
            )
            answer.units.append(unit_id)
    aboard = store.stock(campaign, TRANSPORT, transport)
    answer.supplies = min(request.supplies, aboard)
    if answer.supplies:
        store.add_stock(campaign, TRANSPORT, transport, -answer.supplies)
    if request.supplies > aboard:
        answer.refusals.append(refusal("supplies", f"only {aboard} aboard {transport}", "supplies"))
    answer.accepted = not answer.refusals
    answer.reason = joined(answer.refusals)
    _keep(store, "loss", request.loss_id, campaign, key, answer)
    return answer


def cargo_moves(store: Store, request: land_pb2.ReportCargoMovesRequest):
    errors.check_rules(request)
    for i, move in enumerate(request.moves):
        if move.to_transport == move.from_transport:
            raise errors.malformed(f"moves[{i}].to_transport", f"must differ from moves[{i}].from_transport")
    key = content(request)
    found = _repeat(
        store, "moves", request.move_id, key, "ReportCargoMoves", land_pb2.ReportCargoMovesResponse
    )
    if found is not None:
        return found
    for_new_work(store, request.campaign_id)
    answer = land_pb2.ReportCargoMovesResponse(move_id=request.move_id)
    for move in request.moves:  # in the order given: a later move may carry on an earlier one's
        applied = _one_move(store, request.campaign_id, move, answer.refusals)
        if applied.units or applied.supplies:
            answer.applied.append(applied)
    answer.accepted = not answer.refusals
    _keep(store, "moves", request.move_id, request.campaign_id, key, answer)
    return answer


def _one_move(store: Store, campaign: str, move, refusals) -> land_pb2.CargoMove:
    held = reservations(store, campaign)
    source, target = move.from_transport, move.to_transport
    applied = land_pb2.CargoMove(from_transport=source, to_transport=target)
    for unit_id in dict.fromkeys(move.units):  # a unit named twice is moved once
        row = store.unit(campaign, unit_id)
        if row is None or row[3]:
            refusals.append(refusal(unit_id, "no such unit", "unknown"))
        elif unit_id in held.units:
            refusals.append(refusal(unit_id, "reserved by an open transfer", "reserved"))
        elif row[2] != source:
            refusals.append(refusal(unit_id, f"not aboard {source}", "elsewhere"))
        else:
            store.place_unit(campaign, unit_id, "", target)
            applied.units.append(unit_id)
    if move.supplies:
        free = free_aboard(store, campaign, source, held)
        if move.supplies > free:  # whole or not at all
            refusals.append(refusal("supplies", f"only {max(free, 0)} free aboard {source}", "supplies"))
        else:
            store.add_stock(campaign, TRANSPORT, source, -move.supplies)
            store.add_stock(campaign, TRANSPORT, target, move.supplies)
            applied.supplies = move.supplies
    return applied
