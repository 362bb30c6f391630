"""Opening and closing campaigns, and the questions of a turn's close."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from examples.gitm_land6 import errors, model
from gitm.v1 import land_pb2 as pb


def _check_open_entries(request: pb.OpenCampaignRequest) -> None:
    seen: set[str] = set()
    for i, entry in enumerate(request.units):
        if bool(entry.city) == bool(entry.transport_id):
            raise errors.invalid(f"units[{i}]", "exactly one of city and transport_id")
        if entry.city and entry.city not in model.CITIES:
            raise errors.invalid(f"units[{i}].city", "not a city of GITM's map")
        if entry.unit.id in seen:
            raise errors.invalid(f"units[{i}].unit.id", "a unit named again")
        seen.add(entry.unit.id)
    places: set[str] = set()
    for i, entry in enumerate(request.stocks):
        if bool(entry.city) == bool(entry.transport_id):
            raise errors.invalid(f"stocks[{i}]", "exactly one of city and transport_id")
        if entry.city and entry.city not in model.CITIES:
            raise errors.invalid(f"stocks[{i}].city", "not a city of GITM's map")
        place = ("c:" + entry.city) if entry.city else ("t:" + entry.transport_id)
        if place in places:
            raise errors.invalid(f"stocks[{i}]", "a place named again")
        places.add(place)
    for i, holder in enumerate(request.holders):
        if holder.port not in model.CITIES:
            raise errors.invalid(f"holders[{i}].port", "not a city of GITM's map")
    if request.data_digest and request.data_digest != model.DIGEST:
        raise errors.invalid("data_digest", "not the digest of this service's contract data")


def open_campaign(state: dict[str, Any], request: pb.OpenCampaignRequest) -> pb.OpenCampaignResponse:
    _check_open_entries(request)
    print_ = model.fingerprint(request, "data_digest")
    known = state["campaigns"].get(request.campaign_id)
    if known is not None:
        if known["fp"] != print_:
            if known["closed"]:
                raise errors.closed(request.campaign_id)
            raise errors.reused("OpenCampaign", request.campaign_id)
        answer = model.from_dict(known["open_answer"], pb.OpenCampaignResponse)
        answer.duplicate = True
        return answer
    units: dict[str, Any] = {}
    for entry in request.units:
        unit = pb.Unit()
        unit.CopyFrom(entry.unit)
        tactical = unit.tactical_square
        unit.ClearField("reserved")
        unit.ClearField("tactical_square")
        units[unit.id] = {
            "unit": model.to_dict(unit),
            "city": entry.city,
            "tactical": bool(entry.city) and tactical,
            "transport": entry.transport_id,
            "fate": "",
            "captor": "",
        }
    stocks = {(("c:" + s.city) if s.city else ("t:" + s.transport_id)): s.supplies for s in request.stocks}
    answer = pb.OpenCampaignResponse(
        campaign_id=request.campaign_id, units=len(request.units), stocks=len(request.stocks)
    )
    state["campaigns"][request.campaign_id] = {
        "fp": print_,
        "open_answer": model.to_dict(answer),
        "closed": False,
        "close_answer": None,
        "units": units,
        "stocks": stocks,
        "holders": {h.port: h.state for h in request.holders if h.state},
        "pate_turn": 0,
        "hold_requests": {},
    }
    return answer


def close_campaign(state: dict[str, Any], request: pb.CloseCampaignRequest) -> pb.CloseCampaignResponse:
    for i, laden in enumerate(request.laden):
        if laden.city and laden.city not in model.CITIES:
            raise errors.invalid(f"laden[{i}].city", "not a city of GITM's map")
    camp = state["campaigns"].get(request.campaign_id)
    if camp is None:
        return pb.CloseCampaignResponse(campaign_id=request.campaign_id)
    if camp["closed"]:
        answer = model.from_dict(camp["close_answer"], pb.CloseCampaignResponse)
        answer.duplicate = True
        return answer
    cancelled = 0
    for transfer in model.open_transfers(state, request.campaign_id):
        transfer["state"] = pb.TRANSFER_STATE_CANCELLED
        cancelled += 1
    for laden in request.laden:
        if not laden.city:
            continue
        for unit_id in laden.units:
            entry = camp["units"].get(unit_id)
            if entry and entry["fate"] == "" and entry["transport"] == laden.transport_id:
                entry.update(transport="", city=laden.city, tactical=True)
        moved = min(laden.supplies, model.stock(camp, "t:" + laden.transport_id))
        model.add_stock(camp, "t:" + laden.transport_id, -moved)
        model.add_stock(camp, "c:" + laden.city, moved)
    answer = pb.CloseCampaignResponse(campaign_id=request.campaign_id, cancelled_transfers=cancelled)
    camp["closed"] = True
    camp["close_answer"] = model.to_dict(answer)
    return answer


def _hold(state: dict[str, Any], camp: dict[str, Any], request: pb.UnitsNearRequest) -> tuple[str, int]:
    if not request.hold_request_id:
        raise errors.invalid("hold_request_id", "required when hold is asked")
    key = f"{request.turn}|{request.hold_request_id}"
    hold_id = camp["hold_requests"].get(key)
    if hold_id is not None:
        hold = state["holds"][hold_id]
        if hold["port"] != request.port:
            raise errors.invalid("hold_request_id", "asked before for another port")
        return hold_id, hold["expires"]
    digest = hashlib.sha256(
        f"{request.campaign_id}\n{request.turn}\n{request.hold_request_id}".encode()
    ).hexdigest()
    hold_id = "hold-" + digest[:32]
    expires = int(time.time()) + model.HOLD_SECONDS
    state["holds"][hold_id] = {
        "campaign": request.campaign_id,
        "port": request.port,
        "expires": expires,
        "release": None,
    }
    camp["hold_requests"][key] = hold_id
    return hold_id, expires


def units_near(state: dict[str, Any], request: pb.UnitsNearRequest) -> pb.UnitsNearResponse:
    camp = model.campaign(state, request.campaign_id)
    if request.port not in model.CITIES:
        raise errors.not_found("CITY_NOT_ON_MAP", "port: not a city of GITM's map", port=request.port)
    reserved = model.reserved_by(state, request.campaign_id)
    answer = pb.UnitsNearResponse(
        supplies=model.stock(camp, "c:" + request.port),
        reserved_supplies=model.reserved_supplies(state, request.campaign_id, "c:" + request.port),
    )
    for unit_id in sorted(camp["units"]):
        entry = camp["units"][unit_id]
        if entry["fate"] == "" and entry["transport"] == "" and entry["city"] == request.port:
            answer.units.append(model.unit_message(entry, unit_id in reserved))
    if request.hold and not camp["closed"]:
        answer.hold_id, answer.hold_expires_at = _hold(state, camp, request)
    return answer


def port_holders(state: dict[str, Any], request: pb.PortHoldersRequest) -> pb.PortHoldersResponse:
    camp = model.campaign(state, request.campaign_id)
    return pb.PortHoldersResponse(holders=_holders(camp))


def _holders(camp: dict[str, Any]) -> list[pb.PortHolder]:
    out = []
    for city in sorted(camp["holders"]):
        holder = camp["holders"][city]
        occupied = any(
            e["fate"] == ""
            and e["transport"] == ""
            and e["city"] == city
            and e["tactical"]
            and e["unit"].get("state") == holder
            for e in camp["units"].values()
        )
        out.append(pb.PortHolder(port=city, state=holder, occupied=occupied))
    return out


def snapshot(state: dict[str, Any], request: pb.GetLandSnapshotRequest) -> pb.LandSnapshot:
    camp = model.campaign(state, request.campaign_id)
    reserved = model.reserved_by(state, request.campaign_id)
    answer = pb.LandSnapshot(
        campaign_id=request.campaign_id,
        holders=_holders(camp),
        pate_turn=camp["pate_turn"],
        land_turn=camp["pate_turn"],
        taken_at_unix=int(time.time()),
        closed=camp["closed"],
    )
    for unit_id in sorted(camp["units"]):
        entry = camp["units"][unit_id]
        answer.units.add(
            unit=model.unit_message(entry, unit_id in reserved),
            city=entry["city"],
            transport_id=entry["transport"],
            fate=entry["fate"],
            captor=entry["captor"],
            reserved_by=reserved.get(unit_id, ""),
        )
    for place in sorted(camp["stocks"]):
        held = model.reserved_supplies(state, request.campaign_id, place)
        kind, name = place.split(":", 1)
        answer.stocks.add(
            city=name if kind == "c" else "",
            transport_id=name if kind == "t" else "",
            supplies=camp["stocks"][place],
            reserved=held,
        )
    for transfer_id in sorted(state["transfers"]):
        t = state["transfers"][transfer_id]
        if t["campaign"] == request.campaign_id:
            answer.transfers.add(
                transfer_id=transfer_id,
                state=t["state"],
                direction=t["direction"],
                port=t["port"],
                transport_id=t["transport"],
                units=t["units"],
                supplies=t["supplies"],
                turn=t["turn"],
            )
    return answer


def land_events(state: dict[str, Any], request: pb.ListLandEventsRequest) -> pb.ListLandEventsResponse:
    model.campaign(state, request.campaign_id)
    # This service has no land game of its own: its feed never holds an event.
    return pb.ListLandEventsResponse(more=False, last_sequence=0)


def release_hold(state: dict[str, Any], request: pb.ReleaseHoldRequest) -> pb.ReleaseHoldResponse:
    model.campaign(state, request.campaign_id)
    hold = state["holds"].get(request.hold_id)
    if hold is None or hold["campaign"] != request.campaign_id:
        raise errors.not_found("HOLD_NOT_FOUND", "hold_id: no such hold", hold_id=request.hold_id[:64])
    if hold["release"] is not None:
        return pb.ReleaseHoldResponse(hold_id=request.hold_id, state=hold["release"], duplicate=True)
    hold["release"] = "released" if time.time() < hold["expires"] else "expired"
    return pb.ReleaseHoldResponse(hold_id=request.hold_id, state=hold["release"])


def require_open(camp: dict[str, Any], campaign_id: str) -> None:
    if camp["closed"]:
        raise errors.closed(campaign_id)
