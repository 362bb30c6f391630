"""Re-resolve a stored turn and compare it with what was stored, byte for byte."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Connection

from pate.core.campaign import resolve_effective
from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.orders.effective import EffectiveOrder
from pate.core.orders.model import StoresMove
from pate.core.rules.landsaga import LandWord
from pate.core.rules.landsync import PortLandReport
from pate.core.rules.validation.assign import Assignment, apply_assignments
from pate.engine.context import turn_context
from pate.rulesversion import rules_version
from services.platform.store import repository as repo
from services.resolver.stage import result_digest


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    campaign: str
    turn: int
    stored_sha256: str
    replayed_sha256: str
    resolved_under: str | None = None  # the rules version that resolved it (None: not recorded)
    replayed_under: str = ""
    differs_in: tuple[str, ...] = ()  # "the next world state", "the events"

    @property
    def identical(self) -> bool:
        return self.stored_sha256 == self.replayed_sha256

    def summary(self) -> str:
        """One line for an operator: identical, or under which rules and in what it differs."""
        head = f"turn {self.turn} of {self.campaign}"
        if self.identical:
            return f"{head}: replay identical ({self.stored_sha256})"
        where = ", ".join(self.differs_in) or "the result digest"
        if self.resolved_under is None:
            return (
                f"{head}: resolved under rules not recorded (before they were), replayed under"
                f" {self.replayed_under}: differs in {where}"
            )
        if self.resolved_under != self.replayed_under:
            return (
                f"{head}: resolved under rules {self.resolved_under},"
                f" replayed under {self.replayed_under}: differs in {where}"
            )
        return (
            f"{head}: replay DIFFERS under the same rules {self.replayed_under} (differs in {where}):"
            f" stored {self.stored_sha256}, replayed {self.replayed_sha256}; the stored turn may be damaged"
        )


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
    replayed = result_digest(state_sha, result.events)
    differs: list[str] = []
    if replayed != stored_sha:
        next_world = repo.load_world_json(conn, campaign, turn + 1)
        if next_world is None or next_world[1] != state_sha:
            differs.append("the next world state")
        if repo.events_json(repo.load_events(conn, campaign, turn)) != repo.events_json(result.events):
            differs.append("the events")
    under = repo.resolution_rules(conn, campaign, turn)
    return ReplayOutcome(campaign, turn, stored_sha, replayed, under, rules_version(), tuple(differs))
