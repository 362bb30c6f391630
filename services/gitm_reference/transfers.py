"""Transfers between a port city and a transport group: begun (units and
supplies reserved, or the transfer refused item by item), then completed
(moved) or cancelled (released).  Every transfer is kept by its id, so that a
repeated call gets the first answer (docs/gitm.md)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import (
    BadRequestError,
    ReusedIdError,
    UnknownTransferError,
    request_sha,
)
from services.gitm_reference.holds import Holds
from services.gitm_reference.ledger import Ledger, move_units, set_stock, stock, units

# docs/gitm.md "Ids": a transport id is 1 to 64 of these; a load onto another is refused (B6)
TRANSPORT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
STATES = {
    "begun": land_pb2.TRANSFER_STATE_BEGUN,
    "completed": land_pb2.TRANSFER_STATE_COMPLETED,
    "cancelled": land_pb2.TRANSFER_STATE_CANCELLED,
    "refused": land_pb2.TRANSFER_STATE_REFUSED,
}


class Transfers:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def begin(self, r: land_pb2.BeginTransferRequest) -> land_pb2.TransferStatus:
        # each field's limits are land.proto's, checked before (LandStore, checks.check_request)
        if not r.units and not r.supplies:
            raise BadRequestError("a transfer moves at least one unit or one supply", field="units")
        if self.ledger.behaviour.broken("racy"):
            return self._racy_begin(r)
        return self.ledger.tx(lambda conn: self._begin(conn, r))  # type: ignore[no-any-return]

    def _racy_begin(self, r: land_pb2.BeginTransferRequest) -> land_pb2.TransferStatus:
        """The mutant ``racy``: the look-up and the work in two transactions, so that
        copies arriving together all miss the record and all do the work."""
        c = t.transfers.c
        seen = self.ledger.tx(
            lambda conn: conn.execute(select(c.state).where(c.transfer_id == r.transfer_id)).first()
        )
        time.sleep(0.05)
        return self.ledger.tx(lambda conn: self._begin(conn, r, fresh=seen is None))  # type: ignore[no-any-return]

    def _begin(
        self, conn: Connection, r: land_pb2.BeginTransferRequest, fresh: bool = False
    ) -> land_pb2.TransferStatus:
        same = land_pb2.BeginTransferRequest()
        same.CopyFrom(r)
        # the hold is not the begin's content: a repeat after its hold ended is the same begin
        same.ClearField("hold_id")
        sha = request_sha(same)
        row = conn.execute(select(t.transfers).where(t.transfers.c.transfer_id == r.transfer_id)).first()
        if row is None or self.ledger.behaviour.forget or fresh:
            self.ledger.campaign(conn, r.campaign_id)  # new work: not for a closed campaign
        broken = self.ledger.behaviour.broken
        if row is not None and not (self.ledger.behaviour.forget or fresh):
            if row.request_sha != sha and not broken("accept_reused"):
                raise ReusedIdError(
                    f"transfer {r.transfer_id} was begun with other content", id=r.transfer_id
                )
            return self._status(conn, row.transfer_id)
        if row is not None:  # forget (or racy): the old record is dropped and the call is done again
            conn.execute(t.transfers.delete().where(t.transfers.c.transfer_id == r.transfer_id))
        refusals = self._refusals(conn, r)
        state = "refused" if refusals else "begun"
        if state == "begun" and not broken("no_reserve"):
            _reserve(conn, r)
        elif state == "refused" and broken("partial"):  # the good items taken, the transfer refused
            bad = {item for item, *_ in refusals}
            move_units(conn, r.campaign_id, [u for u in r.units if u not in bad], reserved_by=r.transfer_id)
        reason = "; ".join(f"{item}: {why}" for item, why, _code in refusals)
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

    def _refusals(self, conn: Connection, r: land_pb2.BeginTransferRequest) -> list[tuple[str, str, str]]:
        """(item, reason, Refusal.code) of each faulty item (docs/gitm.md "Refusal codes")."""
        if self.ledger.behaviour.refuse_all:
            return [("transfer", "refused on demand", "refused")]
        if self.ledger.behaviour.no_refusals:
            return []
        found = units(conn, r.campaign_id, r.units)
        out: list[tuple[str, str, str]] = []
        held = Holds(self.ledger).refusal(conn, r) if r.hold_id else ""
        if held:  # edition 4: a hold ended or unknown is not the land PATE planned against
            return [("hold", held, "refused")]
        load = r.direction == land_pb2.DIRECTION_LOAD
        broken = self.ledger.behaviour.broken
        blind = broken("ignore_reservations")
        for uid in dict.fromkeys(r.units):  # a unit named twice is checked, and listed, once
            code, why = _unit_refusal(found.get(uid), r, load, blind, broken("reason_names_holder"))
            if why:
                out.append((uid, why, code))
        if len(set(r.units)) != len(r.units) and not broken("twice_taken"):
            out.append(("units", "a unit is named twice", "twice"))
        kind, place = ("city", r.port) if load else ("transport", r.transport_id)
        have, reserved = stock(conn, r.campaign_id, kind, place)
        if r.supplies > have - reserved and not self.ledger.behaviour.broken("no_supply_check"):
            where = f"in {r.port}" if load else f"aboard {r.transport_id}"
            out.append(
                ("supplies", f"{r.supplies} asked, {max(0, have - reserved)} free {where}", "supplies")
            )
        return out

    def _status(self, conn: Connection, transfer_id: str) -> land_pb2.TransferStatus:
        return _status(conn, transfer_id, echo_refused=self.ledger.behaviour.broken("refusal_holds_units"))

    def complete(self, r: land_pb2.CompleteTransferRequest) -> land_pb2.TransferStatus:
        return self.ledger.tx(lambda conn: self._complete(conn, r))  # type: ignore[no-any-return]

    def _complete(self, conn: Connection, r: land_pb2.CompleteTransferRequest) -> land_pb2.TransferStatus:
        row = conn.execute(select(t.transfers).where(t.transfers.c.transfer_id == r.transfer_id)).first()
        b = self.ledger.behaviour
        if row is None:
            if b.broken("unknown_ok"):
                return land_pb2.TransferStatus(transfer_id=r.transfer_id)
            raise UnknownTransferError(f"no transfer {r.transfer_id}", transfer_id=r.transfer_id)
        self._same_campaign(row.campaign, r.campaign_id)
        flipped = b.broken("flip_completion") and row.state == "cancelled" and not r.cancelled
        if row.state != "begun" and not (b.forget and row.state == "completed") and not flipped:
            return self._status(conn, r.transfer_id)  # done already: the first answer stands
        req = _request_from(row.request_json)
        if not (r.cancelled and b.broken("cancel_keeps_reservation")):
            _release(conn, req)
        if not r.cancelled:
            _move(conn, req, lose_supplies=b.lose_supplies, landed_tactical=not b.broken("land_strategic"))
        state = "cancelled" if r.cancelled else "completed"
        conn.execute(
            update(t.transfers).where(t.transfers.c.transfer_id == r.transfer_id).values(state=state)
        )
        return self._status(conn, r.transfer_id)

    def get(self, r: land_pb2.GetTransferRequest) -> land_pb2.TransferStatus:

        def read(conn: Connection) -> land_pb2.TransferStatus:
            c = t.transfers.c
            row = conn.execute(select(c.campaign).where(c.transfer_id == r.transfer_id)).first()
            if row is None:
                if self.ledger.behaviour.broken("unknown_ok"):
                    return land_pb2.TransferStatus(transfer_id=r.transfer_id)
                raise UnknownTransferError(f"no transfer {r.transfer_id}", transfer_id=r.transfer_id)
            self._same_campaign(row.campaign, r.campaign_id)
            return self._status(conn, r.transfer_id)

        return self.ledger.tx(read)  # type: ignore[no-any-return]

    def _same_campaign(self, held: str, named: str) -> None:
        """docs/gitm.md "Ids" (P7): a request naming a campaign names the transfer's own; "" (a
        PATE older than the field) is not compared.  INVALID_ARGUMENT rather than NOT_FOUND: the
        transfer exists, and the request contradicts itself (a caller's bug, never the land's)."""
        if named and named != held and not self.ledger.behaviour.broken("campaign_blind"):
            raise BadRequestError(f"campaign_id: the transfer is not of campaign {named[:64]}")


def _reserve(conn: Connection, r: land_pb2.BeginTransferRequest) -> None:
    move_units(conn, r.campaign_id, r.units, reserved_by=r.transfer_id)
    if r.supplies:
        load = r.direction == land_pb2.DIRECTION_LOAD
        kind, place = ("city", r.port) if load else ("transport", r.transport_id)
        have, reserved = stock(conn, r.campaign_id, kind, place)
        set_stock(conn, r.campaign_id, kind, place, have, reserved + r.supplies)


def _release(conn: Connection, req: Mapping[str, Any]) -> None:
    c = t.units.c
    conn.execute(
        update(t.units)
        .where(and_(c.campaign == req["campaign"], c.reserved_by == req["transfer_id"]))
        .values(reserved_by="")
    )
    if req["supplies"]:
        kind, place = ("city", req["port"]) if req["load"] else ("transport", req["transport"])
        have, reserved = stock(conn, req["campaign"], kind, place)
        set_stock(conn, req["campaign"], kind, place, have, max(0, reserved - req["supplies"]))


def _move(
    conn: Connection, req: Mapping[str, Any], *, lose_supplies: bool = False, landed_tactical: bool = True
) -> None:
    campaign, n = req["campaign"], req["supplies"]
    alive = [u for u, row in units(conn, campaign, req["units"]).items() if not row.fate]
    city, ship = ("city", req["port"]), ("transport", req["transport"])
    src, dst = (city, ship) if req["load"] else (ship, city)
    if req["load"]:
        move_units(conn, campaign, alive, city="", tactical=False, transport=req["transport"])
    else:
        # docs/gitm.md L9: landed units stand in the city itself (its tactical square)
        move_units(conn, campaign, alive, city=req["port"], tactical=landed_tactical, transport="")
    if n:
        have, reserved = stock(conn, campaign, *src)
        moved = min(n, have)  # supplies lost with the transport in between are not there to move
        set_stock(conn, campaign, *src, have - moved, reserved)
        dhave, dres = stock(conn, campaign, *dst)
        arrived = 0 if lose_supplies else moved  # lose_supplies: broken on purpose, for `pate gitm check`
        set_stock(conn, campaign, *dst, dhave + arrived, dres)


def _status(conn: Connection, transfer_id: str, echo_refused: bool = False) -> land_pb2.TransferStatus:
    """The transfer as it stands (``echo_refused``: the mutant whose refusal answers what was asked)."""
    row = conn.execute(select(t.transfers).where(t.transfers.c.transfer_id == transfer_id)).one()
    req = json.loads(row.request_json)
    refused = row.state == "refused"
    empty = refused and not echo_refused  # docs/gitm.md "Answers": a refusal holds nothing
    return land_pb2.TransferStatus(
        transfer_id=transfer_id,
        accepted=not refused,
        reason=row.reason,
        units=[] if empty else req["units"],
        supplies=0 if empty else req["supplies"],
        state=STATES[row.state],
        # a row of an older store holds (item, reason) without the code
        refusals=[
            land_pb2.Refusal(item=i, reason=w, code=c[0] if c else "")
            for i, w, *c in json.loads(row.refusals_json)
        ],
    )


def _unit_refusal(
    row: Any, r: land_pb2.BeginTransferRequest, load: bool, blind: bool = False, tell: bool = False
) -> tuple[str, str]:
    """What a land game refuses, unit by unit, as (Refusal.code, reason); ("", "") when nothing
    (``blind``: the mutant that ignores reservations; ``tell``: the mutant whose reason names the
    transfer holding the unit)."""
    if row is None:
        return "unknown", "no such unit"
    # the reason reaches the player whose transport it is (docs/gitm.md "Answers"): another
    # state's unit is refused as that, before anything says what became of it or who moves it
    if load and r.state and row.state != r.state:
        return "foreign", f"a unit of {row.state}, not of {r.state}"
    if row.fate:
        return "unknown", f"the unit was {row.fate}"
    if row.reserved_by and not blind:
        holder = row.reserved_by if tell else "another transfer"
        return "reserved", f"already being moved by {holder}"
    if load:
        if row.transport:
            return "embarked", f"already embarked on {row.transport}"
        if row.city != r.port or not row.tactical:
            return "elsewhere", f"not in {r.port}"
        return "", ""
    if row.transport != r.transport_id:
        return "elsewhere", f"not aboard {r.transport_id}"
    return "", ""


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
