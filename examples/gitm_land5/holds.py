"""Holds (edition 4, docs/gitm.md "Holds"): given by UnitsNear, named by begins, released."""

from __future__ import annotations

import hashlib

import grpc

from gitm.v1 import land_pb2 as pb

from . import errors
from .store import Tx

HOLD_SECONDS = 600


def give(tx: Tx, req: pb.UnitsNearRequest, now: int) -> tuple[str, int]:
    """The same (campaign, turn, request id) gets the same hold and expiry; the clock is not restarted."""
    row = tx.one(
        "SELECT hold_id, port, expires_at FROM holds WHERE campaign = ? AND turn = ? AND request_id = ?",
        req.campaign_id,
        req.turn,
        req.hold_request_id,
    )
    if row is not None:
        if row[1] != req.port:
            raise errors.invalid("hold_request_id", f"{req.hold_request_id} was asked for another port")
        return str(row[0]), int(row[2])
    seed = "\x1f".join((req.campaign_id, str(req.turn), req.hold_request_id)).encode()
    hold_id = "hold-" + hashlib.sha256(seed).hexdigest()[:32]
    expires = now + HOLD_SECONDS
    tx.run(
        "INSERT INTO holds (hold_id, campaign, turn, request_id, port, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        hold_id,
        req.campaign_id,
        req.turn,
        req.hold_request_id,
        req.port,
        expires,
    )
    return hold_id, expires


def begin_refusal(tx: Tx, req: pb.BeginTransferRequest, now: int) -> list[tuple[str, str, str]]:
    """A begin naming a dead hold: its one refusal, item "hold", nothing else checked."""
    if not req.hold_id:
        return []
    row = tx.one("SELECT campaign, port, expires_at, release_state FROM holds WHERE hold_id = ?", req.hold_id)
    if row is None or row[0] != req.campaign_id or row[1] != req.port:
        why = "hold_unknown: no such hold was given for this campaign and port"
    elif row[3] is not None:
        why = "hold_released: the hold was released"
    elif now >= int(row[2]):
        why = "hold_expired: the hold's ten minutes have passed"
    else:
        return []
    return [("hold", why, "refused")]


def release(tx: Tx, req: pb.ReleaseHoldRequest, now: int) -> pb.ReleaseHoldResponse:
    if tx.campaign(req.campaign_id) is None:
        raise errors.not_opened(req.campaign_id)
    row = tx.one("SELECT campaign, expires_at, release_state FROM holds WHERE hold_id = ?", req.hold_id)
    if row is None or row[0] != req.campaign_id:
        raise errors.LandError(
            grpc.StatusCode.NOT_FOUND,
            f"hold_id: hold {req.hold_id} was never given in this campaign",
            "HOLD_NOT_FOUND",
            metadata={"hold_id": req.hold_id},
        )
    if row[2] is not None:
        return pb.ReleaseHoldResponse(hold_id=req.hold_id, state=row[2], duplicate=True)
    state = "released" if now < int(row[1]) else "expired"
    tx.run("UPDATE holds SET release_state = ? WHERE hold_id = ?", state, req.hold_id)
    return pb.ReleaseHoldResponse(hold_id=req.hold_id, state=state, duplicate=False)
