"""What GITM's own rules did to the units, cities and stocks PATE relies on (edition 4,
``ListLandEvents``; docs/gitm.md "Land events").  The reference service has no land game of its
own: ``ReferenceAdmin.InjectLandEvent`` stands in for one (the tests, the demo), changes the land
as the event says and appends it to the campaign's feed, numbered from 1.  PATE reads the feed
at every turn close after the last sequence it applied; a sequence is the same event for ever."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, func, insert, select

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import (
    MAX_SUPPLIES,
    BadRequestError,
    check_count,
    check_id,
    check_opaque,
)
from services.gitm_reference.holders import set_holders
from services.gitm_reference.holds import HeldError, Holds
from services.gitm_reference.ledger import Ledger, move_units, set_stock, stock, units

PAGE = 500  # the most events one answer lists (docs/gitm.md "Land events")
MAX_SEQUENCE = 2**62
MAX_REASON = 300
UNIT_KINDS = (land_pb2.LAND_EVENT_UNIT_DESTROYED, land_pb2.LAND_EVENT_UNIT_CAPTURED)
CITY_KINDS = (land_pb2.LAND_EVENT_CITY_TAKEN, land_pb2.LAND_EVENT_STOCK_LOST)


def _event(x: Any) -> land_pb2.LandEvent:
    return land_pb2.LandEvent(
        sequence=x.sequence,
        kind=x.kind,
        unit_id=x.unit,
        transfer_id=x.transfer_id,
        city=x.city,
        captor=x.captor,
        supplies=x.supplies,
        land_turn=x.land_turn,
        reason=x.reason,
    )


def _check(e: land_pb2.LandEvent) -> None:
    if e.kind not in (*UNIT_KINDS, *CITY_KINDS):
        raise BadRequestError("event.kind must be one of the LandEventKind values but unspecified")
    if e.kind in UNIT_KINDS:
        check_id("event.unit_id", e.unit_id)
    else:
        check_id("event.city", e.city)
    needs_captor = e.kind in (land_pb2.LAND_EVENT_UNIT_CAPTURED, land_pb2.LAND_EVENT_CITY_TAKEN)
    if needs_captor and (len(e.captor) != 2 or not e.captor.isalpha() or not e.captor.isupper()):
        raise BadRequestError("event.captor must be a state's two-letter code")
    check_count("event.supplies", e.supplies, MAX_SUPPLIES)
    if len(e.reason) > MAX_REASON or "\n" in e.reason:
        raise BadRequestError(f"event.reason must be one line of at most {MAX_REASON} characters")


class LandEvents:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def list(self, r: land_pb2.ListLandEventsRequest) -> land_pb2.ListLandEventsResponse:
        check_opaque("campaign_id", r.campaign_id)
        check_count("turn", r.turn, 100_000)
        if r.after_sequence < 0 or r.after_sequence > MAX_SEQUENCE:
            raise BadRequestError(f"after_sequence must be between 0 and {MAX_SEQUENCE}")
        if r.limit < 0:
            raise BadRequestError("limit must be 0 or more", field="limit")
        limit = min(r.limit or PAGE, PAGE)  # a larger limit is answered a page of 500, with ``more``
        after = r.after_sequence

        def read(conn: Connection) -> land_pb2.ListLandEventsResponse:
            if not self.ledger.behaviour.broken("events_unopened_ok"):
                self.ledger.known(conn, r.campaign_id)
            c = t.land_events.c
            rows = conn.execute(
                select(t.land_events)
                .where(and_(c.campaign == r.campaign_id, c.sequence > after))
                .order_by(c.sequence)
                .limit(limit + 1)
            ).all()
            last = conn.execute(select(func.max(c.sequence)).where(c.campaign == r.campaign_id)).scalar()
            return land_pb2.ListLandEventsResponse(
                events=[_event(x) for x in rows[:limit]], more=len(rows) > limit, last_sequence=int(last or 0)
            )

        return self.ledger.tx(read)  # type: ignore[no-any-return]

    def inject(self, campaign: str, e: land_pb2.LandEvent) -> land_pb2.LandEvent:
        """The land game's stand-in: the event changes the land, then joins the feed."""
        check_opaque("campaign_id", campaign)
        _check(e)

        def write(conn: Connection) -> land_pb2.LandEvent:
            self.ledger.campaign(conn, campaign)
            unit = [e.unit_id] if e.kind in UNIT_KINDS else []
            hold = Holds(self.ledger).holding(conn, campaign, unit, e.city if e.kind in CITY_KINDS else "")
            if hold:  # edition 4: GITM's own rules wait while PATE holds the land (docs/gitm.md "Holds")
                raise HeldError(f"held by {hold} until its begins, its release or its expiry")
            event = land_pb2.LandEvent()
            event.CopyFrom(e)
            _apply(conn, campaign, event)
            c, rep = t.land_events.c, t.sighting_reports.c
            last = conn.execute(select(func.max(c.sequence)).where(c.campaign == campaign)).scalar()
            turn = conn.execute(select(func.max(rep.turn)).where(rep.campaign == campaign)).scalar()
            event.sequence = int(last or 0) + 1
            event.land_turn = event.land_turn or int(turn or 0)
            conn.execute(
                insert(t.land_events).values(
                    campaign=campaign,
                    sequence=event.sequence,
                    kind=event.kind,
                    unit=event.unit_id,
                    transfer_id=event.transfer_id,
                    city=event.city,
                    captor=event.captor,
                    supplies=event.supplies,
                    land_turn=event.land_turn,
                    reason=event.reason,
                )
            )
            return event

        return self.ledger.tx(write)  # type: ignore[no-any-return]


def _apply(conn: Connection, campaign: str, e: land_pb2.LandEvent) -> None:
    """What the event does to the land.  A unit keeps its reservation's record (the transfer's
    completion later moves only the units still standing, docs/gitm.md "Land events"), and the
    event names the transfer that held it when the caller did not."""
    if e.kind in UNIT_KINDS:
        row = units(conn, campaign, [e.unit_id]).get(e.unit_id)
        if row is None or row.fate:
            raise BadRequestError(f"event.unit_id: no standing unit {e.unit_id[:64]!r}")
        e.transfer_id = e.transfer_id or row.reserved_by
        e.city = e.city or row.city
        captured = e.kind == land_pb2.LAND_EVENT_UNIT_CAPTURED
        fate, captor = ("captured", e.captor) if captured else ("destroyed", "")
        move_units(conn, campaign, [e.unit_id], fate=fate, captor=captor, reserved_by="")
        return
    have, reserved = stock(conn, campaign, "city", e.city)
    if e.kind == land_pb2.LAND_EVENT_CITY_TAKEN:
        # the stock stays in the city, now the captor's depot; reserved supplies stay reserved
        e.supplies = have
        set_holders(conn, campaign, [land_pb2.PortHolder(port=e.city, state=e.captor)])
        return
    lost = min(have, e.supplies)
    e.supplies = lost
    set_stock(conn, campaign, "city", e.city, have - lost, min(reserved, have - lost))
