"""ReportCargoLoss, ReportCargoMoves and ReportSightings (rules 2.5, 5.3; L12, L17 to L19)."""

from __future__ import annotations

from examples.gitm_land import checks
from examples.gitm_land.errors import conflict, invalid
from examples.gitm_land.land import Land, digest
from examples.gitm_land.store import ABOARD, CAPTURED, LOST, TRANSPORT
from gitm.v1 import land_pb2 as pb

_TYPE_MAX = 8


def _stored(land: Land, kind: str, field: str, rid: str, content: str) -> bytes | None:
    """The first answer to this id, or None; other content under it is ALREADY_EXISTS."""
    old = land.store.report(kind, rid)
    if old is None:
        return None
    if old[0] != content:
        raise conflict(field, rid)
    return old[1]


def _check_loss(req: pb.ReportCargoLossRequest) -> str:
    checks.opaque_id("loss_id", req.loss_id)
    checks.opaque_id("campaign_id", req.campaign_id)
    checks.turn("turn", req.turn)
    checks.name_id("transport_id", req.transport_id)
    if req.fate not in (pb.CARGO_FATE_LOST, pb.CARGO_FATE_CAPTURED):
        raise invalid("fate", "must be CARGO_FATE_LOST or CARGO_FATE_CAPTURED")
    if req.fate == pb.CARGO_FATE_CAPTURED:
        checks.state("captor", req.captor)
    else:
        checks.state("captor", req.captor, optional=True)
    checks.unit_ids("units", req.units)
    checks.count("supplies", req.supplies, checks.MAX_SUPPLIES)
    canonical = pb.ReportCargoLossRequest()
    canonical.CopyFrom(req)
    canonical.units[:] = sorted(req.units)
    return digest(canonical)


def cargo_loss(land: Land, req: pb.ReportCargoLossRequest) -> pb.ReportCargoLossResponse:
    content = _check_loss(req)
    first = _stored(land, "loss", "loss_id", req.loss_id, content)
    if first is not None:
        answer = pb.ReportCargoLossResponse.FromString(first)
        answer.duplicate = True
        return answer
    land.live_campaign(req.campaign_id)
    store, cid = land.store, req.campaign_id
    captured = req.fate == pb.CARGO_FATE_CAPTURED
    answer = pb.ReportCargoLossResponse(loss_id=req.loss_id)
    for uid in dict.fromkeys(req.units):  # a unit named twice is lost once
        unit = store.unit(cid, uid)
        if unit is None or unit.place != ABOARD or unit.location != req.transport_id:
            answer.refusals.add(item=uid, reason=f"not aboard {req.transport_id}")
            continue
        if captured:
            store.move_unit(cid, uid, CAPTURED, req.captor, False)
        else:
            store.move_unit(cid, uid, LOST, req.transport_id, False)
        answer.units.append(uid)
    aboard = store.stock(cid, TRANSPORT, req.transport_id)
    taken = min(req.supplies, aboard)
    if req.supplies > aboard:
        answer.refusals.add(item="supplies", reason=f"only {aboard} aboard {req.transport_id}")
    store.add_stock(cid, TRANSPORT, req.transport_id, -taken)
    if captured:
        store.add_stock(cid, CAPTURED, req.captor, taken)
    else:
        store.add_stock(cid, LOST, req.transport_id, taken)
    answer.supplies = taken
    answer.accepted = not answer.refusals
    answer.reason = "; ".join(f"{r.item}: {r.reason}" for r in answer.refusals)
    store.save_report("loss", req.loss_id, cid, content, answer.SerializeToString(deterministic=True))
    return answer


def _check_moves(req: pb.ReportCargoMovesRequest) -> str:
    checks.opaque_id("move_id", req.move_id)
    checks.opaque_id("campaign_id", req.campaign_id)
    checks.turn("turn", req.turn)
    checks.items("moves", req.moves)
    for i, move in enumerate(req.moves):
        checks.name_id(f"moves[{i}].from_transport", move.from_transport)
        checks.name_id(f"moves[{i}].to_transport", move.to_transport)
        if move.from_transport == move.to_transport:
            raise invalid(f"moves[{i}].to_transport", "is the same as from_transport")
        checks.unit_ids(f"moves[{i}].units", move.units)
        checks.count(f"moves[{i}].supplies", move.supplies, checks.MAX_SUPPLIES)
    return digest(req)


def cargo_moves(land: Land, req: pb.ReportCargoMovesRequest) -> pb.ReportCargoMovesResponse:
    content = _check_moves(req)
    first = _stored(land, "moves", "move_id", req.move_id, content)
    if first is not None:
        answer = pb.ReportCargoMovesResponse.FromString(first)
        answer.duplicate = True
        return answer
    land.live_campaign(req.campaign_id)
    answer = pb.ReportCargoMovesResponse(move_id=req.move_id)
    for move in req.moves:  # in order: a later move may carry on an earlier one's cargo
        applied = _apply_move(land, req.campaign_id, move, answer.refusals)
        if applied.units or applied.supplies:
            answer.applied.append(applied)
    answer.accepted = not answer.refusals
    land.store.save_report(
        "moves", req.move_id, req.campaign_id, content, answer.SerializeToString(deterministic=True)
    )
    return answer


def _apply_move(land: Land, cid: str, move: pb.CargoMove, refusals: list[pb.Refusal]) -> pb.CargoMove:
    store, src, dst = land.store, move.from_transport, move.to_transport
    held = land.reserved_units(cid)
    applied = pb.CargoMove(from_transport=src, to_transport=dst)
    for uid in move.units:
        unit = store.unit(cid, uid)
        if unit is None or unit.place != ABOARD or unit.location != src:
            refusals.append(pb.Refusal(item=uid, reason=f"not aboard {src}"))
        elif uid in held:
            refusals.append(pb.Refusal(item=uid, reason="reserved by an open transfer"))
        else:
            store.move_unit(cid, uid, ABOARD, dst, False)
            applied.units.append(uid)
    free = store.stock(cid, TRANSPORT, src) - land.reserved_aboard_supplies(cid, src)
    moved = move.supplies if move.supplies <= free else 0  # whole or not at all (docs/gitm.md L18)
    if move.supplies > free:
        refusals.append(pb.Refusal(item="supplies", reason=f"only {max(free, 0)} free aboard {src}"))
    store.add_stock(cid, TRANSPORT, src, -moved)
    store.add_stock(cid, TRANSPORT, dst, moved)  # a new group from a divide starts here
    applied.supplies = moved
    return applied


def _check_sightings(req: pb.ReportSightingsRequest) -> str:
    checks.opaque_id("report_id", req.report_id)
    checks.opaque_id("campaign_id", req.campaign_id)
    checks.turn("turn", req.turn)
    checks.items("sightings", req.sightings)
    for i, seen in enumerate(req.sightings):
        checks.city(f"sightings[{i}].port", seen.port)
        checks.state(f"sightings[{i}].for_state", seen.for_state)
        checks.items(f"sightings[{i}].ships", seen.ships)
        for j, ship in enumerate(seen.ships):
            field = f"sightings[{i}].ships[{j}]"
            checks.name_id(f"{field}.id", ship.id)
            checks.state(f"{field}.state", ship.state)
            if len(ship.type) > _TYPE_MAX or not (ship.type.isalnum() or not ship.type):
                raise invalid(f"{field}.type", f"must be at most {_TYPE_MAX} letters or digits")
    return digest(req)


def sightings(land: Land, req: pb.ReportSightingsRequest) -> pb.ReportSightingsResponse:
    content = _check_sightings(req)
    first = _stored(land, "sightings", "report_id", req.report_id, content)
    if first is not None:
        answer = pb.ReportSightingsResponse.FromString(first)
        answer.duplicate = True
        return answer
    land.live_campaign(req.campaign_id)
    for seq, seen in enumerate(req.sightings):
        land.store.save_sighting(req.report_id, seq, seen)
    answer = pb.ReportSightingsResponse(report_id=req.report_id, sightings=len(req.sightings))
    land.store.save_report(
        "sightings",
        req.report_id,
        req.campaign_id,
        content,
        answer.SerializeToString(deterministic=True),
    )
    return answer
