"""OpenCampaign and CloseCampaign (docs/gitm.md "Opening and closing")."""

import sqlite3

from examples.gitm_land7 import common
from examples.gitm_land7.contract import ContractData
from examples.gitm_land7.errors import Fault, malformed, not_opened, reused
from gitm.v1 import land_pb2 as pb


def _check_open(request: pb.OpenCampaignRequest, data: ContractData) -> None:
    """The rules of an open no single field's rule can say; each names its entry."""
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i, entry in enumerate(request.units):
        if bool(entry.city) == bool(entry.transport_id):
            problems.append((f"units[{i}]", "must name exactly one of city and transport_id"))
        elif entry.city and entry.city not in data.cities:
            problems.append((f"units[{i}].city", "is not a city on GITM's map"))
        if entry.unit.id in seen:
            problems.append((f"units[{i}].unit.id", "names a unit named before"))
        seen.add(entry.unit.id)
    places: set[tuple[str, str]] = set()
    for i, stock in enumerate(request.stocks):
        if bool(stock.city) == bool(stock.transport_id):
            problems.append((f"stocks[{i}]", "must name exactly one of city and transport_id"))
        elif stock.city and stock.city not in data.cities:
            problems.append((f"stocks[{i}].city", "is not a city on GITM's map"))
        place = (stock.city, stock.transport_id)
        if place in places:
            problems.append((f"stocks[{i}]", "names a place named before"))
        places.add(place)
    for i, holder in enumerate(request.holders):
        if holder.port not in data.cities:
            problems.append((f"holders[{i}].port", "is not a city on GITM's map"))
    if problems:
        raise Fault("MALFORMED_REQUEST", f"{problems[0][0]} {problems[0][1]}", problems)


def open_campaign(
    db: sqlite3.Connection, request: pb.OpenCampaignRequest, data: ContractData
) -> pb.OpenCampaignResponse:
    _check_open(request, data)
    body = common.content(request, "data_digest")
    row = db.execute("SELECT content, answer FROM campaigns WHERE id = ?", (request.campaign_id,)).fetchone()
    if row is not None:
        if bytes(row[0]) != body:
            raise reused("OpenCampaign", request.campaign_id)
        answer = pb.OpenCampaignResponse.FromString(bytes(row[1]))
        answer.duplicate = True
        return answer
    # The digest is no part of a repeat's content, so only a new open is refused for it.
    if request.data_digest and request.data_digest != data.digest:
        raise malformed("data_digest", "is not this land service's contract data digest")
    cid = request.campaign_id
    for entry in request.units:
        u = entry.unit
        db.execute(
            "INSERT INTO units (campaign, id, state, infantry, cavalry, artillery, batteries, "
            "headquarters, supplies, city, transport, tactical) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                cid,
                u.id,
                u.state,
                u.infantry,
                u.cavalry,
                u.artillery,
                u.batteries,
                u.headquarters,
                u.supplies,
                entry.city,
                entry.transport_id,
                int(bool(entry.city) and u.tactical_square),
            ),
        )
    for stock in request.stocks:
        common.add_stock(db, cid, stock.city, stock.transport_id, stock.supplies)
    for holder in request.holders:
        if holder.state:
            db.execute(
                "INSERT OR REPLACE INTO holders (campaign, port, state) VALUES (?, ?, ?)",
                (cid, holder.port, holder.state),
            )
    answer = pb.OpenCampaignResponse(campaign_id=cid, units=len(request.units), stocks=len(request.stocks))
    db.execute(
        "INSERT INTO campaigns (id, content, answer) VALUES (?, ?, ?)",
        (cid, body, answer.SerializeToString()),
    )
    return answer


def close_campaign(
    db: sqlite3.Connection, request: pb.CloseCampaignRequest, data: ContractData
) -> pb.CloseCampaignResponse:
    for i, laden in enumerate(request.laden):
        if laden.city and laden.city not in data.cities:
            raise malformed(f"laden[{i}].city", "is not a city on GITM's map")
    cid = request.campaign_id
    row = db.execute("SELECT close_answer FROM campaigns WHERE id = ?", (cid,)).fetchone()
    if row is None:
        raise not_opened(cid)
    if row[0] is not None:
        answer = pb.CloseCampaignResponse.FromString(bytes(row[0]))
        answer.duplicate = True
        return answer
    # First every open transfer is cancelled, then the cargo aboard is landed (the order is a MUST).
    begun = db.execute(
        "SELECT id FROM transfers WHERE campaign = ? AND state = ?",
        (cid, pb.TRANSFER_STATE_BEGUN),
    ).fetchall()
    db.execute(
        "UPDATE transfers SET state = ? WHERE campaign = ? AND state = ?",
        (pb.TRANSFER_STATE_CANCELLED, cid, pb.TRANSFER_STATE_BEGUN),
    )
    db.execute("UPDATE units SET reserved_by = '' WHERE campaign = ?", (cid,))
    for laden in request.laden:
        if not laden.city:
            continue
        for unit_id in laden.units:
            found = common.unit(db, cid, unit_id)
            if found and not found.fate and found.transport == laden.transport_id:
                common.place_unit(db, cid, unit_id, laden.city, "", True)
        aboard = common.stock(db, cid, "", laden.transport_id)
        moved = min(aboard, laden.supplies)
        if moved:
            common.add_stock(db, cid, "", laden.transport_id, -moved)
            common.add_stock(db, cid, laden.city, "", moved)
    answer = pb.CloseCampaignResponse(campaign_id=cid, cancelled_transfers=len(begun))
    db.execute(
        "UPDATE campaigns SET closed = 1, close_answer = ? WHERE id = ?",
        (answer.SerializeToString(), cid),
    )
    return answer
