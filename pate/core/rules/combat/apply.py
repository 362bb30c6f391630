"""Carrying a battle's result into the world (rules 2.2, 7.7, 7.8).

Damage, crew lost and experience; sinking at hull 5; prizes with the captor's
commanders, attachment and orders under the lowest free id of the captor's
state; escapes and evasions to another tactical area or out of the port,
cancelling a first move already made by fleeing; the shore batteries' damage.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.model import FleeTo, ShipOrder
from pate.core.rng import Rng
from pate.core.rules.combat.model import Battle, BattleResult, Outcome, Where
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.prepare import tiers
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.detection import in_contact
from pate.core.world.ships import AtSea, InPort, Location, Ship, describe, ship_id
from pate.core.world.state import WorldState

_MOVES = (Outcome.ESCAPED, Outcome.EVADED)


def apply_result(
    ctx: TurnContext,
    ts: TurnState,
    rules: CombatRules,
    battle: Battle,
    result: BattleResult,
    *,
    place: Location,
    contact: tuple[str, ...],
    rng: Rng,
) -> TurnState:
    world = ts.world
    before = [world.ships[b.key] for b in battle.ships]
    after = [_worn(s, result, i) for i, s in enumerate(before)]
    orders = dict(ts.orders)
    changed: dict[str, Ship] = {}
    removed: list[str] = []
    events: list[Event] = []
    where = describe(place)

    def event(kind: str, about: tuple[str, ...], /, there: tuple[str, ...] = (), **data: Any) -> None:
        seen = tuple(i for i in contact if i not in about) + there
        events.append(Event(Phase.COMBAT, kind, about, where, seen, data))

    if result.fought:
        took_part = tuple(s.id for i, s in enumerate(before) if result.outcome[i] is not Outcome.IDLE)
        event("battle", took_part, **battle_data(battle, result, before))
    used = ts.ids_used()
    for i, ship in enumerate(after):
        outcome = result.outcome[i]
        if outcome is Outcome.SUNK:
            removed.append(ship.id)
            orders.pop(ship.id, None)
            event("sunk", (ship.id,), state=ship.state, type=ship.type.value)
        elif outcome is Outcome.CAPTURED:
            captor = after[_captor_of(result, i)]
            prize = _prize(ship, captor, rules, used)
            used.add(prize.id)
            removed.append(ship.id)
            changed[prize.id] = prize
            orders.pop(ship.id, None)
            orders[prize.id] = replace(ts.order(captor.id), ship_id=prize.id)
            event(
                "captured",
                (ship.id, prize.id, captor.id),
                prize=prize.id,
                captor=captor.id,
                state=captor.state,
            )
        elif outcome in _MOVES:
            dest = _flight(ctx, world, ship, place, flee_to=battle.ships[i].flee_to, rng=rng.fork(ship.id))
            changed[ship.id] = replace(ship, location=dest)
            if isinstance(dest, AtSea):
                orders[ship.id] = _cancel_first_move(ts.order(ship.id), dest.area)
            there = _lying_at(world, replace(ship, location=dest), {b.key for b in battle.ships})
            event(outcome.value, (ship.id,), there, to=describe(dest), **_seen_there(there))
        elif outcome is Outcome.FOUGHT:
            changed[ship.id] = ship
    new_world = _after_battle(world, changed, removed, place, result)
    return replace(ts, world=new_world, orders=orders).emit(*events)


def _seen_there(there: tuple[str, ...]) -> dict[str, Any]:
    """5.1: the ships where a ship leaving the battle went are in contact with her and see her
    come; the judge tells their player where she went (pate.core.intel.judged)."""
    return {"seen_there": list(there)} if there else {}


def _lying_at(world: WorldState, arrived: Ship, battle: set[str]) -> tuple[str, ...]:
    """The ships in contact (rule 5.1) with a ship where she went, none of this battle's."""
    ships = sorted(world.ships.items())
    return tuple(sid for sid, s in ships if sid not in battle and in_contact(arrived, s))


def _captor_of(result: BattleResult, i: int) -> int:
    captor = result.captor[i]
    assert captor is not None, "a captured ship has a captor"
    return captor


def _after_battle(
    world: WorldState, changed: dict[str, Ship], removed: list[str], place: Location, result: BattleResult
) -> WorldState:
    """The ships changed and removed; a ship attached to one removed sails
    on unattached; then the shore battery's damage."""
    gone = set(removed)
    for s in world.ships.values():
        if s.attached_to in gone and s.id not in gone:
            changed[s.id] = replace(changed.get(s.id, s), attached_to=None)
    return _battery(world.with_ships(changed, tuple(removed)), place, result)


def _worn(ship: Ship, result: BattleResult, i: int) -> Ship:
    """Damage, crew and Marines lost, experience gained (7.7)."""
    if result.outcome[i] is Outcome.IDLE:
        return ship
    return replace(
        ship,
        hull=max(ship.hull, result.hull[i]),
        rigging=result.rigging[i],
        crew=max(0, ship.crew - result.crew_lost[i]),
        marines=max(0, ship.marines - result.marines_lost[i]),
        experience=ship.experience + result.experience_gained[i],
    )


def lowest_free_id(state: str, ship: Ship, used: set[str]) -> tuple[str, int]:
    """Rule 7.8: the lowest number of the captor's state not in use for this type."""
    n = 1
    while ship_id(state, n, ship.type) in used:
        n += 1
    return ship_id(state, n, ship.type), n


def _prize(ship: Ship, captor: Ship, rules: CombatRules, used: set[str]) -> Ship:
    """Rule 7.8: the prize takes the captor's commander and deputy and its
    attachment (attached to the captor when the captor is unattached, so that
    she sails with it); a prize crew from the captor takes over."""
    new_id, number = lowest_free_id(captor.state, ship, used)
    return replace(
        ship,
        id=new_id,
        state=captor.state,
        number=number,
        location=captor.location,
        base=captor.base,
        commander=captor.commander,
        deputy=captor.deputy,
        attached_to=captor.attached_to or captor.id,
        station=captor.station,
        quality=captor.quality,
        experience=captor.experience,
        crew=ship.crew * rules.prize_crew_pct // 100,
        marines=0,
    )


def _flight(
    ctx: TurnContext, world: WorldState, ship: Ship, place: Location, *, flee_to: FleeTo, rng: Rng
) -> Location:
    """Rule 7.8: at sea to another tactical area; from a port out to its sea
    area.  Mechanics page: from the coastal waters, to the harbor or the open
    sea as ordered (the harbor only of a same-side or allied port, and only
    when no hostile ship lies in it: rule 6.4 lets no ship into a harbor past
    hostile ships, and fleeing into them escapes nothing)."""
    if isinstance(place, AtSea):
        return AtSea(place.area, free_tactical_area(ctx, world, place.area, rng, avoid=place.tactical))
    assert isinstance(place, InPort)
    if not place.harbor and flee_to is FleeTo.HARBOR:
        port = world.ports.get(place.port)
        harbor = InPort(place.port, harbor=True)
        mine = port is not None and world.diplomacy.allied(ship.state, port.controller)
        if mine and not _hostile_in(world, ship.state, harbor):
            return harbor
    area = ctx.map.ports[place.port].sea_area
    return AtSea(area, free_tactical_area(ctx, world, area, rng, avoid=None))


def _hostile_in(world: WorldState, state: str, place: Location) -> bool:
    return any(s.location == place and world.diplomacy.hostile(state, s.state) for s in world.ships.values())


def free_tactical_area(ctx: TurnContext, world: WorldState, area: str, rng: Rng, avoid: int | None) -> int:
    """An empty tactical area if there is one, else any other than ``avoid``."""
    count = ctx.map.sea_areas[area].tactical_areas
    others = [t for t in range(1, count + 1) if t != avoid]
    if not others:
        return avoid if avoid is not None else 1
    taken = {
        s.location.tactical
        for s in world.ships.values()
        if isinstance(s.location, AtSea) and s.location.area == area
    }
    empty = [t for t in others if t not in taken]
    return rng.choice(empty or others)


def _cancel_first_move(order: ShipOrder, area: str) -> ShipOrder:
    """Rule 7.8: fleeing to the adjoining sea area carries out a first move to it."""
    mv = order.movement
    if mv.sea_areas and mv.sea_areas[0] == area:
        return replace(order, movement=replace(mv, sea_areas=mv.sea_areas[1:]))
    return order


def _battery(world: WorldState, place: Location, result: BattleResult) -> WorldState:
    if result.battery_damaged is None or not isinstance(place, InPort):
        return world
    port = world.ports.get(place.port)
    if port is None or port.battery_damaged == result.battery_damaged:
        return world
    return replace(
        world, ports={**world.ports, place.port: replace(port, battery_damaged=result.battery_damaged)}
    )


def fights_data(battle: Battle, result: BattleResult, sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each fight of the battle that was fought (rule 7.1: away from a harbor
    the frigates fight apart from the ships of the line), with its winner,
    so that a report can tell each outcome."""
    out = []
    for (tier, idx), e in zip(tiers(battle), result.engagements, strict=False):  # one per tier fought
        if not e.fought:
            continue
        ids = [battle.ships[i].key for i in idx if result.outcome[i] is not Outcome.IDLE]
        winner = None if e.winner is None else sides[e.winner]["states"]
        out.append({"tier": tier, "winner": winner, "ships": ids})
    return out


def battle_data(battle: Battle, result: BattleResult, ships: list[Ship]) -> dict[str, Any]:
    """JSON-safe detail of a battle (integers only) for the reports."""
    sides: list[dict[str, Any]] = []
    for side in (0, 1):
        main = next((e for e in result.engagements if e.fought), None)
        sides.append(
            {
                "states": sorted(
                    {s.state for b, s in zip(battle.ships, ships, strict=True) if b.side == side}
                ),
                "strength": round(main.strength[side]) if main else 0,
                # ships at anchor in a harbor have no weather gauge (docs/rules/combat.md)
                "windward": main is not None and main.windward == side and battle.where is not Where.HARBOR,
                "line": main.line[side].value if main else "none",
            }
        )
    return {
        "where": battle.where.value,
        "winner": None if result.winner is None else sides[result.winner]["states"],
        "fights": fights_data(battle, result, sides),
        "sides": sides,
        "shore_battery": None if battle.battery is None else battle.battery.side,
        "ships": [
            {
                "id": s.id,
                "side": b.side,
                "outcome": result.outcome[i].value,
                "strength": round(result.strength[i]),
                "close_quarters": result.close[i],
                "hull": [s.hull, result.hull[i]],
                "rigging": [s.rigging, result.rigging[i]],
                "crew_lost": result.crew_lost[i],
                "marines_lost": result.marines_lost[i],
                "experience_gained": result.experience_gained[i],
                "stance": b.stance.value,  # her combat order (4.7); only her own player reads it
            }
            for i, (b, s) in enumerate(zip(battle.ships, ships, strict=True))
        ],
    }
