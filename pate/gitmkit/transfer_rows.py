"""The rows of one transfer's life (docs/gitm.md L4-L10, L13, L14): what a
land game refuses, whole; what a begun transfer reserves; what a completion
moves and a cancellation frees; that a completion is final; NOT_FOUND."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit.land import CITY_SUPPLIES, LOAD, NO_CITY, UNLOAD, Land
from pate.gitmkit.rows import CheckFailedError, bounded, expect, short

BEGUN = land_pb2.TRANSFER_STATE_BEGUN
COMPLETED = land_pb2.TRANSFER_STATE_COMPLETED
CANCELLED = land_pb2.TRANSFER_STATE_CANCELLED
REFUSING = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND}


def refused(land: Land, what: str, tid: str, item: str | tuple[str, ...], call: Callable[[], Any]) -> str:
    """``call`` (a BeginTransfer of ``tid``) is refused with a reason naming ``item`` (one of)."""
    status = refusal(land, what, tid, item, call)
    return status if isinstance(status, str) else f"{what}: {_named(status, item)[0].reason}"


def refusal(land: Land, what: str, tid: str, item: str | tuple[str, ...], call: Callable[[], Any]) -> Any:
    """The refusal of ``call``, with a refusal naming ``item``; a status code instead (which a
    refusal may be answered with) as its name."""
    try:
        status = call()
    except grpc.RpcError as exc:
        if isinstance(exc, grpc.Call) and exc.code() in REFUSING and exc.details():
            return f"{what}: {exc.code().name}"
        raise
    if status.accepted:
        land.complete(tid, cancelled=True)  # undo what a broken service took
        raise CheckFailedError(f"{what}: accepted, a land game refuses it")
    named = _named(status, item)
    expect(status.reason and named, f"{what}: refused without a refusal of item {item!r}: {short(status)}")
    return status


def _named(status: Any, item: str | tuple[str, ...]) -> list[Any]:
    items = (item,) if isinstance(item, str) else item
    return [r for r in status.refusals if r.item in items]


def _begin_with(land: Land, tid: str, kw: dict[str, Any]) -> Callable[[], Any]:
    return lambda: land.begin(tid, LOAD, **kw)


def unit_refusals(land: Land) -> str:
    lay = land.layout
    out = []
    for what, item, kw in (
        ("a unit of another state", lay.foreign, {"units": [lay.foreign]}),
        ("not in that city", lay.a, {"units": [lay.a], "port": NO_CITY}),
        ("only in the strategic square", lay.near, {"units": [lay.near]}),
        ("already embarked", lay.aboard, {"units": [lay.aboard]}),
        ("no such unit", "ZZ99IN", {"units": ["ZZ99IN"]}),
    ):
        tid = land.new_id("refusal")
        out.append(refused(land, what, tid, item, _begin_with(land, tid, kw)))
    tid = land.new_id("refusal")
    out.append(refused(land, "not aboard", tid, lay.a, lambda: land.begin(tid, UNLOAD, [lay.a])))
    # docs/gitm.md "Answers": item ``units`` for a unit named twice (the unit's own id is taken too)
    tid = land.new_id("refusal")
    twice = lambda: land.begin(tid, LOAD, [lay.a, lay.a])  # noqa: E731
    out.append(refused(land, "a unit named twice", tid, ("units", lay.a), twice))
    return "; ".join(out[:3]) + f" (and {len(out) - 3} more)"


def reserved_elsewhere(land: Land) -> str:
    lay = land.layout
    first = land.new_id("holds")
    expect(land.begin(first, LOAD, [lay.a]).accepted, f"a load of {lay.a} refused")
    tid = land.new_id("also")
    try:
        status = refusal(
            land,
            "reserved by another open transfer",
            tid,
            lay.a,
            lambda: land.begin(tid, LOAD, [lay.a], transport=lay.spare),
        )
    finally:
        land.complete(first, cancelled=True)
    if isinstance(status, str):
        return status
    # docs/gitm.md "Reasons reach players": the other transfer's id holds another state's transport
    told = [status.reason, *(r.reason for r in status.refusals)]
    for secret in (first, lay.ship):
        leak = next((why for why in told if secret in why), None)
        expect(leak is None, f"the refusal names the other transfer ({secret}): {bounded(leak or '')}")
    return f"reserved by another open transfer: {_named(status, lay.a)[0].reason}"


def supply_refusals(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("too-many")
    beyond = refused(
        land,
        f"a load of {CITY_SUPPLIES + 1}",
        tid,
        "supplies",
        lambda: land.begin(tid, LOAD, [], CITY_SUPPLIES + 1),
    )
    tid = land.new_id("empty")
    empty = refused(
        land,
        f"a landing from {lay.ship}, which holds none",
        tid,
        "supplies",
        lambda: land.begin(tid, UNLOAD, [], 1),
    )
    held = land.new_id("holds")
    expect(land.begin(held, LOAD, [], CITY_SUPPLIES - 2).accepted, f"a load of {CITY_SUPPLIES - 2} refused")
    tid = land.new_id("more")
    try:
        reserved = refused(
            land,
            "3 more while 8 are reserved",
            tid,
            "supplies",
            lambda: land.begin(tid, LOAD, [], 3, transport=lay.spare),
        )
    finally:
        land.complete(held, cancelled=True)
    return f"{beyond}; {empty}; {reserved}"


def whole(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("mixed")
    status = refusal(
        land,
        "a good unit with a foreign one",
        tid,
        lay.foreign,
        lambda: land.begin(tid, LOAD, [lay.a, lay.foreign], 1),
    )
    # docs/gitm.md "Answers": a refusal holds nothing, so it answers no units and 0 supplies
    expect(
        isinstance(status, str) or (not status.units and status.supplies == 0),
        f"the refusal answers what it holds as units {list(getattr(status, 'units', []))} and "
        f"{getattr(status, 'supplies', 0)} supplies: a refused transfer holds none",
    )
    near = land.near()
    a = next((u for u in near.units if u.id == lay.a), None)
    expect(a is not None and not a.reserved, f"{lay.a} is reserved by a refused transfer")
    expect(near.reserved_supplies == 0, f"{near.reserved_supplies} supplies reserved by a refused transfer")
    again = land.new_id("alone")
    expect(land.begin(again, LOAD, [lay.a], 1).accepted, f"{lay.a} alone is refused after the refusal")
    land.complete(again, cancelled=True)
    return f"refused whole; {lay.a} and the supply free, and loadable alone"


def reserves(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("reserve")
    begun = land.begin(tid, LOAD, [lay.a], 2)
    expect(begun.accepted and begun.state == BEGUN and begun.supplies == 2, f"the begin: {short(begun)}")
    expect(land.get(tid) == begun, f"GetTransfer differs from BeginTransfer: {short(land.get(tid))}")
    try:
        near = land.near()
        a = next((u for u in near.units if u.id == lay.a), None)
        # docs/gitm.md "Answers": a load's units stay in the city, listed with reserved true
        if a is None:
            raise CheckFailedError(f"{lay.a}, reserved by a begun load, is missing from UnitsNear")
        expect(a.reserved, f"{lay.a} is not marked reserved while begun: {short(a)}")
        expect(near.reserved_supplies == 2, f"{near.reserved_supplies} supplies reserved, expected 2")
    finally:
        land.complete(tid, cancelled=True)
    return f"{lay.a} reserved (still in the city) and 2 supplies held while begun"


def completes(land: Land) -> str:
    lay = land.layout
    done = land.move([lay.a], 2)
    expect(
        done.state == COMPLETED and list(done.units) == [lay.a] and done.supplies == 2,
        f"the load: {short(done)}",
    )
    expect(lay.a not in land.city() and land.free() == CITY_SUPPLIES - 2, "the load did not leave the city")
    back = land.move([lay.a], 2, UNLOAD)
    expect(back.state == COMPLETED, f"the landing: {short(back)}")
    a = next((u for u in land.near().units if u.id == lay.a), None)
    expect(a is not None and a.tactical_square, f"{lay.a} landed, but not in the city itself: {short(a)}")
    expect(land.free() == CITY_SUPPLIES, f"{land.free()} supplies after landing the 2 again")
    return f"{lay.a} and 2 supplies aboard, then landed in the city"


def cancels(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("cancel")
    expect(land.begin(tid, LOAD, [lay.a], 2).accepted, f"a load of {lay.a} refused")
    first, second = land.complete(tid, cancelled=True), land.complete(tid, cancelled=True)
    expect(
        first.state == CANCELLED and first == second, f"the cancellations: {short(first)} / {short(second)}"
    )
    near = land.near()
    a = next((u for u in near.units if u.id == lay.a), None)
    expect(
        a is not None and a.tactical_square and not a.reserved, f"{lay.a} after the cancellation: {short(a)}"
    )
    expect(near.reserved_supplies == 0 and near.supplies == CITY_SUPPLIES, f"supplies: {short(near)[:80]}")
    return "cancelled once; nothing moved, nothing left reserved"


def final(land: Land) -> str:
    lay = land.layout
    tid = land.new_id("final")
    expect(land.begin(tid, LOAD, [lay.b]).accepted, f"a load of {lay.b} refused")
    first = land.complete(tid, cancelled=True)
    flipped = land.complete(tid, cancelled=False)
    expect(flipped == first and first.state == CANCELLED, f"cancelled, then completed: {short(flipped)}")
    expect(lay.b in land.city(), f"{lay.b} left the city after its cancellation")
    tid = land.new_id("final")
    expect(land.begin(tid, LOAD, [lay.b]).accepted, f"a load of {lay.b} refused")
    done = land.complete(tid)
    flipped = land.complete(tid, cancelled=True)
    expect(flipped == done and done.state == COMPLETED, f"completed, then cancelled: {short(flipped)}")
    expect(lay.b not in land.city(), f"{lay.b} is back in the city after a repeat with cancelled")
    expect(land.move([lay.b], 0, UNLOAD).state == COMPLETED, f"{lay.b} cannot land again")
    return "the first outcome stands, whatever the repeat's flag"


def unknown(land: Land) -> str:
    tid = land.new_id("unknown")
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("CompleteTransfer", lambda: land.complete(tid)),
        ("GetTransfer", lambda: land.get(tid)),
    ]
    for name, call in calls:
        try:
            call()
        except grpc.RpcError as exc:
            if isinstance(exc, grpc.Call) and exc.code() == grpc.StatusCode.NOT_FOUND:
                continue
            raise
        raise CheckFailedError(f"{name} of an unknown transfer answered OK")
    return "CompleteTransfer and GetTransfer: NOT_FOUND"
