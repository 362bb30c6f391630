"""The cost of checking a gitm.v1 request against land.proto's ``buf.validate`` rules
(protovalidate, ``services/gitm_reference/checks.py`` ``check_request``) against the
hand-written checks those rules replaced (kept below only as the baseline; docs/gitm.md
"Limits", docs/operations.md "GITM request limits")."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gitm.v1 import land_pb2
from services.gitm_reference.checks import BadRequestError, check_count, check_id, check_opaque, check_request


def _length(field: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise BadRequestError(f"{field} is longer than {limit} characters")


def _sightings_by_hand(r: land_pb2.ReportSightingsRequest) -> None:
    check_opaque("report_id", r.report_id)
    check_opaque("campaign_id", r.campaign_id)
    check_count("sightings", len(r.sightings), 1_000)
    for s in r.sightings:
        check_id("sightings[].port", s.port)
        _length("sightings[].port", s.port, 64)
        check_id("sightings[].for_state", s.for_state)
        _length("sightings[].for_state", s.for_state, 2)
        check_count("sightings[].ships", len(s.ships), 100)
        for x in s.ships:
            check_id("sightings[].ships[].id", x.id)
            _length("sightings[].ships[].id", x.id, 24)
            _length("sightings[].ships[].state", x.state, 2)
            _length("sightings[].ships[].type", x.type, 2)


def _begin_by_hand(r: land_pb2.BeginTransferRequest) -> None:
    check_opaque("transfer_id", r.transfer_id)
    check_opaque("campaign_id", r.campaign_id)
    check_id("port", r.port)
    check_id("transport_id", r.transport_id)
    if r.direction not in (land_pb2.DIRECTION_LOAD, land_pb2.DIRECTION_UNLOAD):
        raise BadRequestError("direction must be DIRECTION_LOAD or DIRECTION_UNLOAD")
    check_count("units", len(r.units), 500)
    check_count("supplies", r.supplies, 1_000_000)
    for i, u in enumerate(r.units):
        check_id(f"units[{i}]", u)
    if r.hold_id:
        check_opaque("hold_id", r.hold_id)


def _report(entries: int, ships: int) -> land_pb2.ReportSightingsRequest:
    seen = [land_pb2.SightedShip(id=f"FR{i}SL", state="FR", type="SL") for i in range(ships)]
    sightings = [land_pb2.ShoreSighting(port="La Coruna", for_state="BR", ships=seen) for _ in range(entries)]
    return land_pb2.ReportSightingsRequest(
        report_id="grand-1:12:sightings", campaign_id="grand-1", turn=12, sightings=sightings
    )


BEGIN = land_pb2.BeginTransferRequest(
    transfer_id="grand-1:12:FR3TR:1",
    campaign_id="grand-1",
    turn=12,
    port="Boulogne",
    transport_id="FR3TR",
    direction=land_pb2.DIRECTION_LOAD,
    units=["FR1IN", "FR2IN", "FR3IN"],
    supplies=4,
    state="FR",
    hold_id="hold-0123456789abcdef0123456789abcdef",
)


def _best_us(fn: Callable[[Any], None], msg: Any, n: int, repeat: int = 3) -> float:
    fn(msg)  # the validator compiles a message's rules once
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n):
            fn(msg)
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


def run() -> list[tuple[str, str]]:
    cases = [
        ("ReportSightings at its limits (1,000 entries x 100 ships)", _report(1_000, 100), 3),
        ("ReportSightings of a grand1805 turn (20 entries x 6 ships)", _report(20, 6), 200),
        ("BeginTransfer of 3 units", BEGIN, 3_000),
    ]
    rows = []
    for label, msg, n in cases:
        by_hand = _begin_by_hand if isinstance(msg, land_pb2.BeginTransferRequest) else _sightings_by_hand
        rules, hand = _best_us(check_request, msg, n), _best_us(by_hand, msg, n)
        rows.append((label, f"rules {rules:,.1f} us, by hand {hand:,.1f} us ({rules / hand:.2f}x)"))
    return rows
