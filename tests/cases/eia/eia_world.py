"""Builders for the EiA rule cases: the combat tests' toy map (the English
Channel with Brest, French, and Plymouth, British) under ``combat_rules =
"eia-advanced"``, run through the combat phase the turn runner calls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pate.core.events import Event
from pate.core.orders.model import CombatStance, Line, Range, ShipOrder
from pate.core.rng import Rng
from pate.core.rules import rulesets
from pate.core.rules.context import TurnState
from pate.core.rules.eia import EiaRules
from pate.core.world.ships import Ship
from pate.core.world.state import WorldState
from tests.unit.combat.combat_world import CTX, RULE_DATA, order, ship, world
from tests.unit.eia.scripted import ScriptedRng

EIA_RULES = EiaRules.from_rules(RULE_DATA)
ENGAGE = CombatStance.ENGAGE


def eia_world(*ships: Ship, **kw: Any) -> WorldState:
    return replace(world(*ships, **kw), combat_rules="eia-advanced")


def melee(sid: str) -> ShipOrder:
    return order(sid, stance=ENGAGE, range=Range.CLOSE, line=Line.BREAK)


def linear_attack(sid: str) -> ShipOrder:
    return order(sid, stance=ENGAGE, range=Range.CLOSE, line=Line.LINE_AHEAD)


def linear_defense(sid: str, stance: CombatStance = CombatStance.ACCEPT) -> ShipOrder:
    return order(sid, stance=stance, range=Range.RANGE)


def run(
    w: WorldState, orders: Sequence[ShipOrder], dice: Sequence[int] | None = None, seed: int = 1
) -> TurnState:
    """The combat phase of the turn runner (rulesets.combat_phase) on ``w``;
    ``dice`` scripts every die roll in order, else a seeded stream."""
    ts = TurnState(world=w, orders={o.ship_id: o for o in orders})
    rng: Rng = ScriptedRng(dice) if dice is not None else Rng(seed)
    return rulesets.combat_phase(CTX, ts, rng)


def kinds(ts: TurnState, kind: str) -> list[Event]:
    return [e for e in ts.events if e.kind == kind]


def fleet(prefix: str, n: int, location: Any = None, type_: str = "SL", **kw: Any) -> list[Ship]:
    from tests.unit.combat.combat_world import SEA

    return [ship(f"{prefix}{k}{type_}", location or SEA, **kw) for k in range(1, n + 1)]
