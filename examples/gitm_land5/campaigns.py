"""OpenCampaign, CloseCampaign and the questions about a campaign's land (L2, L3, L22, L25-L27)."""

from __future__ import annotations

import json
from typing import Any

import grpc

from gitm.v1 import land_pb2 as pb

from . import errors, holds, validation
from .store import Tx
from .transfers import BEGUN, CANCELLED, opened, status
from .world import (
    World,
    add_stock,
    city_key,
    new_unit,
    occupied,
    reserved_supplies,
    reserved_units,
    same_content,
    stock,
    transport_key,
    unit_message,
)


def _open_faults(req: pb.OpenCampaignRequest, cities: frozenset[str], digest: str) -> list[tuple[str, str]]:
    """What a rule of one field cannot say ("Opening and closing"), each named by its path."""
    faults: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i, entry in enumerate(req.units):
        if bool(entry.city) == bool(entry.transport_id):
            faults.append((f"units[{i}]", "names exactly one of city and transport_id"))
        elif entry.city and entry.city not in cities:
            faults.append((f"units[{i}].city", f"{entry.city} is not on GITM's map"))
        if entry.unit.id in seen:
            faults.append((f"units[{i}].unit.id", f"{entry.unit.id} is named again"))
        seen.add(entry.unit.id)
    places: set[str] = set()
    for i, place in enumerate(req.stocks):
        if bool(place.city) == bool(place.transport_id):
            faults.append((f"stocks[{i}]", "names exactly one of city and transport_id"))
            continue
        if place.city and place.city not in cities:
            faults.append((f"stocks[{i}].city", f"{place.city} is not on GITM's map"))
        key = city_key(place.city) if place.city else transport_key(place.transport_id)
        if key in places:
            faults.append((f"stocks[{i}]", "the place is named again"))
        places.add(key)
    for i, holder in enumerate(req.holders):
        if holder.port not in cities:
            faults.append((f"holders[{i}].port", f"{holder.port} is not on GITM's map"))
        if not holder.state:
            faults.append((f"holders[{i}].state", "a holder's state is two capital letters"))
    if req.data_digest and req.data_digest != digest:
        faults.append(("data_digest", "the contract data differ from this service's"))
    return faults


def open_campaign(
    tx: Tx, req: pb.OpenCampaignRequest, cities: frozenset[str], digest: str
) -> pb.OpenCampaignResponse:
    validation.check(req, _open_faults(req, cities, digest))
    content = same_content(req, "data_digest")
    known = tx.campaign(req.campaign_id)
    if known is not None:
        if known["content"] != content:
            raise errors.id_reused("OpenCampaign", req.campaign_id, "campaign_id")
        answer = pb.OpenCampaignResponse.FromString(known["open_answer"])
        answer.duplicate = True
        return answer
    world: World = {"units": {}, "stocks": {}, "holders": {}, "open": {}}
    for entry in req.units:
        world["units"][entry.unit.id] = new_unit(entry)
    for place in req.stocks:
        key = city_key(place.city) if place.city else transport_key(place.transport_id)
        world["stocks"][key] = place.supplies
    for holder in req.holders:
        world["holders"][holder.port] = holder.state
    answer = pb.OpenCampaignResponse(
        campaign_id=req.campaign_id, units=len(req.units), stocks=len(req.stocks)
    )
    tx.run(
        "INSERT INTO campaigns (id, content, open_answer, world) VALUES (?, ?, ?, ?)",
        req.campaign_id,
        content,
        answer.SerializeToString(),
        json.dumps(world, sort_keys=True),
    )
    return answer


def _land_laden(world: World, laden: Any, cities: frozenset[str]) -> None:
    """A24: the cargo of a group lying in an on-map port lands there; the rest stays aboard."""
    for group in laden:
        if not group.city or group.city not in cities:
            continue
        for uid in dict.fromkeys(group.units):
            unit = world["units"].get(uid)
            if unit is not None and not unit["fate"] and unit["transport"] == group.transport_id:
                unit.update(city=group.city, tactical=True, transport="")
        amount = min(group.supplies, stock(world, transport_key(group.transport_id)))
        add_stock(world, transport_key(group.transport_id), -amount)
        add_stock(world, city_key(group.city), amount)


def close_campaign(tx: Tx, req: pb.CloseCampaignRequest, cities: frozenset[str]) -> pb.CloseCampaignResponse:
    campaign = opened(tx, req.campaign_id)
    if campaign["closed"]:
        answer = pb.CloseCampaignResponse.FromString(campaign["close_answer"])
        answer.duplicate = True
        return answer
    world = campaign["world"]
    cancelled = 0
    for tid, record in tx.transfers_of(req.campaign_id):
        if record["state"] == BEGUN:
            record["state"] = CANCELLED
            known = tx.transfer(tid)
            tx.put_transfer(tid, req.campaign_id, known[1] if known else b"", record)
            cancelled += 1
    world["open"] = {}
    _land_laden(world, req.laden, cities)
    answer = pb.CloseCampaignResponse(campaign_id=req.campaign_id, cancelled_transfers=cancelled)
    tx.save_world(req.campaign_id, world)
    tx.run(
        "UPDATE campaigns SET closed = 1, close_answer = ? WHERE id = ?",
        answer.SerializeToString(),
        req.campaign_id,
    )
    return answer


def units_near(tx: Tx, req: pb.UnitsNearRequest, now: int, cities: frozenset[str]) -> pb.UnitsNearResponse:
    if req.hold and not req.hold_request_id:
        validation.check(req, [("hold_request_id", "required when hold is asked")])
    campaign = opened(tx, req.campaign_id)
    if req.port not in cities:
        raise errors.LandError(
            grpc.StatusCode.NOT_FOUND,
            f"port: {req.port} is not on GITM's map",
            "CITY_NOT_ON_MAP",
            metadata={"port": req.port[:64]},
        )
    if req.hold and campaign["closed"]:
        raise errors.closed(req.campaign_id)
    world = campaign["world"]
    reserved = reserved_units(world)
    units = [
        unit_message(uid, unit, uid in reserved)
        for uid, unit in sorted(world["units"].items())
        if unit["city"] == req.port and not unit["transport"] and not unit["fate"]
    ]
    key = city_key(req.port)
    answer = pb.UnitsNearResponse(
        units=units, supplies=stock(world, key), reserved_supplies=reserved_supplies(world, key)
    )
    if req.hold:
        answer.hold_id, answer.hold_expires_at = holds.give(tx, req, now)
    return answer


def port_holders(tx: Tx, req: pb.PortHoldersRequest) -> pb.PortHoldersResponse:
    world = opened(tx, req.campaign_id)["world"]
    return pb.PortHoldersResponse(
        holders=[
            pb.PortHolder(port=city, state=state, occupied=occupied(world, city, state))
            for city, state in sorted(world["holders"].items())
        ]
    )


def list_events(tx: Tx, req: pb.ListLandEventsRequest) -> pb.ListLandEventsResponse:
    """This service has no land game of its own: its feed stays empty (L27 checks its form)."""
    opened(tx, req.campaign_id)
    return pb.ListLandEventsResponse(events=[], more=False, last_sequence=0)


def snapshot(tx: Tx, req: pb.GetLandSnapshotRequest, now: int) -> pb.LandSnapshot:
    campaign = opened(tx, req.campaign_id)
    world = campaign["world"]
    reserved = reserved_units(world)
    out = pb.LandSnapshot(campaign_id=req.campaign_id, pate_turn=campaign["pate_turn"], taken_at_unix=now)
    out.land_turn = campaign["pate_turn"]
    out.closed = bool(campaign["closed"])
    for uid, unit in sorted(world["units"].items()):
        out.units.add(
            unit=unit_message(uid, unit, uid in reserved),
            city=unit["city"] if not unit["fate"] else "",
            transport_id=unit["transport"] if not unit["fate"] else "",
            fate=unit["fate"],
            captor=unit["captor"],
            reserved_by=reserved.get(uid, ""),
        )
    for key, amount in sorted(world["stocks"].items()):
        kind, _, place = key.partition(":")
        held = reserved_supplies(world, key)
        if kind == "city":
            out.stocks.add(city=place, supplies=amount, reserved=held)
        else:
            out.stocks.add(transport_id=place, supplies=amount, reserved=held)
    out.holders.extend(port_holders(tx, pb.PortHoldersRequest(campaign_id=req.campaign_id)).holders)
    for tid, record in tx.transfers_of(req.campaign_id):
        answer = status(tid, record)
        out.transfers.add(
            transfer_id=tid,
            state=record["state"],
            direction=record["direction"],
            port=record["port"],
            transport_id=record["transport"],
            units=answer.units,
            supplies=answer.supplies,
            turn=record["turn"],
        )
    return out
