"""Cargo moved between transport groups without touching land (rule 2.5: a
group divided, or two combined), as PATE reports it once a turn with
``ReportCargoMoves`` (docs/gitm.md).  Each move is applied on its own: a unit
not aboard the transport named, or supplies it does not hold, is refused with
a reason and stays where it is, so GITM never makes or loses cargo on the
way.  The answer is kept by ``move_id``: a repeat gets the first answer."""

from __future__ import annotations

from sqlalchemy import Connection, insert, select

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import (
    BadRequestError,
)
from services.gitm_reference.ledger import Ledger, move_units, set_stock, stock, units


class CargoMoves:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def report(self, r: land_pb2.ReportCargoMovesRequest) -> land_pb2.ReportCargoMovesResponse:
        for i, m in enumerate(r.moves):
            if m.from_transport == m.to_transport:
                raise BadRequestError(f"moves[{i}].to_transport must differ from moves[{i}].from_transport")
        return self.ledger.tx(lambda conn: self._apply(conn, r))  # type: ignore[no-any-return]

    def _apply(
        self, conn: Connection, r: land_pb2.ReportCargoMovesRequest
    ) -> land_pb2.ReportCargoMovesResponse:
        c = t.cargo_moves.c
        new = self.ledger.first_time(conn, "moves", r.move_id, r)
        row = conn.execute(select(c.answer_json).where(c.move_id == r.move_id)).first()
        if row is not None and not self.ledger.behaviour.forget:
            answer = land_pb2.ReportCargoMovesResponse.FromString(bytes.fromhex(row.answer_json))
            answer.duplicate = True
            return answer
        if new or row is None:
            self.ledger.campaign(conn, r.campaign_id)
        answer = land_pb2.ReportCargoMovesResponse(move_id=r.move_id)
        units_only = self.ledger.behaviour.broken("moves_units_only")
        for m in r.moves:  # in PATE's order: a unit may be moved on by a later move
            applied, refusals = _move(conn, r.campaign_id, m, units_only)
            if applied.units or applied.supplies:
                answer.applied.append(applied)
            answer.refusals.extend(refusals)
        answer.accepted = not answer.refusals
        if row is not None:
            conn.execute(t.cargo_moves.delete().where(c.move_id == r.move_id))
        conn.execute(
            insert(t.cargo_moves).values(
                move_id=r.move_id, campaign=r.campaign_id, answer_json=answer.SerializeToString().hex()
            )
        )
        return answer


def _move(
    conn: Connection, campaign: str, m: land_pb2.CargoMove, units_only: bool = False
) -> tuple[land_pb2.CargoMove, list[land_pb2.Refusal]]:
    """One move, item by item (L18); an unknown ``to_transport`` is a new group
    (a divide): it is created.  ``units_only``: the mutant that leaves supplies behind."""
    refusals: list[land_pb2.Refusal] = []
    found = units(conn, campaign, m.units)
    moved: list[str] = []
    for uid in m.units:
        x = found.get(uid)
        if x is None or x.fate:
            code, why = "unknown", "no such unit" if x is None else f"already {x.fate}"
        elif x.transport != m.from_transport:
            aboard = f" (aboard {x.transport})" if x.transport else ""
            code, why = "elsewhere", f"not aboard {m.from_transport}{aboard}"
        elif x.reserved_by:
            code, why = "reserved", "reserved by an open transfer"
        else:
            moved.append(uid)
            continue
        refusals.append(land_pb2.Refusal(item=uid, reason=why, code=code))
    move_units(conn, campaign, moved, transport=m.to_transport)
    supplies = 0
    if m.supplies and not units_only:
        have, reserved = stock(conn, campaign, "transport", m.from_transport)
        if have - reserved < m.supplies:
            why = f"{m.from_transport} holds {have - reserved} free supplies, not {m.supplies}"
            refusals.append(land_pb2.Refusal(item="supplies", reason=why, code="supplies"))
        else:
            supplies = m.supplies
            set_stock(conn, campaign, "transport", m.from_transport, have - supplies, reserved)
            there, held = stock(conn, campaign, "transport", m.to_transport)
            set_stock(conn, campaign, "transport", m.to_transport, there + supplies, held)
    applied = land_pb2.CargoMove(
        from_transport=m.from_transport, to_transport=m.to_transport, units=moved, supplies=supplies
    )
    return applied, refusals
