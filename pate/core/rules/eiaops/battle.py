"""Column battles in the world: who fights, and what a disabled ship suffers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.operation import Column
from pate.core.rng import Rng
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eiaops.columns import ColumnResult, ColumnShip, fight_columns
from pate.core.rules.eiaops.formation import Formation, arrange
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.ships import ShipType
from pate.core.world.state import AdmiralFate, WorldState

DAMAGE_CAP = 4  # a disabled ship is out of the fight, not sunk (hull 5 sinks, rule 2.2)


def column_ship(world: WorldState, sid: str, side: int, rules: OpsRules) -> ColumnShip:
    """A ship in a column: carrying when troops are aboard; its commander an
    admiral when he is a named one (rule 12.2.7), Nelson best of all."""
    ship = world.ships[sid]
    carrying = ship.type is ShipType.TR and bool(ship.cargo.units)
    admiral = world.admirals.get(ship.commander or "")
    rating = None
    if admiral is not None and admiral.fate is AdmiralFate.ACTIVE and ship.attached_to is None:
        rating = rules.nelson_rating if admiral.nelson else rules.admiral_rating
    return ColumnShip(sid, side, carrying, rating, rules.fire_modifier(ship.quality, ship.type.value))


def fight(
    world: WorldState,
    sides: tuple[tuple[str, ...], tuple[str, ...]],
    rules: OpsRules,
    eia: EiaRules,
    rng: Rng,
    trade: tuple[str, int] | None = None,
    orders: tuple[tuple[Column, ...], tuple[Column, ...]] = ((), ()),
) -> tuple[WorldState, ColumnResult]:
    """Fight a column battle between the ships of ``sides`` (side 0 joined
    it); ``trade`` adds that state's trade ships to side 1 as carrying ships;
    ``orders`` are each side's column orders (none: the engine forms its
    columns).  Disabled ships take hull and rigging damage."""
    ships = [column_ship(world, s, side, rules) for side in (0, 1) for s in sides[side]]
    if trade is not None:
        ships += [ColumnShip(f"trade:{trade[0]}:{i + 1}", 1, True) for i in range(trade[1])]
    forms: list[Formation | None] = [None, None]
    for side in (0, 1):
        if orders[side]:
            ships, forms[side] = _ordered(world, ships, side, orders[side], rules)
    result = fight_columns(ships, rules, eia, rng, formations=(forms[0], forms[1]))
    changed = {}
    for sid in sorted(result.disabled):
        ship = world.ships.get(sid)
        if ship is not None:
            changed[sid] = replace(
                ship,
                hull=min(DAMAGE_CAP, max(ship.hull, ship.hull + rules.hull_damage)),
                rigging=min(DAMAGE_CAP, max(ship.rigging, ship.rigging + rules.rigging_damage)),
            )
    return world.with_ships(changed), result


def _ordered(
    world: WorldState, ships: list[ColumnShip], side: int, orders: tuple[Column, ...], rules: OpsRules
) -> tuple[list[ColumnShip], Formation]:
    """ "Admiral present are then placed into columns": an admiral commanding a
    ship of the side leads the column his player names, and counts there only."""
    mine = [s for s in ships if s.side == side]
    ratings: dict[str, int] = {}
    for s in mine:
        ship = world.ships.get(s.key)
        admiral = world.admirals.get(ship.commander or "") if ship is not None else None
        if ship is not None and admiral is not None and admiral.fate is AdmiralFate.ACTIVE:
            ratings[ship.commander or ""] = rules.nelson_rating if admiral.nelson else rules.admiral_rating
    leading = {c.admiral for c in orders if c.admiral in ratings}
    moved = [
        replace(s, rating=None) if s.side == side and _commander(world, s.key) in leading else s
        for s in ships
    ]
    carrying = {s.key for s in mine if s.carrying}
    form = arrange([s.key for s in mine], carrying, orders, ratings, rules.max_columns)
    return moved, form


def _commander(world: WorldState, sid: str) -> str | None:
    ship = world.ships.get(sid)
    return ship.commander if ship is not None else None


def battle_told(where: str, result: ColumnResult, why: str, extra: dict[str, Any]) -> Event:
    """The column battle as both sides saw it: every ship in it observes it."""
    real = tuple(k for side in result.columns for col in side for k in col if not k.startswith("trade:"))
    data = {
        "why": why,
        "columns": [[list(c) for c in side] for side in result.columns],
        "initiative": result.initiative,
        "attacks": [
            {
                "side": a.side,
                "column": a.column,
                "target": a.target_column,
                "contest": list(a.contest),
                "first": a.first,
                "evaded": a.evaded,
                "protected_by": a.protected_by,
                "shots": [[s.ship, s.target, s.roll, s.percent, s.disabled] for s in a.shots],
            }
            for a in result.attacks
        ],
        "actions": [[a.side, a.column, a.action, a.target, a.step] for a in result.actions],
        "disabled": sorted(result.disabled),
        "winner": result.winner,
        **extra,
    }
    return Event(Phase.COMBAT, "column_battle", real, where, (), data)
