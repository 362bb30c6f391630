"""The rows of one transfer's life (docs/gitm.md L4-L10, L13, L14): what a
land game refuses, whole; what a begun transfer reserves; what a completion
moves and a cancellation frees; that a completion is final; NOT_FOUND."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit.land import CITY_SUPPLIES, LOAD, UNLOAD, Land
from pate.gitmkit.rows import CheckFailedError, expect, short

BEGUN = land_pb2.TRANSFER_STATE_BEGUN
COMPLETED = land_pb2.TRANSFER_STATE_COMPLETED
CANCELLED = land_pb2.TRANSFER_STATE_CANCELLED
REFUSING = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND}


def refused(land: Land, what: str, tid: str, item: str, call: Callable[[], Any]) -> str:
    """``call`` (a BeginTransfer of ``tid``) is refused with a reason naming ``item``."""
    try:
        status = call()
    except grpc.RpcError as exc:
        if isinstance(exc, grpc.Call) and exc.code() in REFUSING and exc.details():
            return f"{what}: {exc.code().name}"
        raise
    if status.accepted:
        land.complete(tid, cancelled=True)  # undo what a broken service took
        raise CheckFailedError(f"{what}: accepted, a land game refuses it")
    named = [r for r in status.refusals if r.item == item]
    expect(status.reason and named, f"{what}: refused without a refusal of item {item!r}: {short(status)}")
    return f"{what}: {named[0].reason}"


def _begin_with(land: Land, tid: str, kw: dict[str, Any]) -> Callable[[], Any]:
    return lambda: land.begin(tid, LOAD, **kw)


def unit_refusals(land: Land) -> str:
    lay = land.layout
    out = []
    for what, item, kw in (
        ("a unit of another state", lay.foreign, {"units": [lay.foreign]}),
        ("not in that city", lay.a, {"units": [lay.a], "port": "No-Such-City-Of-The-Suite"}),
        ("only in the strategic square", lay.near, {"units": [lay.near]}),
        ("already embarked", lay.aboard, {"units": [lay.aboard]}),
        ("no such unit", "ZZ99IN", {"units": ["ZZ99IN"]}),
    ):
        tid = land.new_id("refusal")
        out.append(refused(land, what, tid, item, _begin_with(land, tid, kw)))
    tid = land.new_id("refusal")
    out.append(refused(land, "not aboard", tid, lay.a, lambda: land.begin(tid, UNLOAD, [lay.a])))
    return "; ".join(out[:3]) + f" (and {len(out) - 3} more)"


def reserved_elsewhere(land: Land) -> str:
    lay = land.layout
    first = land.new_id("holds")
    expect(land.begin(first, LOAD, [lay.a]).accepted, f"a load of {lay.a} refused")
    tid = land.new_id("also")
    try:
        return refused(
            land,
            "reserved by another open transfer",
            tid,
            lay.a,
            lambda: land.begin(tid, LOAD, [lay.a], transport=lay.spare),
        )
    finally:
        land.complete(first, cancelled=True)


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
    refused(
        land,
        "a good unit with a foreign one",
        tid,
        lay.foreign,
        lambda: land.begin(tid, LOAD, [lay.a, lay.foreign], 1),
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
    near = land.near()
    a = next((u for u in near.units if u.id == lay.a), None)
    try:
        expect(a is not None and a.reserved, f"{lay.a} is not marked reserved while begun: {short(a)}")
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
