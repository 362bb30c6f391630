"""Holds (edition 4, docs/gitm.md "Holds"): a ``UnitsNear`` asked with ``hold`` keeps what it
reported (the units and the city's stock) from GITM's own rules until a ``BeginTransfer`` naming
the hold confirms it, ``ReleaseHold`` releases it, or :data:`HOLD_SECONDS` pass.  Idempotent by
(campaign, turn, request id): a repeat gets the same hold and the same expiry.  A confirmed hold
goes on holding the rest of the port's units for the other begins of the same turn, until it is
released or expires; what a begin reserved stays reserved either way."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

import grpc
from sqlalchemy import Connection, and_, insert, select, update

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import BadRequestError, StoreError, UnknownCityError
from services.gitm_reference.ledger import Ledger

HOLD_SECONDS = 600  # docs/gitm.md "Holds": ten minutes, for a commit that normally takes seconds
EXPIRED, RELEASED, UNKNOWN = "hold_expired", "hold_released", "hold_unknown"


class HeldError(StoreError):
    """GITM's own rule would move, destroy or give away what a live hold keeps: it waits."""

    code = grpc.StatusCode.FAILED_PRECONDITION
    reason = "LAND_HELD"


class Holds:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def now(self) -> int:
        return int(self.ledger.clock() + self.ledger.behaviour.clock_ahead_seconds)

    def give(
        self, conn: Connection, r: land_pb2.UnitsNearRequest, answer: land_pb2.UnitsNearResponse
    ) -> None:
        """Hold what ``answer`` reports, or find the hold this request was given before."""
        if not r.hold_request_id:  # its form is land.proto's; a hold needs one
            raise BadRequestError("hold_request_id is required with hold")
        digest = hashlib.sha256(f"{r.campaign_id}\0{r.turn}\0{r.hold_request_id}".encode()).hexdigest()
        hold_id = f"hold-{digest[:32]}"
        c = t.holds.c
        row = conn.execute(select(c.port, c.expires_at).where(c.hold_id == hold_id)).first()
        if row is not None and row.port != r.port:
            raise BadRequestError(f"hold_request_id {r.hold_request_id[:64]} was given for {row.port}")
        if row is None or self.ledger.behaviour.broken("hold_not_repeatable"):
            expires = self.now() + HOLD_SECONDS
            if row is not None:  # the mutant: a repeat is a new hold with a new expiry
                hold_id = f"{hold_id[:40]}-{self.now()}-{len(answer.units)}"
            conn.execute(
                insert(t.holds).values(
                    hold_id=hold_id,
                    campaign=r.campaign_id,
                    turn=r.turn,
                    request_id=r.hold_request_id,
                    port=r.port,
                    units_json=json.dumps(sorted(u.id for u in answer.units)),
                    expires_at=expires,
                    state="held",
                )
            )
        else:
            expires = int(row.expires_at)
        answer.hold_id, answer.hold_expires_at = hold_id, expires

    def refusal(self, conn: Connection, r: land_pb2.BeginTransferRequest) -> str:
        """Why a begin naming ``r.hold_id`` may not take it ("" when it may); confirms it."""
        c = t.holds.c
        row = conn.execute(select(t.holds).where(c.hold_id == r.hold_id)).first()
        if row is None or row.campaign != r.campaign_id or row.port != r.port:
            return f"{UNKNOWN}: no hold {r.hold_id[:64]} for {r.port} in this campaign"
        if row.state == "released" and not self.ledger.behaviour.broken("hold_released_confirms"):
            return f"{RELEASED}: the hold on {r.port} was released; ask UnitsNear again"
        if row.expires_at <= self.now():
            return f"{EXPIRED}: the hold on {r.port} ended at {row.expires_at}; ask UnitsNear again"
        conn.execute(update(t.holds).where(c.hold_id == r.hold_id).values(state="confirmed"))
        return ""

    def release(self, r: land_pb2.ReleaseHoldRequest) -> land_pb2.ReleaseHoldResponse:
        def write(conn: Connection) -> land_pb2.ReleaseHoldResponse:
            c = t.holds.c
            row = conn.execute(
                select(c.state, c.expires_at).where(and_(c.hold_id == r.hold_id, c.campaign == r.campaign_id))
            ).first()
            if row is None:
                raise UnknownCityError(
                    f"no hold {r.hold_id[:64]} in campaign {r.campaign_id[:64]}",
                    reason="HOLD_NOT_FOUND",
                    hold_id=r.hold_id,
                )
            if row.state in ("released", "expired"):  # a repeat: the first answer's state
                return land_pb2.ReleaseHoldResponse(hold_id=r.hold_id, state=row.state, duplicate=True)
            state = "expired" if row.expires_at <= self.now() else "released"
            conn.execute(update(t.holds).where(c.hold_id == r.hold_id).values(state=state))
            return land_pb2.ReleaseHoldResponse(hold_id=r.hold_id, state=state)

        return self.ledger.tx(write)  # type: ignore[no-any-return]

    def holding(self, conn: Connection, campaign: str, units: Iterable[str] = (), city: str = "") -> str:
        """The live hold that keeps a unit of ``units`` or the city ``city`` from GITM's own rules,
        else "".  A confirmed hold lives until it is released or expires like any other."""
        c = t.holds.c
        rows = conn.execute(
            select(c.hold_id, c.port, c.units_json).where(
                and_(
                    c.campaign == campaign, c.state.not_in(("released", "expired")), c.expires_at > self.now()
                )
            )
        ).all()
        wanted = set(units)
        for row in rows:
            if (city and row.port == city) or wanted & set(json.loads(row.units_json)):
                return str(row.hold_id)
        return ""
