"""One consistent snapshot of a campaign's land (edition 4, ``GetLandSnapshot``; docs/gitm.md
"Reconciliation"): every unit, stock, holder and transfer the service holds for it, read in one
transaction under the ledger's lock, so no call's work is half seen.  PATE's operators compare it
with PATE's world (``pate gitm reconcile``)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, func, select

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.holders import Holders
from services.gitm_reference.ledger import Ledger, closed
from services.gitm_reference.transfers import STATES

DIRECTIONS = {True: land_pb2.DIRECTION_LOAD, False: land_pb2.DIRECTION_UNLOAD}


def _unit(x: Any) -> land_pb2.SnapshotUnit:
    return land_pb2.SnapshotUnit(
        unit=land_pb2.Unit(
            id=x.id,
            state=x.state,
            tactical_square=bool(x.tactical) and bool(x.city),
            infantry=x.infantry,
            cavalry=x.cavalry,
            artillery=x.artillery,
            batteries=x.batteries,
            headquarters=x.headquarters,
            supplies=x.hq_supplies,
            reserved=bool(x.reserved_by),
        ),
        city=x.city,
        transport_id=x.transport,
        fate=x.fate,
        captor=x.captor,
        reserved_by=x.reserved_by,
    )


def _transfer(x: Any) -> land_pb2.SnapshotTransfer:
    req = json.loads(x.request_json)
    refused = x.state == "refused"  # a refusal holds nothing, as GetTransfer answers it
    return land_pb2.SnapshotTransfer(
        transfer_id=x.transfer_id,
        state=STATES[x.state],
        direction=DIRECTIONS[bool(req["load"])],
        port=req["port"],
        transport_id=req["transport"],
        units=[] if refused else req["units"],
        supplies=0 if refused else req["supplies"],
        turn=int(req.get("turn", 0)),
    )


class LandSnapshots:
    def __init__(self, ledger: Ledger, holders: Holders, clock: Callable[[], float] = time.time) -> None:
        self.ledger, self.holders, self.clock = ledger, holders, clock

    def answer(self, r: land_pb2.GetLandSnapshotRequest) -> land_pb2.LandSnapshot:
        return self.ledger.tx(lambda conn: self._read(conn, r.campaign_id))  # type: ignore[no-any-return]

    def _read(self, conn: Connection, campaign: str) -> land_pb2.LandSnapshot:
        self.ledger.known(conn, campaign)
        u, s, tr = t.units.c, t.stocks.c, t.transfers.c
        units = conn.execute(select(t.units).where(u.campaign == campaign).order_by(u.id)).all()
        stocks = conn.execute(select(t.stocks).where(s.campaign == campaign).order_by(s.kind, s.place)).all()
        transfers = conn.execute(
            select(t.transfers).where(tr.campaign == campaign).order_by(tr.transfer_id)
        ).all()
        if self.ledger.behaviour.broken("snapshot_hides_open"):
            transfers = [x for x in transfers if x.state != "begun"]
        rep, ev = t.sighting_reports.c, t.land_events.c
        pate_turn = conn.execute(select(func.max(rep.turn)).where(rep.campaign == campaign)).scalar()
        last = conn.execute(select(func.max(ev.sequence)).where(ev.campaign == campaign)).scalar()
        holders = self.holders.read(conn, campaign)
        return land_pb2.LandSnapshot(
            campaign_id=campaign,
            units=[_unit(x) for x in units],
            stocks=[
                land_pb2.SnapshotStock(
                    city=x.place if x.kind == "city" else "",
                    transport_id=x.place if x.kind == "transport" else "",
                    supplies=x.supplies,
                    reserved=x.reserved,
                )
                for x in stocks
            ],
            holders=holders,
            transfers=[_transfer(x) for x in transfers],
            pate_turn=int(pate_turn or 0),
            # the reference service resolves one land turn per PATE turn (rule 3.1): its counter is PATE's
            land_turn=int(pate_turn or 0),
            taken_at_unix=int(self.clock()),
            last_event_sequence=int(last or 0),
            closed=closed(conn, campaign),
        )
