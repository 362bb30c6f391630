"""The rows of structured errors (docs/gitm.md L29-L31, edition 4): every error carries its
``google.rpc.Status`` (a ``BadRequest`` for a malformed request, an ``ErrorInfo`` otherwise), the
``ErrorInfo.reason`` is the one the table gives for the case, and every refusal carries the code of
its kind.  They read fields, never the text of a message; a service of an earlier edition is
skipped (details are optional before edition 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit.land import CITY_SUPPLIES, LOAD, NO_CITY, UNLOAD, Land
from pate.gitmkit.rows import CheckFailedError, NeedsError, SkippedError, bounded, expect, short
from pate.gitmkit.status_details import DOMAIN, REASONS, REFUSAL_CODES, ErrorDetails, details_of

C = grpc.StatusCode


def edition(land: Land) -> int:
    """The service's edition; a GetCapabilities that fails is L1's failure, named as such."""
    try:
        return land.edition()
    except grpc.RpcError as exc:
        code = exc.code().name if isinstance(exc, grpc.Call) else type(exc).__name__
        raise NeedsError("L1", f"GetCapabilities answered {code}") from None
    except Exception as exc:  # an answer without an edition: L1 says so too
        raise NeedsError("L1", f"GetCapabilities gave no edition ({type(exc).__name__})") from None


def _edition_4(land: Land) -> None:
    found = edition(land)
    if found < 4:
        raise SkippedError(f"edition {found}: error details and refusal codes are optional before edition 4")


def failure(what: str, call: Callable[[], Any]) -> tuple[grpc.StatusCode, ErrorDetails]:
    """The status code and details ``call`` fails with; an answer instead fails the row."""
    try:
        answer = call()
    except grpc.RpcError as exc:
        code = exc.code() if isinstance(exc, grpc.Call) else C.UNKNOWN
        return code, details_of(exc)
    raise CheckFailedError(f"{what} answered OK: {short(answer)}")


def _closed_campaign(land: Land) -> str:
    """A campaign of the suite's, opened and closed at once (new work in it: FAILED_PRECONDITION)."""
    request = land.open_request()
    request.campaign_id = land.new_id("closed-campaign")
    land.call("OpenCampaign", request)
    land.call("CloseCampaign", land_pb2.CloseCampaignRequest(campaign_id=request.campaign_id, last_turn=1))
    return request.campaign_id


def _cases(land: Land) -> list[tuple[str, grpc.StatusCode, str, Callable[[], Any]]]:
    """(what, the code, the ErrorInfo.reason the table gives, the call)."""
    lay = land.layout
    rid = land.new_id("reused-report")
    land.sightings(rid, [], (lay.state,))
    closed = _closed_campaign(land)

    def closed_begin() -> Any:
        request = land_pb2.BeginTransferRequest(
            transfer_id=land.new_id("closed"),
            campaign_id=closed,
            turn=1,
            port=land.port,
            transport_id=lay.ship,
            direction=LOAD,
            units=[lay.a],
            state=lay.state,
        )
        return land.call("BeginTransfer", request)

    never = land.other_campaign("never-opened")
    return [
        (
            "an empty transfer_id",
            C.INVALID_ARGUMENT,
            "MALFORMED_REQUEST",
            lambda: land.begin("", LOAD, [lay.a]),
        ),
        (
            "GetTransfer of a transfer never begun",
            C.NOT_FOUND,
            "TRANSFER_NOT_FOUND",
            lambda: land.get(rid + "x"),
        ),
        (f"UnitsNear of {NO_CITY}", C.NOT_FOUND, "CITY_NOT_ON_MAP", lambda: land.near(NO_CITY)),
        (
            "UnitsNear in a campaign never opened",
            C.NOT_FOUND,
            "CAMPAIGN_NOT_OPENED",
            lambda: land.near("", never),
        ),
        (
            f"UnitsNear of {NO_CITY} in a campaign never opened (the campaign first)",
            C.NOT_FOUND,
            "CAMPAIGN_NOT_OPENED",
            lambda: land.near(NO_CITY, never),
        ),
        (
            "a report id reused with other content",
            C.ALREADY_EXISTS,
            "ID_REUSED",
            lambda: land.sightings(rid, [("FR1FL", "FR", "FL")], (lay.state,)),
        ),
        ("a load in a closed campaign", C.FAILED_PRECONDITION, "CAMPAIGN_CLOSED", closed_begin),
    ]


def error_details(land: Land) -> str:
    """L29: each error the suite provokes carries a google.rpc.Status of its own code, with a
    BadRequest naming a field (INVALID_ARGUMENT) or an ErrorInfo of domain gitm.pate."""
    _edition_4(land)
    cases = _cases(land)
    for what, code, _reason, call in cases:
        got, details = failure(what, call)
        expect(got == code, f"{what}: {got.name}, not {code.name}")
        expect(
            details.present,
            f"{what}: {code.name} without google.rpc.Status details (grpc-status-details-bin)",
        )
        expect(details.code == code.value[0], f"{what}: the details' code {details.code} is not {code.name}")
        if code == C.INVALID_ARGUMENT:
            expect(details.fields, f"{what}: INVALID_ARGUMENT without a BadRequest field violation")
        else:
            expect(details.reason, f"{what}: {code.name} without an ErrorInfo")
            expect(details.domain == DOMAIN, f"{what}: ErrorInfo domain {bounded(details.domain, 40)!r}")
    return f"{len(cases)} errors, each with its google.rpc.Status details"


def error_reasons(land: Land) -> str:
    """L30: ErrorInfo.reason is the table's for the case, and goes with the status code."""
    _edition_4(land)
    cases = _cases(land)
    for what, code, reason, call in cases:
        got, details = failure(what, call)
        expect(got == code, f"{what}: {got.name}, not {code.name}")
        if code == C.INVALID_ARGUMENT and not details.reason:
            continue  # a BadRequest is what a malformed request needs; its ErrorInfo is optional
        expect(details.reason, f"{what}: {got.name} without an ErrorInfo reason")
        said = bounded(details.reason, 40)
        expect(details.reason in REASONS, f"{what}: reason {said!r} is not one of the table's")
        expect(
            REASONS[details.reason][0] == got, f"{what}: reason {said} goes with another code than {got.name}"
        )
        expect(details.reason == reason, f"{what}: reason {said}, not {reason}")
    return f"{len(cases)} errors, each with the table's reason"


def _coded(
    land: Land, what: str, item: str, code: str, begin: tuple[Any, list[str], int, dict[str, Any]]
) -> None:
    direction, units, supplies, kw = begin
    tid = land.new_id("coded")
    status = land.begin(tid, direction, units, supplies, **kw)
    if status.accepted:
        land.complete(tid, cancelled=True)  # undo what a broken service took
        raise CheckFailedError(f"{what}: accepted, a land game refuses it (L4 says more)")
    named = [r for r in status.refusals if r.item == item]
    expect(named, f"{what}: no refusal of item {item!r} (L4 says more): {short(status)}")
    for r in status.refusals:
        expect(r.code in REFUSAL_CODES, f"{what}: refusal of {r.item!r} with code {bounded(r.code, 40)!r}")
    expect(named[0].code == code, f"{what}: code {named[0].code!r}, not {code!r}")


def refusal_codes(land: Land) -> str:
    """L31: each kind of refusal of L4-L6 carries its code (docs/gitm.md "Refusal codes")."""
    _edition_4(land)
    lay = land.layout

    def begin(direction: Any, units: list[str], supplies: int = 0, **kw: Any) -> Any:
        return (direction, units, supplies, kw)

    cases: list[tuple[str, str, str, Any]] = [
        ("a unit of another state", lay.foreign, "foreign", begin(LOAD, [lay.foreign])),
        ("not in that city", lay.a, "elsewhere", begin(LOAD, [lay.a], port=NO_CITY)),
        ("only in the strategic square", lay.near, "elsewhere", begin(LOAD, [lay.near])),
        ("already embarked", lay.aboard, "embarked", begin(LOAD, [lay.aboard])),
        ("no such unit", "ZZ99IN", "unknown", begin(LOAD, ["ZZ99IN"])),
        ("a landing of a unit not aboard", lay.a, "elsewhere", begin(UNLOAD, [lay.a])),
        ("a unit named twice", "units", "twice", begin(LOAD, [lay.a, lay.a])),
        (
            f"a load of {CITY_SUPPLIES + 1} supplies",
            "supplies",
            "supplies",
            begin(LOAD, [], CITY_SUPPLIES + 1),
        ),
    ]
    for what, item, code, call in cases:
        _coded(land, what, item, code, call)
    held = land.new_id("holds")
    expect(land.begin(held, LOAD, [lay.a]).accepted, f"a load of {lay.a} refused")
    try:
        _coded(
            land,
            "reserved by another open transfer",
            lay.a,
            "reserved",
            begin(LOAD, [lay.a], transport=lay.spare),
        )
    finally:
        land.complete(held, cancelled=True)
    return f"{len(cases) + 1} refusals, each with the code of its kind"
