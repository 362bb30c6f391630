"""Holds at the close (gitm.v1 edition 4, docs/gitm.md "Holds"; docs/rules/turn.md "Holds at the
close"), end to end through the reference land service in this process: the close asks UnitsNear
with a hold per port, the turn's BeginTransfer names it and the bridge releases it; a landing whose
hold ended before the bridge reached GITM waits for a fresh hold and is not undone; a land service
that gives no hold leaves PATE as it was."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import grpc
from sqlalchemy import select

from gitm.v1 import land_pb2
from pate.core.codec import to_plain
from pate.core.orders.model import Amphibious, ShipOrder
from pate.core.rules.landsync import PortLandReport
from services.gitm_reference import tables as gt
from services.gitm_reference.holds import HOLD_SECONDS
from services.gitm_reference.inprocess import LocalRpcError
from services.resolver import bridge, land_holds
from services.resolver.gitm import Begin
from services.resolver.land_holds import ReleaseHold
from tests.unit.turn.gitm_fault_campaign import Campaign
from tests.unit.turn.gitm_restored import CAMPAIGN, restorable

PORT = "Portsmouth"
UNLOAD = {"BR1TR": ShipOrder("BR1TR", amphibious=Amphibious(unload_units=("BR1IN",)))}
TRANSFER = f"{CAMPAIGN}:1:BR1TR:1"


def _holds(c: Campaign) -> dict[str, str]:
    with c.store.engine.begin() as conn:
        return {r.hold_id: r.state for r in conn.execute(select(gt.holds.c.hold_id, gt.holds.c.state))}


def _begins_heard(c: Campaign) -> list[land_pb2.BeginTransferRequest]:
    heard: list[land_pb2.BeginTransferRequest] = []
    begin = c.stub.BeginTransfer

    def record(r: land_pb2.BeginTransferRequest, **kw: Any) -> Any:
        heard.append(r)
        return begin(r, **kw)

    c.stub.BeginTransfer = record
    return heard


def test_the_close_asks_with_a_hold_the_begin_names_it_and_the_bridge_releases_it(tmp_path: Path) -> None:
    c = restorable(tmp_path).campaign
    heard = _begins_heard(c)
    c.close_turn(UNLOAD, None, "", deliver=False)
    hold, expires = c.holds[1][PORT]
    assert hold and expires >= int(time.time()) + HOLD_SECONDS - 5
    assert _holds(c) == {hold: "held"}  # one hold, for the one port where a PATE ship lies
    calls = bridge.calls_of(CAMPAIGN, 1, c.events[1], c.starts[1], None, c.holds[1])
    (begin,) = [x for x in calls if isinstance(x, Begin)]
    assert (begin.transfer_id, begin.hold_id) == (TRANSFER, hold)
    assert [x for x in calls if isinstance(x, ReleaseHold)] == [ReleaseHold(CAMPAIGN, 1, PORT, hold)]
    assert c.deliver(1)
    assert [r.hold_id for r in heard] == [hold]
    assert _holds(c) == {hold: "released"}
    c.close_turn({}, None, "")
    assert "BR1IN" in c.world.ports[PORT].garrison
    assert not [e for e in c.events[2] if e.kind == "transfer_undone"]


def test_a_landing_whose_hold_ended_waits_for_a_fresh_hold_and_is_not_undone(tmp_path: Path) -> None:
    c = restorable(tmp_path).campaign
    heard = _begins_heard(c)
    c.close_turn(UNLOAD, None, "", deliver=False)
    first, _ = c.holds[1][PORT]
    later = time.time() + HOLD_SECONDS + 5  # PATE's commit outlasted the hold, on both clocks
    c.store.ledger.clock = lambda: later
    c.client.wall = lambda: later
    near = c.stub.UnitsNear
    c.stub.UnitsNear = _unavailable
    assert not c.deliver(1)  # GITM does not answer the question again: the begin waits
    assert heard == [] and _holds(c) == {first: "held"}
    c.stub.UnitsNear = near
    assert c.deliver(1)
    (sent,) = heard
    assert sent.hold_id and sent.hold_id != first  # a fresh hold, never the one that ended
    # the close's hold had ended before its release: released "expired" (docs/gitm.md "Holds")
    assert _holds(c) == {first: "expired", sent.hold_id: "released"}
    c.close_turn({}, None, "")
    assert "BR1IN" in c.world.ports[PORT].garrison  # landed, and it stays landed
    assert not [e for e in c.events[2] if e.kind == "transfer_undone"]


def test_a_land_service_that_gives_no_hold_leaves_pate_as_before(tmp_path: Path) -> None:
    c = restorable(tmp_path).campaign
    heard = _begins_heard(c)
    near = c.stub.UnitsNear

    def without_hold(r: land_pb2.UnitsNearRequest, **kw: Any) -> Any:
        older = land_pb2.UnitsNearRequest(campaign_id=r.campaign_id, turn=r.turn, port=r.port)
        return near(older, **kw)  # an edition-3 service: the hold fields are unknown to it

    c.stub.UnitsNear = without_hold
    c.close_turn(UNLOAD, None, "")
    assert c.holds[1] == {} and [r.hold_id for r in heard] == [""]
    calls = bridge.calls_of(CAMPAIGN, 1, c.events[1], c.starts[1], None, c.holds[1])
    assert not [x for x in calls if isinstance(x, ReleaseHold)]
    c.close_turn({}, None, "")
    assert "BR1IN" in c.world.ports[PORT].garrison


def _unavailable(r: Any, **_: Any) -> Any:
    raise LocalRpcError(grpc.StatusCode.UNAVAILABLE, "GITM is down")


def test_the_bridge_reads_the_holds_from_the_turns_stored_inputs() -> None:
    """The resolver stores the close's reports with the turn (``resolutions.orders_json``); the
    bridge, a separate consumer, finds each port's hold there, and none where GITM gave none."""
    reports = [
        PortLandReport(PORT, (), (), 3, hold="hold-1", hold_expires_at=1_900_000_600),
        PortLandReport("Brest", (), (), 0),
    ]
    stored = json.dumps({"orders": {}, "land_reports": [to_plain(r) for r in reports]})
    assert land_holds.holds_of_inputs(stored) == {PORT: ("hold-1", 1_900_000_600)}
    assert land_holds.holds_of_inputs(json.dumps({"orders": {}})) == {}  # a turn stored before holds
