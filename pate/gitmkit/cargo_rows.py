"""The rows of what PATE reports after a turn (docs/gitm.md L17-L20): shore
sightings, cargo moved between transport groups, cargo lost or captured with
a transport, and the conservation of units and supplies over the whole run."""

from __future__ import annotations

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit.land import CARGO_SUPPLIES, CITY_SUPPLIES, UNLOAD, Land
from pate.gitmkit.rows import expect, short
from pate.gitmkit.transfer_rows import refused

COMPLETED = land_pb2.TRANSFER_STATE_COMPLETED


def sightings(land: Land) -> str:
    lay = land.layout
    rid = land.new_id("sightings")
    ships = [("ZZ1SL", "ZZ", "SL"), ("ZZ2FR", "ZZ", "FR"), ("ZZ3TR", "ZZ", "TR")]
    first = land.sightings(rid, ships, (lay.state, lay.other))
    second = land.sightings(rid, ships, (lay.state, lay.other))
    expect(
        first.sightings == 2 and not first.duplicate, f"the report (2 entries, 3 ships each): {short(first)}"
    )
    expect(second.sightings == 2 and second.duplicate, f"the repeated report: {short(second)}")
    empty = land.sightings(land.new_id("sightings"), [], ())
    expect(empty.sightings == 0 and not empty.duplicate, f"an empty report: {short(empty)}")
    return "2 entries kept once; the repeat a duplicate; an empty report taken"


def cargo_moves(land: Land) -> str:
    lay = land.layout
    other = f"{lay.ship}X"  # a group GITM has never heard of: a divide made it
    expect(land.move([lay.a], 2).state == COMPLETED, f"loading {lay.a} and 2 supplies for the move failed")
    mid = land.new_id("moves")
    first = land.moves(mid, lay.ship, other, [lay.a], 2)
    second = land.moves(mid, lay.ship, other, [lay.a], 2)
    applied = [(list(m.units), m.supplies) for m in first.applied]
    expect(first.accepted and applied == [([lay.a], 2)], f"the move: {short(first)}")
    expect(second.duplicate and list(second.applied) == list(first.applied), f"its repeat: {short(second)}")
    stale = land.moves(land.new_id("moves"), lay.ship, other, [lay.a], 2)
    items = sorted(r.item for r in stale.refusals)
    expect(
        not stale.accepted and items == sorted([lay.a, "supplies"]) and not stale.applied,
        f"a move of what {lay.ship} no longer holds: {short(stale)}",
    )
    tid = land.new_id("left")
    refused(
        land,
        f"a landing from {lay.ship}, left empty",
        tid,
        "supplies",
        lambda: land.begin(tid, UNLOAD, [], 1),
    )
    back = land.moves(land.new_id("moves"), other, lay.ship, [lay.a], 2)
    expect(back.accepted, f"the move back: {short(back)}")
    landed = land.move([lay.a], 2, UNLOAD)
    expect(
        landed.state == COMPLETED and land.free() == CITY_SUPPLIES,
        f"landing after the moves: {short(landed)}",
    )
    return f"{lay.a} and 2 supplies moved once to a new group and back; a stale move refused item by item"


def cargo_loss(land: Land) -> str:
    lay = land.layout
    lid = land.new_id("loss")
    report = (lid, lay.carrier, [lay.aboard, lay.a], CARGO_SUPPLIES + 1, lay.other)
    first, second = land.loss(*report), land.loss(*report)
    expect(
        list(first.units) == [lay.aboard] and first.supplies == CARGO_SUPPLIES, f"the loss: {short(first)}"
    )
    items = sorted(r.item for r in first.refusals)
    expect(
        not first.accepted and items == sorted([lay.a, "supplies"]),
        f"{lay.a} (ashore) and one supply more than aboard are not listed: {short(first)}",
    )
    expect(
        second.duplicate and list(second.units) == list(first.units), f"the repeated loss: {short(second)}"
    )
    tid = land.new_id("ghost")
    ghost = refused(
        land,
        f"a landing of {lay.aboard}, captured",
        tid,
        lay.aboard,
        lambda: land.begin(tid, UNLOAD, [lay.aboard], transport=lay.carrier),
    )
    expect(lay.a in land.city(), f"{lay.a}, ashore, was taken by a loss that named it")
    return f"{lay.aboard} and {CARGO_SUPPLIES} supplies captured once; the rest listed; {ghost}"


def conservation(land: Land) -> str:
    lay = land.layout
    near = land.near()
    here = {u.id for u in near.units}
    wanted = lay.city_units() | {lay.near}
    expect(here == wanted, f"the city and its square hold {sorted(here)}, expected {sorted(wanted)}")
    expect(
        near.supplies == CITY_SUPPLIES and near.reserved_supplies == 0,
        f"the city holds {near.supplies} supplies ({near.reserved_supplies} reserved), "
        f"expected {CITY_SUPPLIES}",
    )
    for ship in (lay.ship, lay.spare, lay.carrier, f"{lay.ship}X"):
        tid = land.new_id("empty")
        try:
            status = land.begin(tid, UNLOAD, [], 1, transport=ship)
        except grpc.RpcError:
            continue  # refused outright: nothing there
        if status.accepted:
            land.complete(tid, cancelled=True)
            expect(False, f"{ship} still holds supplies at the end")
    return f"{len(here)} units and {CITY_SUPPLIES} supplies in {land.port}; the suite's transports empty"
