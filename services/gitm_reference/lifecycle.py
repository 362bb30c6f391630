"""A campaign's life on the land side (docs/gitm.md "A campaign"): what the
service serves (GetCapabilities), a campaign opened with its initial
positions (OpenCampaign, the land from then on) and closed after its last
turn (CloseCampaign: open transfers cancelled, later calls refused)."""

from __future__ import annotations

from sqlalchemy import Connection, and_, insert, select, update

from gitm.v1 import land_pb2
from pate.gitmkit.contract_data import data_digest, digest_of
from services.gitm_reference import tables as t
from services.gitm_reference.checks import (
    BadRequestError,
)
from services.gitm_reference.holders import set_holders
from services.gitm_reference.ledger import Ledger, closed, move_units, set_stock, station_unit, stock, units

EDITION = 4  # docs/gitm.md "Versioning": edition 4 adds GetLandSnapshot and ListLandEvents
CALLS = tuple(m.name for m in land_pb2.DESCRIPTOR.services_by_name["LandBridge"].methods)
OPENED = "opened by PATE"


class Lifecycle:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def capabilities(self) -> land_pb2.Capabilities:
        # the mutant caps_lie lists every call, yet answers ReportCargoMoves UNIMPLEMENTED (servicer.py)
        return land_pb2.Capabilities(
            edition=EDITION,
            calls=CALLS,
            implementation="PATE reference land service",
            data_digest=self.digest(),
        )

    def digest(self) -> str:
        """docs/gitm.md A9: the digest of the contract data it loaded (PATE's own map and nations)."""
        if self.ledger.behaviour.broken("stale_data"):
            return digest_of(["A city of another release"], ["BR"])
        return data_digest()

    def open(self, r: land_pb2.OpenCampaignRequest) -> land_pb2.OpenCampaignResponse:
        for i, u in enumerate(r.units):
            if bool(u.city) == bool(u.transport_id):
                raise BadRequestError(f"units[{i}] {u.unit.id[:64]}: give one of city and transport_id")
        for i, k in enumerate(r.stocks):
            if bool(k.city) == bool(k.transport_id):
                raise BadRequestError(f"stocks[{i}]: give one of city and transport_id")
        _once([u.unit.id for u in r.units], "units[{}].unit.id")
        _once([(k.city, k.transport_id) for k in r.stocks], "stocks[{}]")
        _once([h.port for h in r.holders], "holders[{}]")
        if not self.ledger.behaviour.broken("open_unmapped_ok"):
            self._on_map(r)
        return self.ledger.tx(lambda conn: self._open(conn, r))  # type: ignore[no-any-return]

    def _check_digest(self, r: land_pb2.OpenCampaignRequest) -> None:
        """A9: refused only for a new open; the transaction that recorded it rolls back."""
        if r.data_digest and r.data_digest != self.digest():
            raise BadRequestError(
                f"data_digest: PATE read contract data {r.data_digest[:16]}...,"
                f" this service {self.digest()[:16]}..."
            )

    def _on_map(self, r: land_pb2.OpenCampaignRequest) -> None:
        """docs/gitm.md "Opening and closing": a city GITM does not know means the two sides read
        different maps, which the open must say at once rather than hold a place no call reaches."""
        cities = [("units", i, u.city) for i, u in enumerate(r.units)]
        cities += [("stocks", i, k.city) for i, k in enumerate(r.stocks)]
        for field, i, city in cities:
            if city and not self.ledger.on_map(city):
                raise BadRequestError(f"{field}[{i}].city: {city[:64]!r} is not on the GITM map")
        for i, h in enumerate(r.holders):
            if h.port and not self.ledger.on_map(h.port):
                raise BadRequestError(f"holders[{i}].port: {h.port[:64]!r} is not on the GITM map")

    def _open(self, conn: Connection, r: land_pb2.OpenCampaignRequest) -> land_pb2.OpenCampaignResponse:
        if closed(conn, r.campaign_id):
            self.ledger.campaign(conn, r.campaign_id)  # refuses: the campaign is over
        same = land_pb2.OpenCampaignRequest()
        same.CopyFrom(r)
        same.ClearField("data_digest")  # not the open's content: a repeat after an upgrade is the same open
        new = self.ledger.first_time(conn, "open", r.campaign_id, same)
        answer = land_pb2.OpenCampaignResponse(
            campaign_id=r.campaign_id, units=len(r.units), stocks=len(r.stocks), duplicate=not new
        )
        if not new:
            return answer
        self._check_digest(r)
        # an earlier call may have seeded the campaign from the service's own scenario: PATE's word wins
        for table in (t.units, t.stocks, t.holders):
            conn.execute(table.delete().where(table.c.campaign == r.campaign_id))
        conn.execute(t.campaigns.delete().where(t.campaigns.c.campaign == r.campaign_id))
        conn.execute(insert(t.campaigns).values(campaign=r.campaign_id, seeded_from=OPENED))
        for u in r.units:
            station_unit(conn, r.campaign_id, u.unit, city=u.city, transport=u.transport_id)
        # an empty state is a city with no holder (its rule allows it): nothing to hold
        set_holders(conn, r.campaign_id, [h for h in r.holders if h.state])
        if not self.ledger.behaviour.broken("open_ignores_supplies"):
            for k in r.stocks:
                kind, place = ("city", k.city) if k.city else ("transport", k.transport_id)
                set_stock(conn, r.campaign_id, kind, place, k.supplies, 0)
        return answer

    def close(self, r: land_pb2.CloseCampaignRequest) -> land_pb2.CloseCampaignResponse:
        for i, x in enumerate(r.laden):
            if x.city and not self.ledger.on_map(x.city):
                raise BadRequestError(f"laden[{i}].city: {x.city[:64]!r} is not on the GITM map")
        return self.ledger.tx(lambda conn: self._close(conn, r))  # type: ignore[no-any-return]

    def _close(self, conn: Connection, r: land_pb2.CloseCampaignRequest) -> land_pb2.CloseCampaignResponse:
        c = t.closed_campaigns.c
        row = conn.execute(select(c.cancelled).where(c.campaign == r.campaign_id)).first()
        if row is not None:
            return land_pb2.CloseCampaignResponse(
                campaign_id=r.campaign_id, cancelled_transfers=row.cancelled, duplicate=True
            )
        tr = t.transfers.c
        begun = and_(tr.campaign == r.campaign_id, tr.state == "begun")
        cancelled = len(conn.execute(select(tr.transfer_id).where(begun)).all())
        conn.execute(update(t.transfers).where(begun).values(state="cancelled"))
        u, s = t.units.c, t.stocks.c
        conn.execute(update(t.units).where(u.campaign == r.campaign_id).values(reserved_by=""))
        conn.execute(update(t.stocks).where(s.campaign == r.campaign_id).values(reserved=0))
        _disembark(conn, r)
        conn.execute(
            insert(t.closed_campaigns).values(
                campaign=r.campaign_id, last_turn=r.last_turn, cancelled=cancelled
            )
        )
        return land_pb2.CloseCampaignResponse(campaign_id=r.campaign_id, cancelled_transfers=cancelled)


def _once(keys: list[object], path: str) -> None:
    """docs/gitm.md "Opening and closing": an open names each unit and each place once; the
    later entry of a pair is the one named (``units[3].unit.id``, ``stocks[5]``)."""
    seen: set[object] = set()
    for i, key in enumerate(keys):
        if key in seen:
            raise BadRequestError(f"{path.format(i)}: named twice in the open", field=path.format(i))
        seen.add(key)


def _disembark(conn: Connection, r: land_pb2.CloseCampaignRequest) -> None:
    """docs/gitm.md A24: the cargo of a transport lying in an on-map city's port at the close is
    landed there (units in the city itself, supplies into its stock); elsewhere it is the land
    game's to place, and the reference service, which has no game of its own, leaves it aboard.
    Only what it holds aboard moves: the close names, it does not create."""
    for x in r.laden:
        if not x.city:
            continue
        held = units(conn, r.campaign_id, x.units)
        aboard = [u for u, row in held.items() if row.transport == x.transport_id and not row.fate]
        move_units(conn, r.campaign_id, aboard, city=x.city, tactical=True, transport="")
        have, _ = stock(conn, r.campaign_id, "transport", x.transport_id)
        landed = min(have, x.supplies)
        if landed:
            set_stock(conn, r.campaign_id, "transport", x.transport_id, have - landed, 0)
            city, reserved = stock(conn, r.campaign_id, "city", x.city)
            set_stock(conn, r.campaign_id, "city", x.city, city + landed, reserved)
