"""The web's calls of the Absences service (pate.v1.Absences, docs/bots.md "Absence"): a
player's absence and standing instructions, with his own session, as any client of the server."""

from __future__ import annotations

from typing import Any

import grpc

from pate.v1 import absence_pb2 as pb
from pate.v1 import absence_pb2_grpc
from services.web.backend import CALL_TIMEOUT, Backend, Session
from services.web.backend_errors import translate


async def _call(b: Backend, s: Session, method: str, req: Any) -> Any:
    stub = absence_pb2_grpc.AbsencesStub(b._orders())
    try:
        return await getattr(stub, method)(req, metadata=b._md(s), timeout=CALL_TIMEOUT)
    except grpc.RpcError as err:
        raise translate(err, "orders") from None


async def absence(b: Backend, s: Session) -> pb.AbsenceState:
    out: pb.AbsenceState = await _call(b, s, "GetAbsence", pb.GetAbsenceRequest(campaign_id=s.campaign))
    return out


async def declare(b: Backend, s: Session, from_turn: int, to_turn: int) -> pb.AbsenceState:
    req = pb.DeclareAbsenceRequest(campaign_id=s.campaign, from_turn=from_turn, to_turn=to_turn)
    out: pb.AbsenceState = await _call(b, s, "DeclareAbsence", req)
    return out


async def cancel(b: Backend, s: Session, from_turn: int) -> pb.AbsenceState:
    req = pb.CancelAbsenceRequest(campaign_id=s.campaign, from_turn=from_turn)
    out: pb.AbsenceState = await _call(b, s, "CancelAbsence", req)
    return out


async def standing(b: Backend, s: Session) -> pb.StandingInstructions:
    req = pb.GetStandingInstructionsRequest(campaign_id=s.campaign)
    out: pb.StandingInstructions = await _call(b, s, "GetStandingInstructions", req)
    return out


async def set_standing(b: Backend, s: Session, text: str) -> pb.StandingInstructions:
    req = pb.SetStandingInstructionsRequest(campaign_id=s.campaign, text=text)
    out: pb.StandingInstructions = await _call(b, s, "SetStandingInstructions", req)
    return out


async def set_allowance(b: Backend, campaign: str, turns: int) -> pb.AbsenceAllowance:
    """The game master's: the web calls it only after checking his role on the campaign."""
    stub = absence_pb2_grpc.AbsencesStub(b._orders())
    req = pb.SetAbsenceAllowanceRequest(campaign_id=campaign, allowance=turns)
    try:
        out: pb.AbsenceAllowance = await stub.SetAbsenceAllowance(
            req, metadata=b._admin_md(), timeout=CALL_TIMEOUT
        )
    except grpc.RpcError as err:
        raise translate(err, "orders") from None
    return out
