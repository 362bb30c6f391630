"""The questions: UnitsNear, PortHolders, GetLandSnapshot, ListLandEvents."""

import json
import sqlite3
import time

from examples.gitm_land7 import common, holds
from examples.gitm_land7.contract import ContractData
from examples.gitm_land7.errors import Fault, closed, malformed
from gitm.v1 import land_pb2 as pb


def units_near(
    db: sqlite3.Connection, request: pb.UnitsNearRequest, data: ContractData
) -> pb.UnitsNearResponse:
    if request.hold and not request.hold_request_id:
        raise malformed("hold_request_id", "is required when hold is asked")
    found = common.campaign(db, request.campaign_id)
    if request.port not in data.cities:
        raise Fault("CITY_NOT_ON_MAP", "port: not a city on GITM's map", metadata={"port": request.port})
    if found.closed:
        raise closed(request.campaign_id)
    cid = request.campaign_id
    answer = pb.UnitsNearResponse(
        units=[u.message() for u in common.units(db, cid, "city = ? AND fate = ''", request.port)],
        supplies=common.stock(db, cid, request.port, ""),
        reserved_supplies=common.reserved_stock(db, cid, request.port, ""),
    )
    if request.hold:
        answer.hold_id, answer.hold_expires_at = holds.give(db, request)
    return answer


def _holders(db: sqlite3.Connection, cid: str) -> list[pb.PortHolder]:
    rows = db.execute("SELECT port, state FROM holders WHERE campaign = ? ORDER BY port", (cid,)).fetchall()
    answer = []
    for port, state in rows:
        occupied = db.execute(
            "SELECT 1 FROM units WHERE campaign = ? AND city = ? AND state = ? AND tactical = 1 "
            "AND fate = '' LIMIT 1",
            (cid, port, state),
        ).fetchone()
        answer.append(pb.PortHolder(port=port, state=state, occupied=occupied is not None))
    return answer


def port_holders(db: sqlite3.Connection, request: pb.PortHoldersRequest) -> pb.PortHoldersResponse:
    common.campaign(db, request.campaign_id)
    return pb.PortHoldersResponse(holders=_holders(db, request.campaign_id))


def list_events(db: sqlite3.Connection, request: pb.ListLandEventsRequest) -> pb.ListLandEventsResponse:
    # This land has no game of its own, so its feed never holds an event.
    common.campaign(db, request.campaign_id)
    return pb.ListLandEventsResponse(events=[], more=False, last_sequence=0)


def snapshot(db: sqlite3.Connection, request: pb.GetLandSnapshotRequest) -> pb.LandSnapshot:
    cid = request.campaign_id
    found = common.campaign(db, cid)
    pate_turn = db.execute("SELECT pate_turn FROM campaigns WHERE id = ?", (cid,)).fetchone()[0]
    answer = pb.LandSnapshot(
        campaign_id=cid,
        pate_turn=pate_turn,
        land_turn=pate_turn,
        taken_at_unix=int(time.time()),
        last_event_sequence=0,
        closed=found.closed,
        holders=_holders(db, cid),
    )
    for u in common.units(db, cid):
        answer.units.append(
            pb.SnapshotUnit(
                unit=u.message(),
                city=u.city,
                transport_id=u.transport,
                fate=u.fate,
                captor=u.captor,
                reserved_by=u.reserved_by,
            )
        )
    for city, transport, supplies in db.execute(
        "SELECT city, transport, supplies FROM stocks WHERE campaign = ? ORDER BY city, transport",
        (cid,),
    ).fetchall():
        answer.stocks.append(
            pb.SnapshotStock(
                city=city,
                transport_id=transport,
                supplies=supplies,
                reserved=common.reserved_stock(db, cid, city, transport),
            )
        )
    for row in db.execute(
        "SELECT id, state, direction, port, transport, units, supplies, turn FROM transfers "
        "WHERE campaign = ? ORDER BY id",
        (cid,),
    ).fetchall():
        answer.transfers.append(
            pb.SnapshotTransfer(
                transfer_id=row[0],
                state=row[1],
                direction=row[2],
                port=row[3],
                transport_id=row[4],
                units=json.loads(row[5]),
                supplies=row[6],
                turn=row[7],
            )
        )
    return answer
