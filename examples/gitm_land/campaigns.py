"""GetCapabilities, OpenCampaign, CloseCampaign and UnitsNear (L1 to L3, L22)."""

from __future__ import annotations

from examples.gitm_land import checks, transfers
from examples.gitm_land.errors import conflict, invalid, not_found
from examples.gitm_land.land import LOAD, Land, digest
from examples.gitm_land.store import ABOARD, CITY, TRANSPORT
from gitm.v1 import land_pb2 as pb

EDITION = 3
CALLS = (
    "PortHolders",
    "BeginTransfer",
    "CompleteTransfer",
    "UnitsNear",
    "GetTransfer",
    "ReportSightings",
    "ReportCargoLoss",
    "ReportCargoMoves",
    "GetCapabilities",
    "OpenCampaign",
    "CloseCampaign",
)
IMPLEMENTATION = "examples.gitm_land 1.0 (independent, SQLite)"
_HEADQUARTERS = ("", "none", "army", "corps")


def capabilities() -> pb.Capabilities:
    return pb.Capabilities(edition=EDITION, calls=CALLS, implementation=IMPLEMENTATION)


def _check_unit(land: Land, field: str, placed: pb.InitialUnit) -> None:
    unit = placed.unit
    checks.name_id(f"{field}.unit.id", unit.id)
    checks.state(f"{field}.unit.state", unit.state)
    for arm in ("infantry", "cavalry", "artillery", "batteries", "supplies"):
        checks.count(f"{field}.unit.{arm}", getattr(unit, arm), checks.MAX_MEN)
    if unit.headquarters not in _HEADQUARTERS:
        raise invalid(f"{field}.unit.headquarters", "must be '', 'none', 'army' or 'corps'")
    _check_place(land, field, placed.city, placed.transport_id)


def _check_place(land: Land, field: str, city: str, transport: str) -> None:
    if bool(city) == bool(transport):
        raise invalid(field, "names exactly one of city and transport_id")
    if city:
        checks.city(f"{field}.city", city)
        if city not in land.cities:
            raise invalid(f"{field}.city", f"{city!r} is not on GITM's map")
    else:
        checks.name_id(f"{field}.transport_id", transport)


def _check_open(land: Land, req: pb.OpenCampaignRequest) -> str:
    checks.opaque_id("campaign_id", req.campaign_id)
    if len(req.scenario) > checks.OPAQUE_MAX:
        raise invalid("scenario", f"is longer than {checks.OPAQUE_MAX} characters")
    checks.turn("turns", req.turns)
    checks.count("units", len(req.units), 100 * checks.MAX_ITEMS)
    checks.count("stocks", len(req.stocks), 100 * checks.MAX_ITEMS)
    seen: set[str] = set()
    for i, placed in enumerate(req.units):
        _check_unit(land, f"units[{i}]", placed)
        if placed.unit.id in seen:
            raise invalid(f"units[{i}].unit.id", f"{placed.unit.id} is listed twice")
        seen.add(placed.unit.id)
    places: set[tuple[str, str]] = set()
    for i, stock in enumerate(req.stocks):
        _check_place(land, f"stocks[{i}]", stock.city, stock.transport_id)
        checks.count(f"stocks[{i}].supplies", stock.supplies, checks.MAX_SUPPLIES)
        if (stock.city, stock.transport_id) in places:
            raise invalid(f"stocks[{i}]", "names a place listed before")
        places.add((stock.city, stock.transport_id))
    held: set[str] = set()
    for i, h in enumerate(req.holders):
        _check_place(land, f"holders[{i}]", h.port, "")
        checks.state(f"holders[{i}].state", h.state)
        if h.port in held:
            raise invalid(f"holders[{i}].port", f"{h.port!r} is listed twice")
        held.add(h.port)
    canonical = pb.OpenCampaignRequest()
    canonical.CopyFrom(req)
    canonical.holders.sort(key=lambda h: h.port)
    canonical.units.sort(key=lambda p: p.unit.id)
    canonical.stocks.sort(key=lambda s: (s.city, s.transport_id))
    return digest(canonical)


def open_campaign(land: Land, req: pb.OpenCampaignRequest) -> pb.OpenCampaignResponse:
    content = _check_open(land, req)
    old = land.store.campaign(req.campaign_id)
    if old is not None:
        if old[0] != content:
            raise conflict("campaign_id", req.campaign_id)
        answer = pb.OpenCampaignResponse.FromString(old[1])
        answer.duplicate = True
        return answer
    cid, store = req.campaign_id, land.store
    answer = pb.OpenCampaignResponse(campaign_id=cid, units=len(req.units), stocks=len(req.stocks))
    store.open_campaign(cid, content, answer.SerializeToString(deterministic=True))
    for placed in req.units:
        if placed.city:
            store.put_unit(cid, placed.unit, CITY, placed.city)
        else:
            store.put_unit(cid, placed.unit, ABOARD, placed.transport_id)
    for stock in req.stocks:
        kind, where = (CITY, stock.city) if stock.city else (TRANSPORT, stock.transport_id)
        store.set_stock(cid, kind, where, stock.supplies)
    for h in req.holders:
        store.set_holder(cid, h.port, h.state)
    return answer


def port_holders(land: Land, req: pb.PortHoldersRequest) -> pb.PortHoldersResponse:
    """Edition 3: who holds each city, occupied when a unit of the holder stands in it."""
    cid = checks.opaque_id("campaign_id", req.campaign_id)
    checks.turn("turn", req.turn)
    land.opened_campaign(cid)
    answer = pb.PortHoldersResponse()
    for city, state in land.store.holders(cid):
        here = land.store.units_at(cid, CITY, city)
        occupied = any(u.state == state and u.tactical for u in here)
        answer.holders.add(port=city, state=state, occupied=occupied)
    return answer


def close_campaign(land: Land, req: pb.CloseCampaignRequest) -> pb.CloseCampaignResponse:
    checks.opaque_id("campaign_id", req.campaign_id)
    checks.turn("last_turn", req.last_turn)
    row = land.store.campaign(req.campaign_id)
    if row is None:
        raise not_found(f"campaign_id: campaign {req.campaign_id!r} was never opened")
    if row[2] is not None:
        answer = pb.CloseCampaignResponse.FromString(row[2])
        answer.duplicate = True
        return answer
    open_now = land.store.open_transfers(req.campaign_id)
    for t in open_now:
        status = pb.TransferStatus.FromString(t.answer)
        status.state = pb.TRANSFER_STATE_CANCELLED
        transfers.finish(land, t, status)
    answer = pb.CloseCampaignResponse(campaign_id=req.campaign_id, cancelled_transfers=len(open_now))
    land.store.close_campaign(req.campaign_id, answer.SerializeToString(deterministic=True))
    return answer


def units_near(land: Land, req: pb.UnitsNearRequest) -> pb.UnitsNearResponse:
    cid = checks.opaque_id("campaign_id", req.campaign_id)
    checks.turn("turn", req.turn)
    checks.city("port", req.port)
    land.opened_campaign(cid)
    if req.port not in land.cities:
        raise not_found(f"port: {req.port!r} is not on GITM's map")
    held = land.reserved_units(cid)
    loads = {uid for uid, tid in held.items() if _is_load(land, tid)}
    units = [u.message(reserved=u.id in loads) for u in land.store.units_at(cid, CITY, req.port)]
    return pb.UnitsNearResponse(
        units=units,
        supplies=land.store.stock(cid, CITY, req.port),
        reserved_supplies=land.reserved_city_supplies(cid, req.port),
    )


def _is_load(land: Land, tid: str) -> bool:
    t = land.store.transfer(tid)
    return t is not None and t.direction == LOAD
