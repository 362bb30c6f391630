"""The reference service's own administration (gitm.v1.ReferenceAdmin):
stationing units and supplies for a test, and a snapshot of a campaign's
land side to check what GITM was told."""

from __future__ import annotations

from sqlalchemy import Connection, select

from gitm.v1 import land_pb2, reference_admin_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import MAX_SUPPLIES, MAX_UNITS, BadRequestError, check_count, check_id
from services.gitm_reference.holders import set_holders
from services.gitm_reference.ledger import Ledger, set_stock, station_unit


class Administration:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def station(self, r: reference_admin_pb2.StationRequest) -> reference_admin_pb2.StationResponse:
        check_count("units", len(r.units), 10 * MAX_UNITS)

        def write(conn: Connection) -> reference_admin_pb2.StationResponse:
            for s in r.units:
                check_id("units[].campaign_id", s.campaign_id)
                check_id("units[].unit.id", s.unit.id)
                if bool(s.city) == bool(s.transport_id):
                    raise BadRequestError(f"unit {s.unit.id}: give one of city and transport_id")
                self.ledger.campaign(conn, s.campaign_id)
                station_unit(conn, s.campaign_id, s.unit, city=s.city, transport=s.transport_id)
            for k in r.supplies:
                check_id("supplies[].campaign_id", k.campaign_id)
                if bool(k.city) == bool(k.transport_id):
                    raise BadRequestError("supplies: give one of city and transport_id")
                check_count("supplies[].supplies", k.supplies, MAX_SUPPLIES)
                self.ledger.campaign(conn, k.campaign_id)
                kind, place = ("city", k.city) if k.city else ("transport", k.transport_id)
                set_stock(conn, k.campaign_id, kind, place, k.supplies, 0)
            for h in r.holders:  # a city taken on land, as the land game would report it
                check_id("holders[].campaign_id", h.campaign_id)
                self.ledger.campaign(conn, h.campaign_id)
                set_holders(conn, h.campaign_id, [land_pb2.PortHolder(port=h.city, state=h.state)])
            return reference_admin_pb2.StationResponse(units=len(r.units), stocks=len(r.supplies))

        return self.ledger.tx(write)  # type: ignore[no-any-return]

    def snapshot(self, campaign: str) -> reference_admin_pb2.SnapshotResponse:
        def read(conn: Connection) -> reference_admin_pb2.SnapshotResponse:
            u, s = t.units.c, t.stocks.c
            units = conn.execute(select(t.units).where(u.campaign == campaign).order_by(u.id)).all()
            stocks = conn.execute(
                select(t.stocks).where(s.campaign == campaign).order_by(s.kind, s.place)
            ).all()
            lost = conn.execute(
                select(t.losses_total.c.supplies).where(t.losses_total.c.campaign == campaign)
            ).scalar()
            rep = t.sighting_reports.c
            reports = conn.execute(select(rep.sightings).where(rep.campaign == campaign)).all()
            return reference_admin_pb2.SnapshotResponse(
                units=[
                    reference_admin_pb2.UnitPlace(
                        id=x.id,
                        state=x.state,
                        city=x.city,
                        tactical_square=x.tactical,
                        transport_id=x.transport,
                        fate=x.fate,
                        captor=x.captor,
                        reserved_by=x.reserved_by,
                    )
                    for x in units
                ],
                supplies=[
                    reference_admin_pb2.SupplyStock(
                        campaign_id=campaign,
                        city=x.place if x.kind == "city" else "",
                        transport_id=x.place if x.kind == "transport" else "",
                        supplies=x.supplies,
                    )
                    for x in stocks  # an empty stock too: zero is what GITM holds there
                ],
                supplies_lost=int(lost or 0),
                sightings=sum(r.sightings for r in reports),
                sighting_reports=len(reports),
            )

        return self.ledger.tx(read)  # type: ignore[no-any-return]
