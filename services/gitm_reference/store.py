"""The reference land service's store: units and supplies in cities and
aboard transports, and every transfer, sighting report and cargo loss by its
id, so that a repeated call gets the first answer (docs/gitm.md).

The store speaks gitm.v1 messages.  Every operation is one transaction under
one lock: the reference service is one process, and two copies of the same
call arriving together are served one after the other (the second finds the
first's record).  Hostile input is checked before any work: a bad request is
:class:`BadRequestError` (INVALID_ARGUMENT), never a half-done change.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import grpc
from sqlalchemy import Connection, Engine, and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from gitm.v1 import land_pb2, reference_admin_pb2
from services.gitm_reference import tables as t

MAX_ID = 256
MAX_UNITS = 500
MAX_SUPPLIES = 1_000_000
MAX_SIGHTINGS = 5_000

STATES = {
    "begun": land_pb2.TRANSFER_STATE_BEGUN,
    "completed": land_pb2.TRANSFER_STATE_COMPLETED,
    "cancelled": land_pb2.TRANSFER_STATE_CANCELLED,
    "refused": land_pb2.TRANSFER_STATE_REFUSED,
}


class StoreError(Exception):
    """A call the store answers with a gRPC status other than OK."""

    code = grpc.StatusCode.INVALID_ARGUMENT


class BadRequestError(StoreError):
    code = grpc.StatusCode.INVALID_ARGUMENT


class UnknownTransferError(StoreError):
    code = grpc.StatusCode.NOT_FOUND


class ReusedIdError(StoreError):
    code = grpc.StatusCode.ALREADY_EXISTS


@dataclass
class Behaviour:
    """Deliberate faults of the store itself (the servicer adds the network ones)."""

    refuse_all: bool = False
    forget: bool = False  # no idempotency: a repeated call is done again
    ignore_sightings: bool = False
    no_refusals: bool = False


Seeder = Callable[[Connection, str], str]


def _check_id(field: str, value: str) -> None:
    if not value:
        raise BadRequestError(f"{field} is required")
    if len(value) > MAX_ID:
        raise BadRequestError(f"{field} is longer than {MAX_ID} characters")


def _check_count(field: str, n: int, limit: int) -> None:
    if n < 0 or n > limit:
        raise BadRequestError(f"{field} must be between 0 and {limit}")


def _sha(msg: Any) -> str:
    return hashlib.sha256(msg.SerializeToString(deterministic=True)).hexdigest()


class LandStore:
    def __init__(self, engine: Engine, seeder: Seeder | None = None) -> None:
        self.engine = engine
        self.seeder = seeder
        self.behaviour = Behaviour()
        self._lock = threading.RLock()
        t.metadata.create_all(engine)

    # ------------------------------------------------------------ plumbing
    def _tx(self, fn: Callable[[Connection], Any]) -> Any:
        with self._lock, self.engine.begin() as conn:
            return fn(conn)

    def _campaign(self, conn: Connection, campaign: str) -> None:
        """A campaign GITM has not seen is seeded once (from the scenario the
        service was started with: PATE_GITM_SCENARIO)."""
        if conn.execute(select(t.campaigns.c.campaign).where(t.campaigns.c.campaign == campaign)).first():
            return
        source = self.seeder(conn, campaign) if self.seeder else ""
        conn.execute(insert(t.campaigns).values(campaign=campaign, seeded_from=source))

    def _stock(self, conn: Connection, campaign: str, kind: str, place: str) -> tuple[int, int]:
        c = t.stocks.c
        row = conn.execute(
            select(c.supplies, c.reserved).where(
                and_(c.campaign == campaign, c.kind == kind, c.place == place)
            )
        ).first()
        return (row.supplies, row.reserved) if row else (0, 0)

    def _set_stock(
        self, conn: Connection, campaign: str, kind: str, place: str, supplies: int, reserved: int
    ) -> None:
        c = t.stocks.c
        where = and_(c.campaign == campaign, c.kind == kind, c.place == place)
        if conn.execute(select(c.place).where(where)).first():
            conn.execute(update(t.stocks).where(where).values(supplies=supplies, reserved=reserved))
        else:
            conn.execute(
                insert(t.stocks).values(
                    campaign=campaign, kind=kind, place=place, supplies=supplies, reserved=reserved
                )
            )

    def _units(self, conn: Connection, campaign: str, ids: Iterable[str]) -> dict[str, Any]:
        c = t.units.c
        wanted = list(ids)
        rows = conn.execute(select(t.units).where(and_(c.campaign == campaign, c.id.in_(wanted)))).all()
        return {r.id: r for r in rows}

    def _move_units(self, conn: Connection, campaign: str, ids: Iterable[str], **values: Any) -> None:
        c = t.units.c
        conn.execute(
            update(t.units).where(and_(c.campaign == campaign, c.id.in_(list(ids)))).values(**values)
        )

    # ------------------------------------------------------------ transfers
    def begin(self, r: land_pb2.BeginTransferRequest) -> land_pb2.TransferStatus:
        _check_id("transfer_id", r.transfer_id)
        _check_id("campaign_id", r.campaign_id)
        _check_id("port", r.port)
        _check_id("transport_id", r.transport_id)
        if r.direction not in (land_pb2.DIRECTION_LOAD, land_pb2.DIRECTION_UNLOAD):
            raise BadRequestError("direction must be DIRECTION_LOAD or DIRECTION_UNLOAD")
        _check_count("units", len(r.units), MAX_UNITS)
        _check_count("supplies", r.supplies, MAX_SUPPLIES)
        if not r.units and not r.supplies:
            raise BadRequestError("a transfer moves at least one unit or one supply")
        for u in r.units:
            _check_id("units[]", u)
        return self._tx(lambda conn: self._begin(conn, r))  # type: ignore[no-any-return]

    def _begin(self, conn: Connection, r: land_pb2.BeginTransferRequest) -> land_pb2.TransferStatus:
        self._campaign(conn, r.campaign_id)
        sha = _sha(r)
        row = conn.execute(select(t.transfers).where(t.transfers.c.transfer_id == r.transfer_id)).first()
        if row is not None and not self.behaviour.forget:
            if row.request_sha != sha:
                raise ReusedIdError(f"transfer {r.transfer_id} was begun with other content")
            return self._status(conn, row.transfer_id)
        if row is not None:  # forget: the old record is dropped and the call is done again
            conn.execute(t.transfers.delete().where(t.transfers.c.transfer_id == r.transfer_id))
        refusals = self._refusals(conn, r)
        state = "refused" if refusals else "begun"
        if state == "begun":
            self._reserve(conn, r)
        reason = "; ".join(f"{item}: {why}" for item, why in refusals)
        try:
            conn.execute(
                insert(t.transfers).values(
                    transfer_id=r.transfer_id,
                    campaign=r.campaign_id,
                    request_sha=sha,
                    request_json=json.dumps(_request_plain(r)),
                    state=state,
                    reason=reason,
                    refusals_json=json.dumps(refusals),
                )
            )
        except IntegrityError:  # pragma: no cover - the lock serialises writers of one process
            raise ReusedIdError(f"transfer {r.transfer_id} begun twice at once") from None
        return self._status(conn, r.transfer_id)

    def _refusals(self, conn: Connection, r: land_pb2.BeginTransferRequest) -> list[tuple[str, str]]:
        if self.behaviour.refuse_all:
            return [("transfer", "refused on demand")]
        if self.behaviour.no_refusals:
            return []
        found = self._units(conn, r.campaign_id, r.units)
        out: list[tuple[str, str]] = []
        load = r.direction == land_pb2.DIRECTION_LOAD
        for uid in r.units:
            why = _unit_refusal(found.get(uid), r, load)
            if why:
                out.append((uid, why))
        if len(set(r.units)) != len(r.units):
            out.append(("units", "a unit is named twice"))
        kind, place = ("city", r.port) if load else ("transport", r.transport_id)
        have, reserved = self._stock(conn, r.campaign_id, kind, place)
        if r.supplies > have - reserved:
            where = f"in {r.port}" if load else f"aboard {r.transport_id}"
            out.append(("supplies", f"{r.supplies} asked, {max(0, have - reserved)} free {where}"))
        return out

    def _reserve(self, conn: Connection, r: land_pb2.BeginTransferRequest) -> None:
        self._move_units(conn, r.campaign_id, r.units, reserved_by=r.transfer_id)
        if r.supplies:
            load = r.direction == land_pb2.DIRECTION_LOAD
            kind, place = ("city", r.port) if load else ("transport", r.transport_id)
            have, reserved = self._stock(conn, r.campaign_id, kind, place)
            self._set_stock(conn, r.campaign_id, kind, place, have, reserved + r.supplies)

    def complete(self, r: land_pb2.CompleteTransferRequest) -> land_pb2.TransferStatus:
        _check_id("transfer_id", r.transfer_id)
        return self._tx(lambda conn: self._complete(conn, r))  # type: ignore[no-any-return]

    def _complete(self, conn: Connection, r: land_pb2.CompleteTransferRequest) -> land_pb2.TransferStatus:
        row = conn.execute(select(t.transfers).where(t.transfers.c.transfer_id == r.transfer_id)).first()
        if row is None:
            raise UnknownTransferError(f"no transfer {r.transfer_id}")
        if row.state != "begun" and not (self.behaviour.forget and row.state == "completed"):
            return self._status(conn, r.transfer_id)  # done already: the first answer stands
        req = _request_from(row.request_json)
        self._release(conn, req)
        if not r.cancelled:
            self._move(conn, req)
        state = "cancelled" if r.cancelled else "completed"
        conn.execute(
            update(t.transfers).where(t.transfers.c.transfer_id == r.transfer_id).values(state=state)
        )
        return self._status(conn, r.transfer_id)

    def _release(self, conn: Connection, req: Mapping[str, Any]) -> None:
        c = t.units.c
        conn.execute(
            update(t.units)
            .where(and_(c.campaign == req["campaign"], c.reserved_by == req["transfer_id"]))
            .values(reserved_by="")
        )
        if req["supplies"]:
            kind, place = ("city", req["port"]) if req["load"] else ("transport", req["transport"])
            have, reserved = self._stock(conn, req["campaign"], kind, place)
            self._set_stock(conn, req["campaign"], kind, place, have, max(0, reserved - req["supplies"]))

    def _move(self, conn: Connection, req: Mapping[str, Any]) -> None:
        campaign, n = req["campaign"], req["supplies"]
        alive = [u for u, row in self._units(conn, campaign, req["units"]).items() if not row.fate]
        city, ship = ("city", req["port"]), ("transport", req["transport"])
        src, dst = (city, ship) if req["load"] else (ship, city)
        if req["load"]:
            self._move_units(conn, campaign, alive, city="", tactical=False, transport=req["transport"])
        else:
            self._move_units(conn, campaign, alive, city=req["port"], tactical=True, transport="")
        if n:
            have, reserved = self._stock(conn, campaign, *src)
            moved = min(n, have)  # supplies lost with the transport in between are not there to move
            self._set_stock(conn, campaign, *src, have - moved, reserved)
            dhave, dres = self._stock(conn, campaign, *dst)
            self._set_stock(conn, campaign, *dst, dhave + moved, dres)

    def get(self, r: land_pb2.GetTransferRequest) -> land_pb2.TransferStatus:
        _check_id("transfer_id", r.transfer_id)

        def read(conn: Connection) -> land_pb2.TransferStatus:
            if not conn.execute(
                select(t.transfers.c.state).where(t.transfers.c.transfer_id == r.transfer_id)
            ).first():
                raise UnknownTransferError(f"no transfer {r.transfer_id}")
            return self._status(conn, r.transfer_id)

        return self._tx(read)  # type: ignore[no-any-return]

    def _status(self, conn: Connection, transfer_id: str) -> land_pb2.TransferStatus:
        row = conn.execute(select(t.transfers).where(t.transfers.c.transfer_id == transfer_id)).one()
        req = json.loads(row.request_json)
        refused = row.state == "refused"
        return land_pb2.TransferStatus(
            transfer_id=transfer_id,
            accepted=not refused,
            reason=row.reason,
            units=[] if refused else req["units"],
            supplies=0 if refused else req["supplies"],
            state=STATES[row.state],
            refusals=[land_pb2.Refusal(item=i, reason=w) for i, w in json.loads(row.refusals_json)],
        )

    # ------------------------------------------------------------ what units see and hold
    def units_near(self, r: land_pb2.UnitsNearRequest) -> land_pb2.UnitsNearResponse:
        _check_id("campaign_id", r.campaign_id)
        _check_id("port", r.port)

        def read(conn: Connection) -> land_pb2.UnitsNearResponse:
            self._campaign(conn, r.campaign_id)
            c = t.units.c
            rows = conn.execute(
                select(t.units)
                .where(and_(c.campaign == r.campaign_id, c.city == r.port, c.fate == "", c.transport == ""))
                .order_by(c.id)
            ).all()
            return land_pb2.UnitsNearResponse(units=[_unit_pb(u) for u in rows])

        return self._tx(read)  # type: ignore[no-any-return]

    def report_sightings(self, r: land_pb2.ReportSightingsRequest) -> land_pb2.ReportSightingsResponse:
        _check_id("report_id", r.report_id)
        _check_id("campaign_id", r.campaign_id)
        _check_count("sightings", len(r.sightings), MAX_SIGHTINGS)
        for s in r.sightings:
            _check_id("sightings[].port", s.port)
            _check_id("sightings[].for_state", s.for_state)
            _check_count("sightings[].ships", len(s.ships), MAX_UNITS)
            for x in s.ships:
                _check_id("sightings[].ships[].id", x.id)

        def write(conn: Connection) -> land_pb2.ReportSightingsResponse:
            self._campaign(conn, r.campaign_id)
            c = t.sighting_reports.c
            row = conn.execute(select(c.sightings).where(c.report_id == r.report_id)).first()
            if row is not None and not self.behaviour.forget:
                return land_pb2.ReportSightingsResponse(
                    report_id=r.report_id, sightings=row.sightings, duplicate=True
                )
            if self.behaviour.ignore_sightings:
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

        return self._tx(write)  # type: ignore[no-any-return]

    def report_cargo_loss(self, r: land_pb2.ReportCargoLossRequest) -> land_pb2.ReportCargoLossResponse:
        _check_id("loss_id", r.loss_id)
        _check_id("campaign_id", r.campaign_id)
        _check_id("transport_id", r.transport_id)
        if r.fate not in (land_pb2.CARGO_FATE_LOST, land_pb2.CARGO_FATE_CAPTURED):
            raise BadRequestError("fate must be CARGO_FATE_LOST or CARGO_FATE_CAPTURED")
        if r.fate == land_pb2.CARGO_FATE_CAPTURED and not r.captor:
            raise BadRequestError("captor is required when the cargo is captured")
        _check_count("units", len(r.units), MAX_UNITS)
        _check_count("supplies", r.supplies, MAX_SUPPLIES)
        return self._tx(lambda conn: self._cargo_loss(conn, r))  # type: ignore[no-any-return]

    def _cargo_loss(
        self, conn: Connection, r: land_pb2.ReportCargoLossRequest
    ) -> land_pb2.ReportCargoLossResponse:
        self._campaign(conn, r.campaign_id)
        c = t.cargo_losses.c
        row = conn.execute(select(c.answer_json).where(c.loss_id == r.loss_id)).first()
        if row is not None and not self.behaviour.forget:
            answer = land_pb2.ReportCargoLossResponse.FromString(bytes.fromhex(row.answer_json))
            answer.duplicate = True
            return answer
        found = self._units(conn, r.campaign_id, r.units)
        aboard = sorted(u for u, x in found.items() if x.transport == r.transport_id and not x.fate)
        fate = "captured" if r.fate == land_pb2.CARGO_FATE_CAPTURED else "lost"
        captor = r.captor if fate == "captured" else ""
        self._move_units(conn, r.campaign_id, aboard, transport="", fate=fate, captor=captor, reserved_by="")
        have, _ = self._stock(conn, r.campaign_id, "transport", r.transport_id)
        gone = min(have, r.supplies)
        self._set_stock(conn, r.campaign_id, "transport", r.transport_id, have - gone, 0)
        self._add_lost(conn, r.campaign_id, gone)
        missing = sorted(set(r.units) - set(aboard))
        reason = f"not aboard {r.transport_id} in GITM: {', '.join(missing)}" if missing else ""
        answer = land_pb2.ReportCargoLossResponse(
            loss_id=r.loss_id, accepted=True, reason=reason, units=aboard, supplies=gone
        )
        if row is not None:
            conn.execute(t.cargo_losses.delete().where(c.loss_id == r.loss_id))
        conn.execute(
            insert(t.cargo_losses).values(
                loss_id=r.loss_id, campaign=r.campaign_id, answer_json=answer.SerializeToString().hex()
            )
        )
        return answer

    def _add_lost(self, conn: Connection, campaign: str, n: int) -> None:
        c = t.losses_total.c
        row = conn.execute(select(c.supplies).where(c.campaign == campaign)).first()
        if row is None:
            conn.execute(insert(t.losses_total).values(campaign=campaign, supplies=n))
        else:
            conn.execute(
                update(t.losses_total).where(c.campaign == campaign).values(supplies=row.supplies + n)
            )

    # ------------------------------------------------------------ administration
    def station(self, r: reference_admin_pb2.StationRequest) -> reference_admin_pb2.StationResponse:
        _check_count("units", len(r.units), 10 * MAX_UNITS)

        def write(conn: Connection) -> reference_admin_pb2.StationResponse:
            for s in r.units:
                _check_id("units[].campaign_id", s.campaign_id)
                _check_id("units[].unit.id", s.unit.id)
                if bool(s.city) == bool(s.transport_id):
                    raise BadRequestError(f"unit {s.unit.id}: give one of city and transport_id")
                self._campaign(conn, s.campaign_id)
                station_unit(conn, s.campaign_id, s.unit, city=s.city, transport=s.transport_id)
            for k in r.supplies:
                _check_id("supplies[].campaign_id", k.campaign_id)
                if bool(k.city) == bool(k.transport_id):
                    raise BadRequestError("supplies: give one of city and transport_id")
                _check_count("supplies[].supplies", k.supplies, MAX_SUPPLIES)
                self._campaign(conn, k.campaign_id)
                kind, place = ("city", k.city) if k.city else ("transport", k.transport_id)
                self._set_stock(conn, k.campaign_id, kind, place, k.supplies, 0)
            return reference_admin_pb2.StationResponse(units=len(r.units), stocks=len(r.supplies))

        return self._tx(write)  # type: ignore[no-any-return]

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
                    for x in stocks
                    if x.supplies
                ],
                supplies_lost=int(lost or 0),
                sightings=sum(r.sightings for r in reports),
                sighting_reports=len(reports),
            )

        return self._tx(read)  # type: ignore[no-any-return]


def station_unit(conn: Connection, campaign: str, unit: land_pb2.Unit, *, city: str, transport: str) -> None:
    c = t.units.c
    conn.execute(t.units.delete().where(and_(c.campaign == campaign, c.id == unit.id)))
    conn.execute(
        insert(t.units).values(
            campaign=campaign,
            id=unit.id,
            state=unit.state or unit.id[:2],
            infantry=max(0, unit.infantry),
            cavalry=max(0, unit.cavalry),
            artillery=max(0, unit.artillery),
            batteries=max(0, unit.batteries),
            headquarters=unit.headquarters or "none",
            hq_supplies=max(0, unit.supplies),
            city=city,
            tactical=bool(unit.tactical_square) if city else False,
            transport=transport,
            fate="",
            captor="",
            reserved_by="",
        )
    )


def _unit_refusal(row: Any, r: land_pb2.BeginTransferRequest, load: bool) -> str:
    """What a land game refuses, unit by unit."""
    if row is None:
        return "no such unit"
    if row.fate:
        return f"the unit was {row.fate}"
    if row.reserved_by:
        return f"already being moved by transfer {row.reserved_by}"
    if load:
        if row.transport:
            return f"already embarked on {row.transport}"
        if row.city != r.port or not row.tactical:
            return f"not in {r.port}"
        if r.state and row.state != r.state:
            return f"a unit of {row.state}, not of {r.state}"
        return ""
    if row.transport != r.transport_id:
        return f"not aboard {r.transport_id}"
    return ""


def _request_plain(r: land_pb2.BeginTransferRequest) -> dict[str, Any]:
    return {
        "transfer_id": r.transfer_id,
        "campaign": r.campaign_id,
        "turn": r.turn,
        "port": r.port,
        "transport": r.transport_id,
        "load": r.direction == land_pb2.DIRECTION_LOAD,
        "units": list(r.units),
        "supplies": r.supplies,
        "state": r.state,
    }


def _request_from(text: str) -> dict[str, Any]:
    d: dict[str, Any] = json.loads(text)
    return d


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
    )
