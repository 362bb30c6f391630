"""What the land side sees and is told during a turn: the units near a port,
the sightings PATE reports, and the cargo lost or captured with a transport
group.  Every report is kept by its id, so that a repeated call gets the
first answer (docs/gitm.md)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import (
    BadRequestError,
)
from services.gitm_reference.holds import Holds
from services.gitm_reference.ledger import Ledger, move_units, set_stock, stock, units


class TurnReports:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def units_near(self, r: land_pb2.UnitsNearRequest) -> land_pb2.UnitsNearResponse:
        def read(conn: Connection) -> land_pb2.UnitsNearResponse:
            self.ledger.known(conn, r.campaign_id)
            self.ledger.campaign(conn, r.campaign_id)
            self.ledger.city(r.port)
            c = t.units.c
            rows = conn.execute(
                select(t.units)
                .where(and_(c.campaign == r.campaign_id, c.city == r.port, c.fate == "", c.transport == ""))
                .order_by(c.id)
            ).all()
            if self.ledger.behaviour.broken("near_hides_strategic"):
                rows = [u for u in rows if u.tactical]
            if self.ledger.behaviour.broken("near_hides_reserved"):
                rows = [u for u in rows if not u.reserved_by]
            have, reserved = stock(conn, r.campaign_id, "city", r.port)
            answer = land_pb2.UnitsNearResponse(
                units=[_unit_pb(u) for u in rows], supplies=have, reserved_supplies=reserved
            )
            if r.hold:  # edition 4: what it reports is kept from GITM's own rules until the begins
                Holds(self.ledger).give(conn, r, answer)
            return answer

        return self.ledger.tx(read)  # type: ignore[no-any-return]

    def report_sightings(self, r: land_pb2.ReportSightingsRequest) -> land_pb2.ReportSightingsResponse:
        def write(conn: Connection) -> land_pb2.ReportSightingsResponse:
            c = t.sighting_reports.c
            new = self.ledger.first_time(conn, "sightings", r.report_id, _content(r))
            row = conn.execute(select(c.sightings).where(c.report_id == r.report_id)).first()
            if new or row is None:
                self.ledger.campaign(conn, r.campaign_id)
            if row is not None and not self.ledger.behaviour.forget:
                return land_pb2.ReportSightingsResponse(
                    report_id=r.report_id, sightings=row.sightings, duplicate=True
                )
            if self.ledger.behaviour.ignore_sightings:
                return land_pb2.ReportSightingsResponse(report_id=r.report_id, sightings=0)
            if row is not None:
                conn.execute(t.sighting_reports.delete().where(c.report_id == r.report_id))
            body = [
                {
                    "port": s.port,
                    "for_state": s.for_state,
                    "ships": [[x.id, x.state, x.type] for x in s.ships],
                }
                for s in r.sightings
            ]
            conn.execute(
                insert(t.sighting_reports).values(
                    report_id=r.report_id,
                    campaign=r.campaign_id,
                    turn=r.turn,
                    sightings=len(body),
                    body_json=json.dumps(body),
                )
            )
            return land_pb2.ReportSightingsResponse(report_id=r.report_id, sightings=len(body))

        return self.ledger.tx(write)  # type: ignore[no-any-return]

    def report_cargo_loss(self, r: land_pb2.ReportCargoLossRequest) -> land_pb2.ReportCargoLossResponse:
        if r.fate == land_pb2.CARGO_FATE_CAPTURED and not r.captor:
            raise BadRequestError("captor is required when the cargo is captured")
        return self.ledger.tx(lambda conn: self._cargo_loss(conn, r))  # type: ignore[no-any-return]

    def _cargo_loss(
        self, conn: Connection, r: land_pb2.ReportCargoLossRequest
    ) -> land_pb2.ReportCargoLossResponse:
        c = t.cargo_losses.c
        new = self.ledger.first_time(conn, "loss", r.loss_id, r)
        row = conn.execute(select(c.answer_json).where(c.loss_id == r.loss_id)).first()
        if row is not None and not self.ledger.behaviour.forget:
            answer = land_pb2.ReportCargoLossResponse.FromString(bytes.fromhex(row.answer_json))
            answer.duplicate = True
            return answer
        if new or row is None:
            self.ledger.campaign(conn, r.campaign_id)
        answer = _record_loss(conn, r, keep_units=self.ledger.behaviour.broken("loss_keeps_units"))
        if row is not None:
            conn.execute(t.cargo_losses.delete().where(c.loss_id == r.loss_id))
        conn.execute(
            insert(t.cargo_losses).values(
                loss_id=r.loss_id, campaign=r.campaign_id, answer_json=answer.SerializeToString().hex()
            )
        )
        return answer


def _record_loss(
    conn: Connection, r: land_pb2.ReportCargoLossRequest, *, keep_units: bool = False
) -> land_pb2.ReportCargoLossResponse:
    """docs/gitm.md L19: what GITM holds aboard is lost (or prisoner of the captor),
    whatever else the report names; what it does not hold is listed, item by item."""
    found = units(conn, r.campaign_id, r.units)
    aboard = sorted(u for u, x in found.items() if x.transport == r.transport_id and not x.fate)
    fate = "captured" if r.fate == land_pb2.CARGO_FATE_CAPTURED else "lost"
    captor = r.captor if fate == "captured" else ""
    if not keep_units:  # keep_units: the mutant that answers the loss and keeps the units aboard
        move_units(conn, r.campaign_id, aboard, transport="", fate=fate, captor=captor, reserved_by="")
    have, _ = stock(conn, r.campaign_id, "transport", r.transport_id)
    gone = min(have, r.supplies)
    set_stock(conn, r.campaign_id, "transport", r.transport_id, have - gone, 0)
    _add_lost(conn, r.campaign_id, gone)
    refusals = [
        land_pb2.Refusal(item=u, reason=f"not aboard {r.transport_id} in GITM", code="elsewhere")
        for u in sorted(set(r.units) - set(aboard))
    ]
    if gone < r.supplies:
        refusals.append(
            land_pb2.Refusal(
                item="supplies", reason=f"{r.transport_id} held {have}, not {r.supplies}", code="supplies"
            )
        )
    reason = "; ".join(f"{x.item}: {x.reason}" for x in refusals)
    return land_pb2.ReportCargoLossResponse(
        loss_id=r.loss_id,
        accepted=not refusals,
        reason=reason,
        units=aboard,
        supplies=gone,
        refusals=refusals,
    )


def _add_lost(conn: Connection, campaign: str, n: int) -> None:
    c = t.losses_total.c
    row = conn.execute(select(c.supplies).where(c.campaign == campaign)).first()
    if row is None:
        conn.execute(insert(t.losses_total).values(campaign=campaign, supplies=n))
    else:
        conn.execute(update(t.losses_total).where(c.campaign == campaign).values(supplies=row.supplies + n))


def _unit_pb(u: Any) -> land_pb2.Unit:
    return land_pb2.Unit(
        id=u.id,
        state=u.state,
        tactical_square=u.tactical,
        infantry=u.infantry,
        cavalry=u.cavalry,
        artillery=u.artillery,
        batteries=u.batteries,
        headquarters=u.headquarters,
        supplies=u.hq_supplies,
        reserved=bool(u.reserved_by),
    )


def _content(r: land_pb2.ReportSightingsRequest) -> land_pb2.ReportSightingsRequest:
    """The report as compared with a repeat: ``next_close_unix`` (edition 4, A1) is not its content,
    since a deadline the game master moved may reach a repeat."""
    same = land_pb2.ReportSightingsRequest()
    same.CopyFrom(r)
    same.ClearField("next_close_unix")
    return same
