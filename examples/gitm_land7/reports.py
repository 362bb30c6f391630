"""The reports after a turn: sightings, cargo losses, cargo moves (L17 to L19)."""

import sqlite3

from examples.gitm_land7 import common
from examples.gitm_land7.errors import malformed
from gitm.v1 import land_pb2 as pb


def sightings(db: sqlite3.Connection, request: pb.ReportSightingsRequest) -> pb.ReportSightingsResponse:
    body = common.content(request, "next_close_unix")
    stored = common.stored_report(db, "ReportSightings", request.report_id, body)
    if stored is not None:
        answer = pb.ReportSightingsResponse.FromString(stored)
        answer.duplicate = True
        return answer
    common.open_campaign(db, request.campaign_id)
    common.note_turn(db, request.campaign_id, request.turn)
    answer = pb.ReportSightingsResponse(report_id=request.report_id, sightings=len(request.sightings))
    # The report itself is what the shore hears; it is kept whole with its answer.
    common.keep_report(
        db, "ReportSightings", request.report_id, request.campaign_id, body, answer.SerializeToString()
    )
    return answer


def _aboard(
    db: sqlite3.Connection, cid: str, unit_id: str, transport: str, reserved_is_refused: bool
) -> pb.Refusal | None:
    found = common.unit(db, cid, unit_id)
    if found is None:
        return common.refusal(unit_id, "unknown", "no such unit")
    if found.fate:
        return common.refusal(unit_id, "unknown", f"the unit was {found.fate}")
    if found.transport != transport:
        return common.refusal(unit_id, "elsewhere", f"not aboard {transport}")
    if reserved_is_refused and found.reserved_by:
        return common.refusal(unit_id, "reserved", "already being moved by another transfer")
    return None


def loss(db: sqlite3.Connection, request: pb.ReportCargoLossRequest) -> pb.ReportCargoLossResponse:
    if request.fate == pb.CARGO_FATE_CAPTURED and not request.captor:
        raise malformed("captor", "is required when the fate is CARGO_FATE_CAPTURED")
    body = common.content(request)
    stored = common.stored_report(db, "ReportCargoLoss", request.loss_id, body)
    if stored is not None:
        answer = pb.ReportCargoLossResponse.FromString(stored)
        answer.duplicate = True
        return answer
    cid = request.campaign_id
    common.open_campaign(db, cid)
    captured = request.fate == pb.CARGO_FATE_CAPTURED
    answer = pb.ReportCargoLossResponse(loss_id=request.loss_id)
    for unit_id in dict.fromkeys(request.units):
        refused = _aboard(db, cid, unit_id, request.transport_id, False)
        if refused is not None:
            answer.refusals.append(refused)
            continue
        db.execute(
            "UPDATE units SET fate = ?, captor = ?, transport = '', city = '', tactical = 0, "
            "reserved_by = '' WHERE campaign = ? AND id = ?",
            ("captured" if captured else "lost", request.captor if captured else "", cid, unit_id),
        )
        answer.units.append(unit_id)
    aboard = common.stock(db, cid, "", request.transport_id)
    taken = min(aboard, request.supplies)
    if request.supplies > aboard:
        answer.refusals.append(common.refusal("supplies", "supplies", f"only {aboard} aboard"))
    common.add_stock(db, cid, "", request.transport_id, -taken)
    answer.supplies = taken
    answer.accepted = not answer.refusals
    answer.reason = "; ".join(f"{r.item}: {r.reason}" for r in answer.refusals)
    common.keep_report(db, "ReportCargoLoss", request.loss_id, cid, body, answer.SerializeToString())
    return answer


def _apply_move(
    db: sqlite3.Connection, cid: str, move: pb.CargoMove, answer: pb.ReportCargoMovesResponse
) -> None:
    applied = pb.CargoMove(from_transport=move.from_transport, to_transport=move.to_transport)
    for unit_id in dict.fromkeys(move.units):
        refused = _aboard(db, cid, unit_id, move.from_transport, True)
        if refused is not None:
            answer.refusals.append(refused)
            continue
        common.place_unit(db, cid, unit_id, "", move.to_transport, False)
        applied.units.append(unit_id)
    if move.supplies:
        free = common.stock(db, cid, "", move.from_transport) - common.reserved_stock(
            db, cid, "", move.from_transport
        )
        if move.supplies > free:
            answer.refusals.append(common.refusal("supplies", "supplies", f"only {max(free, 0)} free aboard"))
        else:
            common.add_stock(db, cid, "", move.from_transport, -move.supplies)
            common.add_stock(db, cid, "", move.to_transport, move.supplies)
            applied.supplies = move.supplies
    if applied.units or applied.supplies:
        answer.applied.append(applied)


def moves(db: sqlite3.Connection, request: pb.ReportCargoMovesRequest) -> pb.ReportCargoMovesResponse:
    for i, move in enumerate(request.moves):
        if move.from_transport == move.to_transport:
            raise malformed(f"moves[{i}].to_transport", f"must differ from moves[{i}].from_transport")
    body = common.content(request)
    stored = common.stored_report(db, "ReportCargoMoves", request.move_id, body)
    if stored is not None:
        answer = pb.ReportCargoMovesResponse.FromString(stored)
        answer.duplicate = True
        return answer
    cid = request.campaign_id
    common.open_campaign(db, cid)
    answer = pb.ReportCargoMovesResponse(move_id=request.move_id)
    for move in request.moves:
        _apply_move(db, cid, move, answer)
    answer.accepted = not answer.refusals
    common.keep_report(db, "ReportCargoMoves", request.move_id, cid, body, answer.SerializeToString())
    return answer
