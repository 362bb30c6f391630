"""ReportSightings, ReportCargoLoss, ReportCargoMoves: idempotent by id (L11, L12, L17-L19)."""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message

from examples.gitm_land4 import checks, errors
from examples.gitm_land4.common import content, joined, open_for_work, refusal
from examples.gitm_land4.store import TRANSPORT, Store
from gitm.v1 import land_pb2 as pb


def _once(
    store: Store,
    kind: str,
    rid: str,
    cid: str,
    body: bytes,
    answer_type: type[Message],
    work: Callable[[], Message],
) -> Message:
    """The precedence of "Answers": other content, then the stored answer, then the campaign."""
    with store.transaction():
        known = store.report(kind, rid)
        if known is not None:
            _, first, stored = known
            if first != body:
                raise errors.id_reused(kind, rid)
            answer = answer_type.FromString(stored)
            answer.duplicate = True  # type: ignore[attr-defined]
            return answer
        open_for_work(store, cid)
        answer = work()
        store.put_report(kind, rid, cid, body, answer.SerializeToString())
        return answer


def sightings(store: Store, req: pb.ReportSightingsRequest) -> pb.ReportSightingsResponse:
    checks.sightings(req)
    # next_close_unix is a forecast, not the report's content (A1).
    body = content(req, "next_close_unix")

    def work() -> pb.ReportSightingsResponse:
        # Entries of one port and state are one list (a port of more than 100 ships).
        kept = {(s.port, s.for_state) for s in req.sightings}
        store.delivered(req.campaign_id, req.turn)
        return pb.ReportSightingsResponse(report_id=req.report_id, sightings=len(kept))

    answer = _once(
        store, "ReportSightings", req.report_id, req.campaign_id, body,
        pb.ReportSightingsResponse, work,
    )  # fmt: skip
    assert isinstance(answer, pb.ReportSightingsResponse)
    return answer


def loss(store: Store, req: pb.ReportCargoLossRequest) -> pb.ReportCargoLossResponse:
    checks.loss(req)

    def work() -> pb.ReportCargoLossResponse:
        return _lose(store, req)

    answer = _once(
        store, "ReportCargoLoss", req.loss_id, req.campaign_id, content(req),
        pb.ReportCargoLossResponse, work,
    )  # fmt: skip
    assert isinstance(answer, pb.ReportCargoLossResponse)
    return answer


def _lose(store: Store, req: pb.ReportCargoLossRequest) -> pb.ReportCargoLossResponse:
    """What is aboard is lost or taken; what is not aboard is left and refused (L19)."""
    cid, transport = req.campaign_id, req.transport_id
    captured = req.fate == pb.CARGO_FATE_CAPTURED
    answer = pb.ReportCargoLossResponse(loss_id=req.loss_id)
    for uid in dict.fromkeys(req.units):  # a unit named twice is lost once
        row = store.unit(cid, uid)
        if row is None:
            answer.refusals.append(refusal(uid, "unknown", "no such unit"))
        elif not row.standing():
            answer.refusals.append(refusal(uid, "unknown", "already lost or captured"))
        elif row.transport != transport:
            answer.refusals.append(refusal(uid, "elsewhere", f"not aboard {transport}"))
        else:
            row.transport, row.city, row.tactical = "", "", False
            row.fate = "captured" if captured else "lost"
            row.captor = req.captor if captured else ""
            store.put_unit(row)
            answer.units.append(uid)
    aboard = store.stock(cid, TRANSPORT, transport)
    answer.supplies = min(aboard, req.supplies)
    if answer.supplies:
        store.add_stock(cid, TRANSPORT, transport, -answer.supplies)
    if req.supplies > aboard:
        answer.refusals.append(refusal("supplies", "supplies", f"only {aboard} aboard"))
    answer.accepted = not answer.refusals
    answer.reason = joined(list(answer.refusals))
    return answer


def moves(store: Store, req: pb.ReportCargoMovesRequest) -> pb.ReportCargoMovesResponse:
    checks.moves(req)

    def work() -> pb.ReportCargoMovesResponse:
        answer = pb.ReportCargoMovesResponse(move_id=req.move_id)
        for move in req.moves:
            _move(store, req.campaign_id, move, answer)
        answer.accepted = not answer.refusals
        return answer

    answer = _once(
        store, "ReportCargoMoves", req.move_id, req.campaign_id, content(req),
        pb.ReportCargoMovesResponse, work,
    )  # fmt: skip
    assert isinstance(answer, pb.ReportCargoMovesResponse)
    return answer


def _move(store: Store, cid: str, move: pb.CargoMove, answer: pb.ReportCargoMovesResponse) -> None:
    """One move on its own, in order: what is free aboard goes, the rest is refused (L18)."""
    reserved_units, reserved_supplies = store.reservations(cid)
    source, target = move.from_transport, move.to_transport
    done = pb.CargoMove(from_transport=source, to_transport=target)
    for uid in dict.fromkeys(move.units):
        row = store.unit(cid, uid)
        if row is None:
            answer.refusals.append(refusal(uid, "unknown", "no such unit"))
        elif not row.standing():
            answer.refusals.append(refusal(uid, "unknown", "lost or captured"))
        elif row.transport != source:
            answer.refusals.append(refusal(uid, "elsewhere", f"not aboard {source}"))
        elif uid in reserved_units:
            answer.refusals.append(refusal(uid, "reserved", "already being moved by another transfer"))
        else:
            row.transport = target
            store.put_unit(row)
            done.units.append(uid)
    if move.supplies:
        free = store.stock(cid, TRANSPORT, source) - reserved_supplies.get((TRANSPORT, source), 0)
        if move.supplies > free:
            answer.refusals.append(
                refusal("supplies", "supplies", f"only {max(free, 0)} free aboard {source}")
            )
        else:
            store.add_stock(cid, TRANSPORT, source, -move.supplies)
            store.add_stock(cid, TRANSPORT, target, move.supplies)
            done.supplies = move.supplies
    if done.units or done.supplies:
        answer.applied.append(done)
