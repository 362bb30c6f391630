"""Carrying an EiA battle into the world (12.2.6.1.8, 12.2.6.1.9, 12.2.6.2,
12.2.6.3.4, 12.2.7, 12.2.8).

Disabled ships that reach port become hulks there (captured ones under the
lowest free id of their new state, rule 7.8's numbering); ships lost en route
leave the game; the defeated retreat; blockaded survivors go back into the
harbor and raiders out to the coastal waters; Nelson's fate is recorded; the
victor's political points are told as a campaign event.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.rng import Rng
from pate.core.rules.combat.apply import free_tactical_area
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia.engine import political_points
from pate.core.rules.eia.model import EiaBattle, EiaResult, Fate, Kind, NelsonFate
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eia.spec import EIA
from pate.core.rules.eia.world import Haven
from pate.core.world.ships import AtSea, InPort, Location, Ship, describe, ship_id
from pate.core.world.state import Admiral, AdmiralFate, WorldState


@dataclass(frozen=True, slots=True)
class Setting:
    place: Location
    sides: tuple[tuple[str, ...], tuple[str, ...]]
    havens: tuple[Haven | None, Haven | None]


@dataclass
class _Aftermath:
    """What a battle changes in the world, gathered ship by ship in the fates' order."""

    where: str
    contact: tuple[str, ...]
    orders: dict[str, Any]
    used: set[str]  # no id used twice in a turn
    events: list[Event] = field(default_factory=list)
    changed: dict[str, Ship] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)

    def event(self, kind: str, about: tuple[str, ...], /, **data: Any) -> None:
        seen = tuple(i for i in self.contact if i not in about)
        self.events.append(Event(Phase.COMBAT, kind, about, self.where, seen, data))

    def gone(self, ship: Ship) -> None:
        self.removed.append(ship.id)
        self.orders.pop(ship.id, None)


def apply_eia(
    ctx: TurnContext,
    ts: TurnState,
    rules: EiaRules,
    battle: EiaBattle,
    result: EiaResult,
    setting: Setting,
    *,
    contact: tuple[str, ...],
    rng: Rng,
) -> TurnState:
    world = ts.world
    used = set(world.ships) | set(ts.start.ships if ts.start else ())
    out = _Aftermath(describe(setting.place), contact, dict(ts.orders), used)
    before = [world.ships[b.key] for b in battle.ships]
    out.event(
        "battle",
        tuple(s.id for s, f in zip(before, result.fate, strict=True) if f is not Fate.IDLE),
        **battle_data(battle, result, before, setting),
    )
    for i, ship in enumerate(before):
        _fate(ctx, world, battle, result, setting, i, ship, out, rng)
    gone = set(out.removed)
    for s in world.ships.values():
        if s.attached_to in gone and s.id not in gone:
            out.changed[s.id] = replace(out.changed.get(s.id, s), attached_to=None)
    new_world = world.with_ships(out.changed, tuple(out.removed))
    new_world = _nelson(new_world, rules, battle, result, before, out.event)
    new_world = _political(new_world, rules, battle, result, setting, out)
    return replace(ts, world=new_world, orders=out.orders).emit(*out.events)


def _fate(
    ctx: TurnContext,
    world: WorldState,
    battle: EiaBattle,
    result: EiaResult,
    setting: Setting,
    i: int,
    ship: Ship,
    out: _Aftermath,
    rng: Rng,
) -> None:
    """One ship's fate carried into the world (12.2.6.1.9, 12.2.6.2, 12.2.8)."""
    fate = result.fate[i]
    owner = result.owner[i]
    if fate is Fate.LOST:
        out.gone(ship)
        out.event("lost_en_route", (ship.id,), state=ship.state, type=ship.type.value)
        _cargo_lost(out.event, ship)
    elif fate is Fate.HULK and owner is not None:
        _hulk(world, battle, setting, i, ship, owner, out)
    elif fate is Fate.CAPTURED and owner is not None:
        victor = setting.sides[owner]
        prize = _taken(ship, _victor_state(world, battle, result, owner, victor), out.used)
        out.gone(ship)
        out.changed[prize.id] = prize
        out.event("captured", (ship.id, prize.id), prize=prize.id, captor="", state=prize.state, rules=EIA)
        if ship.cargo.units or ship.cargo.supplies:
            out.event(
                "cargo_captured",
                (ship.id,),
                transport=ship.id,
                units=list(ship.cargo.units),
                supplies=ship.cargo.supplies,
                captor=prize.state,
            )
    elif fate in (Fate.RETREATED, Fate.RETURNED, Fate.WITHDRAWN):
        dest = _withdrawal(ctx, world, setting.place, fate, rng.fork(ship.id))
        if dest != ship.location:
            out.changed[ship.id] = replace(ship, location=dest)
            out.event(fate.value, (ship.id,), to=describe(dest))


def _hulk(
    world: WorldState, battle: EiaBattle, setting: Setting, i: int, ship: Ship, owner: int, out: _Aftermath
) -> None:
    """12.2.6.1.9: a disabled ship that reaches port is a hulk there, a prize when the port is
    the other side's."""
    dock = setting.havens[owner]
    assert dock is not None  # a side without a port loses its disabled ships
    if battle.ships[i].side == owner and _hulk_already_in(ship, dock.port):
        return  # 12.2.8.1: a hulk that fought a raid on her port is disabled where she lies: no news
    hulk = replace(
        ship,
        location=InPort(dock.port, harbor=True),
        hulk=True,
        active=False,
        attached_to=None,
        reactivates_turn=None,
    )
    if battle.ships[i].side != owner:
        hulk = _taken(hulk, _new_state(world, setting.sides[owner], dock), out.used)
        out.removed.append(ship.id)
        out.event("captured", (ship.id, hulk.id), prize=hulk.id, captor="", state=hulk.state, rules=EIA)
    out.changed[hulk.id] = hulk
    out.orders.pop(ship.id, None)
    out.event("hulk", (hulk.id,), port=dock.port, movement_points=dock.movement_points)


def _hulk_already_in(ship: Ship, port: str) -> bool:
    return ship.hulk and isinstance(ship.location, InPort) and ship.location.port == port


def _political(
    world: WorldState,
    rules: EiaRules,
    battle: EiaBattle,
    result: EiaResult,
    setting: Setting,
    out: _Aftermath,
) -> WorldState:
    """12.2.6.1.6.3: the victor's political points, told and posted."""
    points = political_points(rules, battle, result)
    if not points:
        return world
    assert result.winner is not None
    out.event(
        "political_points",
        (),
        gained=list(setting.sides[result.winner]),
        lost=list(setting.sides[1 - result.winner]),
        points=points,
        rule="12.2.6.1.6.3",
    )
    return _post_points(world, battle, result.winner, points)


def _post_points(world: WorldState, battle: EiaBattle, winner: int, points: int) -> WorldState:
    """12.2.6.1.6.3: "Post these adjustments on the political status display":
    each state whose warships fought on the victor's side gains the points,
    each on the defeated side loses them (docs/rules/eia.md)."""
    tally = dict(world.political_points)
    for state in sorted({s.state for s in battle.ships if s.factor and not s.hulk}):
        won = any(s.state == state and s.side == winner for s in battle.ships)
        tally[state] = tally.get(state, 0) + (points if won else -points)
    return replace(world, political_points=tally)


def _cargo_lost(event: Any, ship: Ship) -> None:
    if ship.cargo.units or ship.cargo.supplies:
        event(
            "cargo_lost",
            (ship.id,),
            transport=ship.id,
            units=list(ship.cargo.units),
            supplies=ship.cargo.supplies,
            captor="",
        )


def _new_state(world: WorldState, side: tuple[str, ...], dock: Haven) -> str:
    """A captured hulk belongs to the state whose port it reached, or to the
    first state of the victor's side allied to it."""
    if dock.controller in side:
        return dock.controller
    return next((s for s in side if world.diplomacy.allied(s, dock.controller)), side[0])


def _victor_state(
    world: WorldState, battle: EiaBattle, result: EiaResult, owner: int, side: tuple[str, ...]
) -> str:
    """A captured transport group goes to the state of the victor's first
    warship still in the fight."""
    for i, s in enumerate(battle.ships):
        if s.side == owner and s.factor and not result.disabled_in[i]:
            return s.state
    return side[0]


def _taken(ship: Ship, state: str, used: set[str]) -> Ship:
    n = 1
    while ship_id(state, n, ship.type) in used:
        n += 1
    new_id = ship_id(state, n, ship.type)
    used.add(new_id)
    return replace(ship, id=new_id, state=state, number=n, commander=None, deputy=None, attached_to=None)


def _withdrawal(ctx: TurnContext, world: WorldState, place: Location, fate: Fate, rng: Rng) -> Location:
    """12.2.6.1.8 (retreat: another tactical area, or out of the coastal
    waters to the sea area), 12.2.6.2 (blockaded survivors back into port),
    12.2.6.3.4 (raiders to the blockade box: the coastal waters)."""
    if isinstance(place, InPort):
        if fate is Fate.RETURNED:
            return InPort(place.port, harbor=True)
        if fate is Fate.WITHDRAWN:
            return InPort(place.port, harbor=False)
        area = ctx.map.ports[place.port].sea_area
        return AtSea(area, free_tactical_area(ctx, world, area, rng, avoid=None))
    if isinstance(place, AtSea):
        return AtSea(place.area, free_tactical_area(ctx, world, place.area, rng, avoid=place.tactical))
    return place


def _nelson(
    world: WorldState, rules: EiaRules, battle: EiaBattle, result: EiaResult, ships: list[Ship], event: Any
) -> WorldState:
    """12.2.7: the fate of Nelson, and 12.2.7.1 of every other admiral, recorded and told."""
    for (other, _), fate in zip(battle.admirals, result.admiral_fates, strict=True):
        world = _admiral_fate(world, rules, other, fate, 0, event)
    if result.nelson is None or battle.nelson is None:
        return world
    pid = next(
        (
            s.commander
            for s, b in zip(ships, battle.ships, strict=True)
            if b.side == battle.nelson
            and s.commander in world.admirals
            and world.admirals[s.commander].nelson
        ),
        None,
    )
    if pid is None:
        return world
    return _admiral_fate(world, rules, pid, result.nelson, result.closing_shift, event)


def _admiral_fate(
    world: WorldState, rules: EiaRules, pid: str, fate_rolled: NelsonFate, shift: int, event: Any
) -> WorldState:
    admiral = world.admirals[pid]
    player = world.players.get(pid)
    event(
        "admiral_in_battle",
        (),
        admiral=pid,
        name=player.name if player is not None else pid,  # rule 3.11: reports name him as the rule book does
        fate=fate_rolled.value,
        closing_shift=shift,
        rule="12.2.7" if admiral.nelson else "12.2.7.1",
    )
    if fate_rolled is NelsonFate.UNHURT:
        return world
    fate = AdmiralFate.KILLED if fate_rolled is NelsonFate.KILLED else AdmiralFate.WOUNDED
    back = world.turn + rules.wounded_turns if fate is AdmiralFate.WOUNDED else None
    updated: Admiral = replace(admiral, fate=fate, returns_turn=back)
    return replace(world, admirals={**world.admirals, pid: updated})


def battle_data(battle: EiaBattle, result: EiaResult, ships: list[Ship], setting: Setting) -> dict[str, Any]:
    """JSON-safe detail of an EiA battle for the reports; the keys PATE's
    battle reports read (sides' states, winner, ships' outcomes) plus EiA's."""
    sides = [
        {
            "states": sorted({s.state for s, b in zip(ships, battle.ships, strict=True) if b.side == n}),
            # 12.2.6.2 and 12.2.6.3.2: "no tactical chits are chosen" there
            "chit": battle.chits[n].value if battle.kind is Kind.OPEN_SEA else None,
            "morale": result.morale[n],
            "morale_lost": result.morale_lost[n],
            "broken": result.broken[n],
            "attacker": battle.attacker == n,
        }
        for n in (0, 1)
    ]
    return {
        "rules": EIA,
        "kind": battle.kind.value,
        "where": "harbor"
        if isinstance(setting.place, InPort) and setting.place.harbor
        else "coastal"
        if isinstance(setting.place, InPort)
        else "sea",
        "winner": None if result.winner is None else sides[result.winner]["states"],
        "sides": sides,
        "rounds": [
            {
                "round": r.number,
                "tables": list(r.tables),
                "dice": list(r.dice),
                "disabled": list(r.disabled),
                "modifiers": list(r.modifiers),
                "morale": list(r.morale),
                "closed": r.closed,
            }
            for r in result.rounds
        ],
        "harbor_defenses": None if result.harbor_fire is None else result.harbor_fire.disabled,
        "attacker": battle.attacker,
        "chase": None
        if result.chase is None
        else {"table": result.chase.table, "disabled": result.chase.disabled},
        "ships": [
            {
                "id": s.id,
                "side": b.side,
                "outcome": result.fate[i].value,
                "disabled_in": result.disabled_in[i],
            }
            for i, (b, s) in enumerate(zip(battle.ships, ships, strict=True))
        ],
    }
