"""GetCapabilities, OpenCampaign, CloseCampaign ("Opening and closing", "Versioning")."""

from __future__ import annotations

import json

from gitm.v1 import land_pb2

from . import errors
from .land import content, open_campaign
from .store import CITY, TRANSPORT, Store
from .transfers import BEGUN, CANCELLED, set_status

CALLS = (
    "BeginTransfer",
    "CloseCampaign",
    "CompleteTransfer",
    "GetCapabilities",
    "GetLandSnapshot",
    "GetTransfer",
    "ListLandEvents",
    "OpenCampaign",
    "PortHolders",
    "ReleaseHold",
    "ReportCargoLoss",
    "ReportCargoMoves",
    "ReportSightings",
    "UnitsNear",
)


def capabilities(data) -> land_pb2.Capabilities:
    return land_pb2.Capabilities(
        edition=4,
        calls=CALLS,
        implementation="gitm-land8 1.0 (no land game)",
        data_digest=data.digest,
    )


def _open_faults(request, cities) -> list[tuple[str, str]]:
    """The rules of an open no single field's rule says, each fault by its entry's path."""
    faults, seen_units, seen_places = [], set(), set()
    for i, entry in enumerate(request.units):
        if bool(entry.city) == bool(entry.transport_id):
            faults.append((f"units[{i}]", "name exactly one of city and transport_id"))
        if entry.city and entry.city not in cities:
            faults.append((f"units[{i}].city", f"{entry.city} is not on GITM's map"))
        if entry.unit.id in seen_units:
            faults.append((f"units[{i}].unit.id", f"{entry.unit.id} is named again"))
        seen_units.add(entry.unit.id)
    for i, stock in enumerate(request.stocks):
        if bool(stock.city) == bool(stock.transport_id):
            faults.append((f"stocks[{i}]", "name exactly one of city and transport_id"))
        if stock.city and stock.city not in cities:
            faults.append((f"stocks[{i}].city", f"{stock.city} is not on GITM's map"))
        place = (CITY, stock.city) if stock.city else (TRANSPORT, stock.transport_id)
        if place in seen_places:
            faults.append((f"stocks[{i}]", f"{place[1]} is named again"))
        seen_places.add(place)
    for i, holder in enumerate(request.holders):
        if holder.port not in cities:
            faults.append((f"holders[{i}].port", f"{holder.port} is not on GITM's map"))
    return faults


def _check_open(request, cities) -> None:
    """INVALID_ARGUMENT naming every entry at fault; the open is all or nothing (MUST)."""
    faults = _open_faults(request, cities)
    if faults:
        message = "; ".join(f"{field}: {text}" for field, text in faults)
        raise errors.LandError("MALFORMED_REQUEST", message[:2000], violations=faults)


def open_(store: Store, data, request: land_pb2.OpenCampaignRequest):
    errors.check_rules(request)
    _check_open(request, data.cities)
    key = content(request, "data_digest")  # the digest is no part of the open's content
    kept = store.answer("open", request.campaign_id)
    if kept is not None:
        if kept[1] != key:
            raise errors.reused("OpenCampaign", request.campaign_id)
        answer = land_pb2.OpenCampaignResponse.FromString(kept[2])
        answer.duplicate = True
        return answer
    if request.data_digest and request.data_digest != data.digest:
        raise errors.malformed("data_digest", f"not this service's contract data ({data.digest[:8]})")
    _hold_open(store, request)
    answer = land_pb2.OpenCampaignResponse(
        campaign_id=request.campaign_id, units=len(request.units), stocks=len(request.stocks)
    )
    store.keep_answer(
        "open",
        request.campaign_id,
        request.campaign_id,
        key,
        answer.SerializeToString(deterministic=True),
    )
    return answer


def _hold_open(store: Store, request) -> None:
    """Holds exactly the positions given (L2); Unit.reserved is ignored, nothing reserved."""
    campaign = request.campaign_id
    holders = {}
    for holder in request.holders:  # a city named twice: its first entry ("Where ... silent", 3)
        holders.setdefault(holder.port, holder.state)
    holders = {port: state for port, state in holders.items() if state}  # "" is no holder
    store.run(
        "INSERT INTO campaigns (id, closed, pate_turn, holders) VALUES (?, 0, 0, ?)",
        campaign,
        json.dumps(holders, sort_keys=True),
    )
    for entry in request.units:
        unit = land_pb2.Unit()
        unit.CopyFrom(entry.unit)
        unit.reserved = False
        if entry.transport_id:
            unit.tactical_square = False
        store.run(
            "INSERT INTO units (campaign, id, unit, city, transport) VALUES (?,?,?,?,?)",
            campaign,
            unit.id,
            unit.SerializeToString(deterministic=True),
            entry.city,
            entry.transport_id,
        )
    for stock in request.stocks:
        kind, place = (CITY, stock.city) if stock.city else (TRANSPORT, stock.transport_id)
        store.run(
            "INSERT INTO stocks (campaign, kind, place, supplies) VALUES (?,?,?,?)",
            campaign,
            kind,
            place,
            stock.supplies,
        )


def close(store: Store, data, request: land_pb2.CloseCampaignRequest):
    errors.check_rules(request)
    for i, laden in enumerate(request.laden):
        if laden.city and laden.city not in data.cities:
            raise errors.malformed(f"laden[{i}].city", f"{laden.city} is not on GITM's map")
    kept = store.answer("close", request.campaign_id)
    if kept is not None:  # last_turn and laden are no part of a close's content
        answer = land_pb2.CloseCampaignResponse.FromString(kept[2])
        answer.duplicate = True
        return answer
    open_campaign(store, request.campaign_id)  # never opened: NOT_FOUND, nothing remembered
    answer = land_pb2.CloseCampaignResponse(
        campaign_id=request.campaign_id, cancelled_transfers=_cancel_open(store, request.campaign_id)
    )
    for laden in request.laden:  # after the cancellations (MUST)
        if laden.city:
            _land_cargo(store, request.campaign_id, laden)
    store.run("UPDATE campaigns SET closed=1 WHERE id=?", request.campaign_id)
    store.keep_answer(
        "close",
        request.campaign_id,
        request.campaign_id,
        b"",
        answer.SerializeToString(deterministic=True),
    )
    return answer


def _cancel_open(store: Store, campaign: str) -> int:
    rows = store.all("SELECT status FROM transfers WHERE campaign=? AND state=?", campaign, BEGUN)
    for (blob,) in rows:
        status = land_pb2.TransferStatus.FromString(blob)
        status.state = CANCELLED
        set_status(store, status)
    return len(rows)


def _land_cargo(store: Store, campaign: str, laden) -> None:
    """A laden group in an on-map port: what GITM holds aboard of it lands there (A24)."""
    for unit_id in dict.fromkeys(laden.units):
        row = store.unit(campaign, unit_id)
        if row is not None and not row[3] and row[2] == laden.transport_id:
            store.place_unit(campaign, unit_id, laden.city, "", tactical=True)
    landed = min(laden.supplies, store.stock(campaign, TRANSPORT, laden.transport_id))
    if landed:
        store.add_stock(campaign, TRANSPORT, laden.transport_id, -landed)
        store.add_stock(campaign, CITY, laden.city, landed)
