"""Re-resolve a stored turn and compare it with what was stored, byte for byte."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Connection

from pate.core.campaign import resolve_effective
from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.orders.assign import Assignment, apply_assignments
from pate.core.orders.effective import EffectiveOrder
from pate.core.orders.model import StoresMove
from pate.core.rules.landsaga import LandWord
from pate.core.rules.landsync import PortLandReport
from pate.engine.context import turn_context
from services.platform.store import repository as repo
from services.resolver.stage import result_digest


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    campaign: str
    turn: int
    stored_sha256: str
    replayed_sha256: str

    @property
    def identical(self) -> bool:
        return self.stored_sha256 == self.replayed_sha256


def replay_turn(conn: Connection, campaign: str, turn: int) -> ReplayOutcome:
    stored = repo.load_resolution(conn, campaign, turn)
    if stored is None:
        raise LookupError(f"turn {turn} of campaign {campaign!r} has not been resolved")
    orders_json, stored_sha = stored
    world = repo.load_world(conn, campaign, turn)
    stored_inputs = json.loads(orders_json)
    effective: dict[str, EffectiveOrder] = {
        sid: from_plain(EffectiveOrder, o) for sid, o in stored_inputs["orders"].items()
    }
    moves: list[StoresMove] = [from_plain(StoresMove, m) for m in stored_inputs["stores_moves"]]
    land: list[PortLandReport] = [
        from_plain(PortLandReport, r) for r in stored_inputs.get("land_reports", [])
    ]
    word = stored_inputs.get("land_word")
    land_word = from_plain(LandWord, word) if word else None
    officers: list[Assignment] = [from_plain(Assignment, a) for a in stored_inputs.get("assignments", [])]
    result = resolve_effective(turn_context(), world, effective, moves, land, land_word)
    state_sha = repo.sha256(canonical_json(to_plain(apply_assignments(result.state, officers))))
    return ReplayOutcome(campaign, turn, stored_sha, result_digest(state_sha, result.events))
