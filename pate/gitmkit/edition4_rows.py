"""The rows of edition 4's calls (docs/gitm.md "Reconciliation" and "Land events"): one
consistent snapshot of the suite's campaign (L26) and the feed of land events (L27), each
skipped for a service that does not list its call.  The suite has no way to make GITM's own
rules act, so L27 checks the feed's form, its cursor and its repeat, not a particular event."""

from __future__ import annotations

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit.land import LOAD, Land
from pate.gitmkit.lifecycle_rows import status_of
from pate.gitmkit.rows import CheckFailedError, SkippedError, expect, short

BEGUN = land_pb2.TRANSFER_STATE_BEGUN


def _listed(land: Land, call: str) -> None:
    caps = land.call("GetCapabilities", land_pb2.GetCapabilitiesRequest())
    if call not in caps.calls:
        raise SkippedError(f"edition {caps.edition}: {call} is not listed (edition 4)")


def land_snapshot(land: Land) -> str:
    """L26: an open load is in the snapshot as GetTransfer has it, its unit reserved by it in the
    city and its supplies reserved in the city's stock; the city's units and stock are what
    UnitsNear answers; the unit aboard is aboard; the holder is the open's; a repeat the same."""
    _listed(land, "GetLandSnapshot")
    lay = land.layout
    tid = land.new_id("snapshot")
    begun = land.begin(tid, LOAD, [lay.a], 2)
    expect(begun.accepted and begun.state == BEGUN, f"the begin: {short(begun)}")
    request = land_pb2.GetLandSnapshotRequest(campaign_id=land.campaign)
    try:
        snap = land.call("GetLandSnapshot", request)
        near = land.near()
        again = land.call("GetLandSnapshot", request)
    finally:
        land.complete(tid, cancelled=True)
    expect(snap.campaign_id == land.campaign, f"the snapshot names campaign {snap.campaign_id!r}")
    held = {x.transfer_id: x for x in snap.transfers}
    mine = held.get(tid)
    if mine is None:
        raise CheckFailedError(f"the open load {tid} is missing from the snapshot's transfers")
    expect(
        mine.state == BEGUN and list(mine.units) == [lay.a] and mine.supplies == 2 and mine.port == land.port,
        f"the open load in the snapshot: {short(mine)}",
    )
    units = {u.unit.id: u for u in snap.units}
    a = units.get(lay.a)
    expect(
        a is not None and a.city == land.port and a.reserved_by == tid and a.unit.reserved,
        f"{lay.a}, reserved by the open load, in the snapshot: {short(a)}",
    )
    carried = units.get(lay.aboard)
    expect(carried is not None and carried.transport_id == lay.carrier, f"{lay.aboard}: {short(carried)}")
    city = {u.unit.id for u in snap.units if u.city == land.port and u.unit.tactical_square and not u.fate}
    said = {u.id for u in near.units if u.tactical_square}
    expect(city == said, f"the city's units {sorted(city)}, UnitsNear says {sorted(said)}")
    stock = next((k for k in snap.stocks if k.city == land.port), None)
    expect(
        stock is not None and stock.supplies == near.supplies and stock.reserved == 2,
        f"the city's stock in the snapshot: {short(stock)}; UnitsNear: {near.supplies}",
    )
    holder = next((h for h in snap.holders if h.port == land.port), None)
    expect(holder is not None and holder.state == lay.state, f"the city's holder: {short(holder)}")
    again.taken_at_unix = snap.taken_at_unix  # the one field a repeat may change
    expect(again == snap, "asked again with nothing done between, the snapshot differs")
    return f"{len(snap.units)} units, {len(snap.transfers)} transfers, the open load reserved as begun"


def land_events(land: Land) -> str:
    """L27: the feed answers in sequence order, above ``after_sequence``, never past
    ``last_sequence``; asked again, the same; after the last sequence, nothing; a negative cursor
    is INVALID_ARGUMENT naming it; a campaign never opened NOT_FOUND."""
    _listed(land, "ListLandEvents")

    def ask(after: int, campaign: str = "") -> land_pb2.ListLandEventsResponse:
        request = land_pb2.ListLandEventsRequest(
            campaign_id=campaign or land.campaign, turn=1, after_sequence=after
        )
        return land.call("ListLandEvents", request)  # type: ignore[no-any-return]

    first = ask(0)
    seqs = [e.sequence for e in first.events]
    expect(all(s > 0 for s in seqs) and seqs == sorted(set(seqs)), f"sequences not increasing: {seqs[:10]}")
    expect(
        not seqs or seqs[-1] <= first.last_sequence, f"last_sequence {first.last_sequence} below {seqs[-1:]}"
    )
    expect(all(e.kind != land_pb2.LAND_EVENT_KIND_UNSPECIFIED for e in first.events), "an event of no kind")
    expect(ask(0) == first, "asked again, ListLandEvents answered otherwise")
    tail = ask(first.last_sequence)
    expect(not tail.events and tail.last_sequence == first.last_sequence, f"after the last: {short(tail)}")
    try:
        ask(-1)
        raise CheckFailedError("after_sequence -1 answered OK")
    except grpc.RpcError as exc:
        code = exc.code() if isinstance(exc, grpc.Call) else None
        detail = exc.details() if isinstance(exc, grpc.Call) else ""
        expect(code == grpc.StatusCode.INVALID_ARGUMENT, f"after_sequence -1 answered {code}")
        expect("after_sequence" in (detail or ""), f"the message does not name after_sequence: {detail}")
    never = status_of(lambda: ask(0, land.other_campaign("never-opened")))
    expect(never == grpc.StatusCode.NOT_FOUND, f"a campaign never opened answered {never.name}")
    return f"{len(seqs)} events in order, the cursor kept, NOT_FOUND for a campaign never opened"
