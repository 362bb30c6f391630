"""The rows of a campaign's life and of the service itself (docs/gitm.md
L1-L3, L22-L24): what it serves, the campaign opened with its positions,
what UnitsNear answers, the close, the caller token and gRPC health."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
from grpc_health.v1 import health_pb2

from gitm.v1 import land_pb2
from pate.gitmkit.land import CITY_SUPPLIES, LOAD, NO_CITY, Land
from pate.gitmkit.rows import CheckFailedError, SkippedError, bounded, expect, short

# the calls every edition-2 service lists; later editions' calls are checked by their own rows
EDITION_2 = (
    "BeginTransfer", "CompleteTransfer", "UnitsNear", "GetTransfer", "ReportSightings",
    "ReportCargoLoss", "ReportCargoMoves", "GetCapabilities", "OpenCampaign", "CloseCampaign",
)  # fmt: skip
_EMPTY = {m.name: m.input_type for m in land_pb2.DESCRIPTOR.services_by_name["LandBridge"].methods}


def status_of(call: Callable[[], object]) -> grpc.StatusCode:
    try:
        call()
    except grpc.RpcError as exc:
        return exc.code() if isinstance(exc, grpc.Call) else grpc.StatusCode.UNKNOWN
    return grpc.StatusCode.OK


def _calling(land: Land, method: str, request: object, token: str | None = None) -> Callable[[], object]:
    return lambda: land.call(method, request, token=token)


def capabilities(land: Land) -> str:
    from google.protobuf import message_factory

    caps = land.call("GetCapabilities", land_pb2.GetCapabilitiesRequest())
    expect(caps.edition >= 2, f"edition {caps.edition}: this suite checks edition 2")
    missing = sorted(set(EDITION_2) - set(caps.calls))
    expect(not missing, f"calls not listed: {', '.join(missing)}")
    for name in caps.calls:
        if name not in _EMPTY:
            continue
        empty = message_factory.GetMessageClass(_EMPTY[name])()
        code = status_of(_calling(land, name, empty))
        expect(code != grpc.StatusCode.UNIMPLEMENTED, f"{name} is listed but answers UNIMPLEMENTED")
    return (
        f"edition {caps.edition}, {len(caps.calls)} calls, each served ({caps.implementation or 'no name'})"
    )


def _answered(what: str, call: Callable[[], object]) -> Any:
    """``call``'s answer; a status instead says which call it was (the rows after L2 quote it)."""
    try:
        return call()
    except grpc.RpcError as exc:
        code = exc.code().name if isinstance(exc, grpc.Call) else "?"
        details = exc.details() if isinstance(exc, grpc.Call) else str(exc)
        raise CheckFailedError(f"{what} answered {code}: {bounded(details or '')}") from None


def open_campaign(land: Land) -> str:
    request = land.open_request()
    first = _answered("the OpenCampaign", lambda: land.call("OpenCampaign", request))
    land.opened = True
    expect(not first.duplicate, f"the first OpenCampaign answered duplicate true: {short(first)}")
    again = _answered("the repeated OpenCampaign", lambda: land.call("OpenCampaign", request))
    expect(again.duplicate, f"the repeated OpenCampaign answered duplicate false: {short(again)}")
    near = land.near()
    lay = land.layout
    city = {u.id for u in near.units if u.tactical_square}
    expect(city == lay.city_units(), f"the city holds {sorted(city)}, opened with {sorted(lay.city_units())}")
    expect(
        near.supplies == CITY_SUPPLIES,
        f"the city holds {near.supplies} supplies, opened with {CITY_SUPPLIES}",
    )
    return f"{len(request.units)} units and {len(request.stocks)} stocks held; the repeat a duplicate"


def units_near(land: Land) -> str:
    lay = land.layout
    near = land.near()
    by_id = {u.id: u for u in near.units}
    expect(lay.near in by_id, f"{lay.near}, in the strategic square, is not reported")
    expect(not by_id[lay.near].tactical_square, f"{lay.near} is reported in the city itself")
    expect(lay.aboard not in by_id, f"{lay.aboard}, aboard {lay.carrier}, is reported ashore")
    expect(by_id.get(lay.a) and by_id[lay.a].infantry == 900, f"{lay.a}'s size: {short(by_id.get(lay.a))}")
    expect(near.reserved_supplies == 0, f"{near.reserved_supplies} supplies reserved before any transfer")
    code = status_of(lambda: land.near(NO_CITY))
    expect(code == grpc.StatusCode.NOT_FOUND, f"UnitsNear of an unknown city answered {code.name}")
    # docs/gitm.md "Opening and closing": PATE then counts GITM as not answered and keeps its own land
    unopened = land.other_campaign("never-opened")
    code = status_of(lambda: land.near(campaign=unopened))
    expect(
        code == grpc.StatusCode.NOT_FOUND,
        f"UnitsNear of campaign {unopened}, never opened, answered {code.name}, not NOT_FOUND",
    )
    where = f"{lay.near} in the strategic square"
    return (
        f"{len(near.units)} units ({where}), {near.supplies} supplies; "
        "unknown city and campaign never opened NOT_FOUND"
    )


def port_holders(land: Land) -> str:
    """Edition 3: the suite's city is held by the state the open named, occupied by its units
    (two of them stand in the city); asked twice, the same answer (a question changes nothing)."""
    caps = land.call("GetCapabilities", land_pb2.GetCapabilitiesRequest())
    if "PortHolders" not in caps.calls:
        raise SkippedError(f"edition {caps.edition}: PortHolders is not listed (edition 3)")
    request = land_pb2.PortHoldersRequest(campaign_id=land.campaign, turn=1)
    first = land.call("PortHolders", request)
    held = {h.port: h for h in first.holders}
    mine = held.get(land.port)
    state = land.layout.state
    expect(mine is not None, f"{land.port}, whose holder the open gave, is not answered: {short(first)}")
    assert mine is not None
    expect(mine.state == state, f"{land.port} held by {mine.state or 'nobody'}, the open said {state}")
    expect(mine.occupied, f"{land.port} not occupied, though {land.layout.a} of {state} stands in it")
    again = land.call("PortHolders", request)
    expect(again == first, f"asked again, PortHolders answered otherwise: {short(again)}")
    return f"{land.port} held by {state}, occupied; {len(first.holders)} cities answered"


def close_campaign(land: Land) -> str:
    tid = land.new_id("left-open")
    begun = land.begin(tid, LOAD, [land.layout.b])
    expect(begun.accepted, f"a load before the close refused: {begun.reason}")
    request = land_pb2.CloseCampaignRequest(campaign_id=land.campaign, last_turn=2)
    first = land.call("CloseCampaign", request)
    expect(first.cancelled_transfers == 1 and not first.duplicate, f"the close: {short(first)}")
    again = land.call("CloseCampaign", request)
    expect(again.duplicate, f"the repeated close: {short(again)}")
    expect(land.get(tid).state == land_pb2.TRANSFER_STATE_CANCELLED, "the open transfer was not cancelled")
    late = land.new_id("after-close")
    code = status_of(lambda: land.begin(late, LOAD, [land.layout.a]))
    expect(code == grpc.StatusCode.FAILED_PRECONDITION, f"a load after the close answered {code.name}")
    return "1 open transfer cancelled; the repeat a duplicate; new work FAILED_PRECONDITION"


def caller_token(land: Land) -> str:
    if not land.token:
        raise SkippedError("give --token (PATE's caller token) to check it")
    request = land_pb2.GetCapabilitiesRequest()
    for given, what in (("", "no token"), ("wrong-" + land.token[:8], "a wrong token")):
        code = status_of(_calling(land, "GetCapabilities", request, given))
        expect(code == grpc.StatusCode.UNAUTHENTICATED, f"a call with {what} answered {code.name}")
    return "no token and a wrong token: UNAUTHENTICATED"


def health(land: Land) -> str:
    if land.health is None:
        raise SkippedError("no health stub")
    for service in ("", "gitm.v1.LandBridge"):
        try:
            answer = land.health.Check(health_pb2.HealthCheckRequest(service=service), timeout=land.timeout)
        except grpc.RpcError as exc:
            code = exc.code().name if isinstance(exc, grpc.Call) else "?"
            raise CheckFailedError(f"grpc.health.v1 Check({service!r}): {code}") from None
        expect(answer.status == health_pb2.HealthCheckResponse.SERVING, f"{service!r}: {answer.status}")
    return "SERVING for '' and gitm.v1.LandBridge"
