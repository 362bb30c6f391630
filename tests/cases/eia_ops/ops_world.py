"""Builders for the rule cases of the EiA new naval rules (naval_rules =
"eia-operations"): small worlds on the real map (the Channel: Brest,
Cherbourg and St Malo French, Portsmouth and Plymouth British), run through
the combat phase the turn runner calls (``rulesets.combat_phase``), which is
the operations phase under these rules.

Scripted dice are drawn in the order of docs/rules/eia-operations.md
("Dice"): for each operation revealed, its ships and reach, its contests,
the interceptions of it, then its own interceptions; then the trade.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pate.core.events import Event
from pate.core.orders.model import ShipOrder
from pate.core.orders.text import parse_orders
from pate.core.rng import Rng
from pate.core.rules import rulesets
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.ships import Cargo, Ship
from pate.core.world.state import LandUnit, Player, Role, WorldState
from tests.support.orders_world import MAP, RULES, coastal, harbor, sea, ship, world

__all__ = ["MAP", "RULES", "coastal", "harbor", "sea", "ship"]  # re-exported for the cases
from tests.unit.eia.scripted import ScriptedRng

CTX = TurnContext(MAP, RULES)
OPS = OpsRules.from_rules(RULES)
QUIET = [1] * 60  # later dice when a case does not look at them: every shot misses
HITS = [6] * 60  # every shot hits


def ops_world(*ships: Ship, money: int = 10, players: Sequence[str] = (), **kw: Any) -> WorldState:
    """The ships under the operations rules; every state's account holds
    ``money``; ``players`` gives those states a naval minister (their trade)."""
    w = world(ships, **kw)
    people = {
        f"{s.lower()}_min": Player(f"{s.lower()}_min", f"{s} minister", s, frozenset({Role.NAVAL_MINISTER}))
        for s in players
    }
    treasury = {s: money for s in ("BR", "FR", "SP", *players)}
    return replace(w, naval_rules="eia-operations", treasury=treasury, players=people)


def carrying(sid: str, loc: Any, corps: str = "FR1IN", **kw: Any) -> Ship:
    return ship(sid, loc, cargo=Cargo(units=(corps,), space=500), **kw)


def with_corps(w: WorldState, corps: str = "FR1IN", state: str = "FR") -> WorldState:
    return replace(w, land_units={**w.land_units, corps: LandUnit(corps, state, infantry=500)})


def op(sid: str, text: str, *more: str) -> ShipOrder:
    """The order of ``sid``: an ``operation`` line (and more lines), read by
    the order format's own parser."""
    body = "".join(f"  {line}\n" for line in ("operation " + text, *more))
    (order,) = parse_orders(f"order {sid}\n{body}")
    return order


def attach(sid: str, lead: str) -> ShipOrder:
    return ShipOrder(sid, attach_to=lead)


def run(
    w: WorldState, orders: Sequence[ShipOrder], dice: Sequence[int] | None = None, seed: int = 1
) -> TurnState:
    ts = TurnState(world=w, orders={o.ship_id: o for o in orders})
    rng: Rng = ScriptedRng(dice) if dice is not None else Rng(seed)
    return rulesets.combat_phase(CTX, ts, rng)


def kinds(ts: TurnState, kind: str) -> list[Event]:
    return [e for e in ts.events if e.kind == kind]


def one(ts: TurnState, kind: str) -> dict[str, Any]:
    found = kinds(ts, kind)
    assert len(found) == 1, [e.kind for e in ts.events]
    return dict(found[0].data)


def revealed(ts: TurnState) -> list[tuple[str, str]]:
    return [(e.data["fleet"], e.data["operation"]) for e in kinds(ts, "operation_revealed")]
