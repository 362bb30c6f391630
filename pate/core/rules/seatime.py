"""Experience at sea (rule 2.2): "Ships gain one point of experience each
turn spent in a sea area or coastal waters of a port".

Decision (docs/rules/movement.md, "Experience at sea"): an active ship that
was out of harbor at the start of the turn or at its end (in a sea area, the
coastal waters of a port, or crossing the Atlantic) spent part of the turn at
sea and gains ``per_turn`` point(s), up to ``cap`` from sea time alone;
battle experience (7.7) is not capped.  Applied once, at the end of the
final amphibious phase, after every move and battle of the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.ruledata import RuleData
from pate.core.rules.context import TurnContext, TurnState
from pate.core.world.ships import InPort, Location, Ship


@dataclass(frozen=True, slots=True)
class SeaExperience:
    per_turn: int
    cap: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> SeaExperience:
        return cls(per_turn=int(d.get("per_turn", 1)), cap=int(d.get("cap", 16)))

    @classmethod
    def of(cls, rules: RuleData) -> SeaExperience:
        return cls.from_section(rules.section("movement").get("sea_experience", {}))


def _at_sea(loc: Location | None) -> bool:
    return loc is not None and not (isinstance(loc, InPort) and loc.harbor)


def sea_experience(ctx: TurnContext, ts: TurnState) -> TurnState:
    r = SeaExperience.of(ctx.rules)
    start = ts.start.ships if ts.start is not None else {}
    changed: dict[str, Ship] = {}
    for sid, ship in sorted(ts.world.ships.items()):
        before = start.get(sid)
        out = _at_sea(ship.location) or (before is not None and _at_sea(before.location))
        if ship.active and out and ship.experience < r.cap:
            changed[sid] = replace(ship, experience=min(r.cap, ship.experience + r.per_turn))
    if not changed:
        return ts
    return replace(ts, world=ts.world.with_ships(changed))
