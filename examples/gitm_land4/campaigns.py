"""GetCapabilities, OpenCampaign, CloseCampaign ("Opening and closing", L1, L2, L22, L33)."""

from __future__ import annotations

from examples.gitm_land4 import checks, errors, transfers
from examples.gitm_land4.common import Clock, content
from examples.gitm_land4.contract import EDITION, IMPLEMENTATION, Contract
from examples.gitm_land4.store import CITY, TRANSPORT, Store, UnitRow
from gitm.v1 import land_pb2 as pb


def capabilities(contract: Contract) -> pb.Capabilities:
    return pb.Capabilities(
        edition=EDITION,
        calls=list(contract.calls),
        implementation=IMPLEMENTATION,
        data_digest=contract.digest,
    )


def open_campaign(
    store: Store, contract: Contract, clock: Clock, req: pb.OpenCampaignRequest
) -> pb.OpenCampaignResponse:
    _check_open(contract, req)
    # The digest is not part of the open's content: a repeat after an upgrade is the same open.
    body = content(req, "data_digest")
    with store.transaction():
        known = store.campaign(req.campaign_id)
        if known is not None:
            if bytes(known[0]) != body:
                raise errors.id_reused("OpenCampaign", req.campaign_id)
            answer = pb.OpenCampaignResponse.FromString(known[1])
            answer.duplicate = True
            return answer
        answer = pb.OpenCampaignResponse(
            campaign_id=req.campaign_id, units=len(req.units), stocks=len(req.stocks)
        )
        store.add_campaign(req.campaign_id, body, answer.SerializeToString(), clock())
        _place(store, req)
        return answer


def _place(store: Store, req: pb.OpenCampaignRequest) -> None:
    cid = req.campaign_id
    for entry in req.units:
        size = pb.Unit()
        size.CopyFrom(entry.unit)
        for cleared in ("id", "state", "tactical_square", "reserved"):
            size.ClearField(cleared)
        store.put_unit(
            UnitRow(
                cid,
                entry.unit.id,
                entry.unit.state,
                size.SerializeToString(),
                entry.city,
                bool(entry.city) and entry.unit.tactical_square,
                entry.transport_id,
                "",
                "",
            )
        )
    for stock in req.stocks:
        kind, place = (CITY, stock.city) if stock.city else (TRANSPORT, stock.transport_id)
        store.set_stock(cid, kind, place, stock.supplies)
    for holder in req.holders:
        store.set_holder(cid, holder.port, holder.state)


def _check_open(contract: Contract, req: pb.OpenCampaignRequest) -> None:
    """All or nothing (B4): any broken rule is INVALID_ARGUMENT naming the entry."""
    checks.opaque("campaign_id", req.campaign_id)
    checks.short("scenario", req.scenario, checks.SCENARIO_CHARS)
    checks.turn("turns", req.turns)
    for field in ("units", "stocks", "holders"):
        if len(getattr(req, field)) > checks.MAX_OPEN_ENTRIES:
            raise errors.invalid(field, f"must hold at most {checks.MAX_OPEN_ENTRIES} entries")
    seen: set[str] = set()
    for index, entry in enumerate(req.units):
        at = f"units[{index}]"
        checks.unit(f"{at}.unit", entry.unit)
        if entry.unit.id in seen:
            raise errors.invalid(f"{at}.unit.id", "names a unit listed before")
        seen.add(entry.unit.id)
        _check_place(contract, at, entry.city, entry.transport_id)
    places: set[tuple[str, str]] = set()
    for index, stock in enumerate(req.stocks):
        at = f"stocks[{index}]"
        _check_place(contract, at, stock.city, stock.transport_id)
        checks.supplies(f"{at}.supplies", stock.supplies)
        place = (stock.city, stock.transport_id)
        if place in places:
            raise errors.invalid(at, "names a place listed before")
        places.add(place)
    ports: set[str] = set()
    for index, holder in enumerate(req.holders):
        at = f"holders[{index}]"
        if holder.port not in contract.cities:
            raise errors.invalid(f"{at}.port", "is not a city on the GITM map")
        if holder.state:
            checks.state(f"{at}.state", holder.state)
        if holder.port in ports:
            raise errors.invalid(f"{at}.port", "names a city listed before")
        ports.add(holder.port)
    if req.data_digest and req.data_digest != contract.digest:
        raise errors.invalid(
            "data_digest", "is not this land service's contract data digest (docs/gitm.md A9)"
        )


def _check_place(contract: Contract, at: str, city: str, transport_id: str) -> None:
    if bool(city) == bool(transport_id):
        raise errors.invalid(f"{at}.city", "and transport_id: exactly one must be given")
    if city and city not in contract.cities:
        raise errors.invalid(f"{at}.city", "is not a city on the GITM map")
    if transport_id:
        checks.name(f"{at}.transport_id", transport_id)


def close_campaign(
    store: Store, contract: Contract, req: pb.CloseCampaignRequest
) -> pb.CloseCampaignResponse:
    checks.close(req)
    with store.transaction():
        known = store.campaign(req.campaign_id)
        if known is None:
            raise errors.campaign_not_opened(req.campaign_id)
        if known[2]:
            # A repeat, whatever its last_turn: the first figures (not an id of L12).
            answer = pb.CloseCampaignResponse.FromString(known[3])
            answer.duplicate = True
            return answer
        cancelled = transfers.cancel_open(store, req.campaign_id)
        for laden in req.laden:
            _land_cargo(store, contract, req.campaign_id, laden)
        answer = pb.CloseCampaignResponse(campaign_id=req.campaign_id, cancelled_transfers=cancelled)
        store.close_campaign(req.campaign_id, answer.SerializeToString())
        return answer


def _land_cargo(store: Store, contract: Contract, cid: str, laden: pb.LadenTransport) -> None:
    """A24: the cargo of a group in an on-map port lands there; elsewhere it stays aboard.

    Only what this service holds aboard moves: a unit or supply it does not hold is
    ignored, never created.
    """
    if laden.city not in contract.cities:
        return
    for uid in dict.fromkeys(laden.units):
        row = store.unit(cid, uid)
        if row is not None and row.standing() and row.transport == laden.transport_id:
            row.transport, row.city, row.tactical = "", laden.city, True
            store.put_unit(row)
    moved = min(laden.supplies, store.stock(cid, TRANSPORT, laden.transport_id))
    if moved:
        store.add_stock(cid, TRANSPORT, laden.transport_id, -moved)
        store.add_stock(cid, CITY, laden.city, moved)
