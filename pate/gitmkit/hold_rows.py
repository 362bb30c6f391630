"""The row of edition 4's holds (docs/gitm.md "Holds"): ``UnitsNear`` asked with a hold gives one
hold per (campaign, turn, request id) lasting ten minutes, a ``BeginTransfer`` naming it is taken,
``ReleaseHold`` ends it for good (a begin naming it afterwards is refused ``hold_released``) and a
hold the service never gave is refused ``hold_unknown``.  Skipped for a service that does not list
``ReleaseHold``.  The suite cannot wait ten minutes, so ``hold_expired`` is checked by its number
(the expiry the answer gives), not by waiting for it."""

from __future__ import annotations

import time

from gitm.v1 import land_pb2
from pate.gitmkit.land import LOAD, Land
from pate.gitmkit.rows import SkippedError, expect, short

HOLD_SECONDS = 600  # proto/gitm/v1/contract.toml [holds]
SLACK = 120  # the clocks of the suite and of the service may differ by this much


def _refused_for(status: land_pb2.TransferStatus, code: str) -> bool:
    hold = [r for r in status.refusals if r.item == "hold"]
    return not status.accepted and bool(hold) and hold[0].reason.startswith(code)


def holds(land: Land) -> str:
    caps = land.call("GetCapabilities", land_pb2.GetCapabilitiesRequest())
    if "ReleaseHold" not in caps.calls:
        raise SkippedError(f"edition {caps.edition}: ReleaseHold is not listed (edition 4 holds)")
    request = land_pb2.UnitsNearRequest(
        campaign_id=land.campaign, turn=1, port=land.port, hold=True, hold_request_id=land.new_id("hold")
    )
    first = land.call("UnitsNear", request)
    expect(first.hold_id, f"UnitsNear asked with a hold answered no hold_id: {short(first)}")
    left = first.hold_expires_at - time.time()
    expect(abs(left - HOLD_SECONDS) <= SLACK, f"the hold ends in {left:.0f} s, not in {HOLD_SECONDS} s")
    again = land.call("UnitsNear", request)
    expect(
        (again.hold_id, again.hold_expires_at) == (first.hold_id, first.hold_expires_at),
        f"asked again with the same request: hold {again.hold_id} until {again.hold_expires_at},"
        f" first {first.hold_id} until {first.hold_expires_at}",
    )
    # PATE's request id holds the port's name, and 12 cities hold a space: not an opaque id ("Ids")
    spaced = land_pb2.UnitsNearRequest(
        campaign_id=land.campaign,
        turn=1,
        port=land.port,
        hold=True,
        hold_request_id=f"{land.new_id('hold')}:Milford Haven:hold",
    )
    expect(land.call("UnitsNear", spaced).hold_id, "a hold_request_id with a space (PATE's port) got no hold")
    lay = land.layout
    tid = land.new_id("held")
    begun = land.begin(tid, LOAD, [lay.a], hold=first.hold_id)
    land.complete(tid, cancelled=True)
    expect(begun.accepted, f"a begin naming the hold: {short(begun)}")
    release = land_pb2.ReleaseHoldRequest(campaign_id=land.campaign, hold_id=first.hold_id)
    released = land.call("ReleaseHold", release)
    expect(released.state == "released" and not released.duplicate, f"the release: {short(released)}")
    expect(land.call("ReleaseHold", release).duplicate, "the release repeated is not a duplicate")
    late = land.begin(land.new_id("released"), LOAD, [lay.a], hold=first.hold_id)
    if late.accepted:
        land.complete(late.transfer_id, cancelled=True)
    expect(_refused_for(late, "hold_released"), f"a begin naming the released hold: {short(late)}")
    unknown = land.begin(land.new_id("unknown"), LOAD, [lay.a], hold=f"{first.hold_id}-never-given")
    expect(_refused_for(unknown, "hold_unknown"), f"a begin naming a hold never given: {short(unknown)}")
    return f"hold for {HOLD_SECONDS} s, the same when asked again, confirmed, released for good"
