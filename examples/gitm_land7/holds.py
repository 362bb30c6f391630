"""Holds (docs/gitm.md "Holds", L28): given by UnitsNear, named by begins, released."""

import hashlib
import sqlite3
import time

from examples.gitm_land7 import common
from examples.gitm_land7.contract import HOLD_SECONDS
from examples.gitm_land7.errors import Fault, malformed
from gitm.v1 import land_pb2 as pb


def give(db: sqlite3.Connection, request: pb.UnitsNearRequest) -> tuple[str, int]:
    """The hold of (campaign, turn, request id): the same one, same expiry, when asked again."""
    row = db.execute(
        "SELECT hold_id, port, expires_at FROM holds WHERE campaign = ? AND turn = ? AND request_id = ?",
        (request.campaign_id, request.turn, request.hold_request_id),
    ).fetchone()
    if row is not None:
        if row[1] != request.port:
            raise malformed("hold_request_id", "was asked before for another port")
        return str(row[0]), int(row[2])
    key = f"{request.campaign_id}\x00{request.turn}\x00{request.hold_request_id}"
    hold_id = "hold-" + hashlib.sha256(key.encode()).hexdigest()[:32]
    expires = int(time.time()) + HOLD_SECONDS
    db.execute(
        "INSERT INTO holds (hold_id, campaign, turn, request_id, port, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        (hold_id, request.campaign_id, request.turn, request.hold_request_id, request.port, expires),
    )
    return hold_id, expires


def lapsed(db: sqlite3.Connection, campaign_id: str, port: str, hold_id: str, now: float) -> str:
    """Why a begin's hold no longer holds ("" while it holds); released is checked first."""
    row = db.execute(
        "SELECT campaign, port, expires_at, release_state FROM holds WHERE hold_id = ?", (hold_id,)
    ).fetchone()
    if row is None or row[0] != campaign_id or row[1] != port:
        return "hold_unknown: no such hold was given for this campaign and port"
    if row[3]:
        return "hold_released: the hold was released"
    if now >= row[2]:
        return "hold_expired: the hold's time ran out"
    return ""


def release(db: sqlite3.Connection, request: pb.ReleaseHoldRequest) -> pb.ReleaseHoldResponse:
    common.campaign(db, request.campaign_id)
    row = db.execute(
        "SELECT campaign, expires_at, release_state FROM holds WHERE hold_id = ?",
        (request.hold_id,),
    ).fetchone()
    if row is None or row[0] != request.campaign_id:
        raise Fault("HOLD_NOT_FOUND", "hold_id: no such hold", metadata={"hold_id": request.hold_id})
    if row[2]:
        return pb.ReleaseHoldResponse(hold_id=request.hold_id, state=row[2], duplicate=True)
    state = "expired" if time.time() >= row[1] else "released"
    db.execute("UPDATE holds SET release_state = ? WHERE hold_id = ?", (state, request.hold_id))
    return pb.ReleaseHoldResponse(hold_id=request.hold_id, state=state)
