"""The rows of repeated calls (docs/gitm.md L11, L12, L15, L16, L21): the same
id gets the same answer, also from copies at once and across a restart; a
reused id with other content is ALREADY_EXISTS; a malformed request is
INVALID_ARGUMENT naming its field."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit import detail_rows
from pate.gitmkit.land import CITY_SUPPLIES, LOAD, NO_CITY, UNLOAD, Land
from pate.gitmkit.rows import CheckFailedError, SkippedError, bounded, expect, short
from pate.gitmkit.status_details import details_of

COPIES = 8  # concurrent copies of one call
COMPLETED = land_pb2.TRANSFER_STATE_COMPLETED


def _twice(call: Callable[[], Any], what: str) -> Any:
    first, second = call(), call()
    expect(first == second, f"{what}: two answers differ: {short(first)} / {short(second)}")
    return first


def same_answer(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("again")
    begun = _twice(lambda: land.begin(tid, LOAD, [lay.a], 1), "BeginTransfer")
    expect(begun.accepted, f"the load refused: {begun.reason}")
    expect(land.get(tid) == begun, f"GetTransfer differs from BeginTransfer: {short(land.get(tid))}")
    done = _twice(lambda: land.complete(tid), "CompleteTransfer")
    expect(done.state == COMPLETED, f"state {done.state}, expected COMPLETED")
    expect(land.free() == CITY_SUPPLIES - 1, f"{land.free()} free supplies: the load was made twice?")
    back = land.new_id("again")
    expect(_twice(lambda: land.begin(back, UNLOAD, [lay.a], 1), "BeginTransfer").accepted, "landing refused")
    _twice(lambda: land.complete(back), "CompleteTransfer")
    expect(lay.a in land.city() and land.free() == CITY_SUPPLIES, "the landing was not made once")
    return "begin, complete and GetTransfer: the same answer twice, the work done once"


def _already_exists(what: str, call: Callable[[], Any]) -> None:
    try:
        answer = call()
    except grpc.RpcError as exc:
        if isinstance(exc, grpc.Call) and exc.code() == grpc.StatusCode.ALREADY_EXISTS:
            return
        raise
    raise CheckFailedError(f"{what} with a reused id and other content answered OK: {short(answer)}")


def reused(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("reused")
    expect(land.begin(tid, LOAD, [lay.b]).accepted, f"a load of {lay.b} refused")
    _already_exists("BeginTransfer", lambda: land.begin(tid, LOAD, [lay.b], 1))
    land.complete(tid, cancelled=True)
    lid = land.new_id("reused-loss")
    land.loss(lid, lay.spare, [], 1)  # nothing aboard: the loss records nothing
    _already_exists("ReportCargoLoss", lambda: land.loss(lid, lay.spare, [], 2))
    mid = land.new_id("reused-moves")
    land.moves(mid, lay.spare, lay.ship, [], 1)  # nothing aboard: refused, recorded
    _already_exists("ReportCargoMoves", lambda: land.moves(mid, lay.spare, lay.ship, [], 2))
    rid = land.new_id("reused-sightings")
    land.sightings(rid, [], (lay.state,))
    _already_exists("ReportSightings", lambda: land.sightings(rid, [("ZZ1SL", "ZZ", "SL")], (lay.state,)))
    _already_exists("OpenCampaign", lambda: land.call("OpenCampaign", land.open_request(extra_supplies=5)))
    return "BeginTransfer, ReportCargoLoss, ReportCargoMoves, ReportSightings, OpenCampaign: ALREADY_EXISTS"


def _copies(call: Callable[[], Any], what: str) -> Any:
    with ThreadPoolExecutor(COPIES) as pool:
        answers = list(pool.map(lambda _i: _answer(call), range(COPIES)))
    expect(all(a == answers[0] for a in answers), f"{COPIES} copies of {what} got different answers")
    expect(not isinstance(answers[0], str), f"{what}: {answers[0]}")
    return answers[0]


def _answer(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except grpc.RpcError as exc:
        return f"{exc.code().name if isinstance(exc, grpc.Call) else '?'}"


def concurrent(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("copies")
    begun = _copies(lambda: land.begin(tid, LOAD, [lay.a], 2), "BeginTransfer")
    expect(begun.accepted, f"the load refused: {begun.reason}")
    done = _copies(lambda: land.complete(tid), "CompleteTransfer")
    expect(done.state == COMPLETED and land.free() == CITY_SUPPLIES - 2, f"after the copies: {short(done)}")
    back = land.new_id("copies")
    _copies(lambda: land.begin(back, UNLOAD, [lay.a], 2), "BeginTransfer (landing)")
    _copies(lambda: land.complete(back), "CompleteTransfer (landing)")
    expect(lay.a in land.city() and land.free() == CITY_SUPPLIES, "the copies did not make one landing")
    return f"{COPIES} copies of each call at once: one transfer, one answer"


def durable(land: Land) -> str:
    if land.restart is None:
        raise SkippedError("give --restart-command to check it")
    lay = land.layout
    tid = land.new_id("durable")
    begun = land.begin(tid, LOAD, [lay.b], 1)
    expect(begun.accepted, f"the load refused: {begun.reason}")
    try:
        land.restart()
    except CheckFailedError:
        land.complete(tid, cancelled=True)  # the rows after this one need the unit and supply free
        raise
    expect(land.begin(tid, LOAD, [lay.b], 1) == begun, "BeginTransfer answered otherwise after a restart")
    done = land.complete(tid)
    land.restart()
    expect(land.complete(tid) == done, "CompleteTransfer answered otherwise after a restart")
    expect(land.get(tid) == done, "GetTransfer answered otherwise after a restart")
    expect(land.move([lay.b], 1, UNLOAD).state == COMPLETED, f"{lay.b} cannot land after the restarts")
    return "begin and complete repeated across two restarts: the same answers"


def _unmapped(land: Land) -> land_pb2.OpenCampaignRequest:
    """docs/gitm.md "Opening and closing": a city GITM does not know means the two sides read
    different maps; the open is INVALID_ARGUMENT naming the entry (``units[0].city``)."""
    unit = land_pb2.Unit(id=f"{land.layout.state}95IN", state=land.layout.state, infantry=100)
    return land_pb2.OpenCampaignRequest(
        campaign_id=land.other_campaign("unmapped"),
        scenario="conformance",
        turns=1,
        units=[land_pb2.InitialUnit(unit=unit, city=NO_CITY)],
    )


def malformed(land: Land) -> str:
    """L21; of a service of edition 4 the field is read from the BadRequest's field violations
    (the whole path, ``units[0].city``), of an earlier one from the status message (its last name)."""
    lay = land.layout
    rich = detail_rows.edition(land) >= 4
    cases: list[tuple[str, str, Callable[[], Any]]] = [
        ("transfer_id", "an empty transfer_id", lambda: land.begin("", LOAD, [lay.a])),
        ("transfer_id", "a transfer_id with a space", lambda: land.begin("a b", LOAD, [lay.a])),
        ("transfer_id", "a transfer_id of 300 characters", lambda: land.begin("x" * 300, LOAD, [lay.a])),
        (
            "direction",
            "no direction",
            lambda: land.begin(land.new_id("bad"), land_pb2.DIRECTION_UNSPECIFIED, [lay.a]),
        ),
        (
            "captor",
            "a capture without captor",
            lambda: land.call(
                "ReportCargoLoss",
                land_pb2.ReportCargoLossRequest(
                    loss_id=land.new_id("bad"),
                    campaign_id=land.campaign,
                    turn=1,
                    transport_id=lay.ship,
                    fate=land_pb2.CARGO_FATE_CAPTURED,
                ),
            ),
        ),
        (
            "units[0].city",
            f"an OpenCampaign naming {NO_CITY}",
            lambda: land.call("OpenCampaign", _unmapped(land)),
        ),
    ]
    for fieldname, what, call in cases:
        try:
            answer = call()
        except grpc.RpcError as exc:
            code = exc.code() if isinstance(exc, grpc.Call) else None
            details = exc.details() if isinstance(exc, grpc.Call) else ""
            expect(code == grpc.StatusCode.INVALID_ARGUMENT, f"{what}: {code.name if code else '?'}")
            if rich:
                named = [f for f, _ in details_of(exc).fields]
                said = ", ".join(bounded(f, 40) for f in named[:3]) or "no field violation"
                expect(fieldname in named, f"{what}: the BadRequest names {said}, not {fieldname}")
            else:
                last = fieldname.rsplit(".", 1)[-1]
                expect(last in (details or ""), f"{what}: INVALID_ARGUMENT without naming {last}")
            continue
        raise CheckFailedError(f"{what} answered OK: {short(answer)}")
    where = "in its BadRequest" if rich else "in the message"
    return f"{len(cases)} malformed requests: INVALID_ARGUMENT naming the field {where}"
