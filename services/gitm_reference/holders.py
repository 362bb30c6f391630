"""Who holds each city (edition 3, docs/gitm.md "Port holders"): set by ``OpenCampaign`` from
PATE's controllers, changed by the land game (here: ``ReferenceAdmin.Station``'s holders, the
tests' and the demo's stand-in for a city taken on land), and asked by PATE at each turn close
(``PortHolders``) so that a port captured on land reaches EiA rule 12.2.8.2's hulks."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, and_, insert, select

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import BadRequestError
from services.gitm_reference.ledger import Ledger


def set_holders(conn: Connection, campaign: str, holders: Iterable[land_pb2.PortHolder]) -> None:
    """Each city's holder from now on, written in one statement (an open names every city)."""
    rows: dict[str, str] = {}
    for i, h in enumerate(holders):
        if len(h.state) != 2 or not h.state.isalpha() or not h.state.isupper():
            raise BadRequestError(f"holders[{i}].state must be a state's two-letter code")
        rows[h.port] = h.state
    if not rows:
        return
    c = t.holders.c
    conn.execute(t.holders.delete().where(and_(c.campaign == campaign, c.city.in_(list(rows)))))
    conn.execute(insert(t.holders), [{"campaign": campaign, "city": k, "state": v} for k, v in rows.items()])


class Holders:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def answer(self, r: land_pb2.PortHoldersRequest) -> land_pb2.PortHoldersResponse:
        def read(conn: Connection) -> land_pb2.PortHoldersResponse:
            self.ledger.known(conn, r.campaign_id)
            return land_pb2.PortHoldersResponse(holders=self.read(conn, r.campaign_id))

        return self.ledger.tx(read)  # type: ignore[no-any-return]

    def read(self, conn: Connection, campaign: str) -> list[land_pb2.PortHolder]:
        """Each city's holder now, and whether the holder's land force stands in it (one
        transaction's view: ``GetLandSnapshot`` reads it beside the units)."""
        c, u = t.holders.c, t.units.c
        rows = conn.execute(select(t.holders).where(c.campaign == campaign).order_by(c.city)).all()
        if self.ledger.behaviour.broken("holders_forgotten"):
            rows = []
        standing = conn.execute(
            select(u.city, u.state).where(
                and_(u.campaign == campaign, u.tactical, u.fate == "", u.transport == "")
            )
        ).all()
        present = {(x.city, x.state) for x in standing}
        return [
            land_pb2.PortHolder(port=h.city, state=h.state, occupied=(h.city, h.state) in present)
            for h in rows
        ]
