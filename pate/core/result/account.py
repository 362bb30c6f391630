"""The final account of a campaign, side by side (docs/rules/result.md).

Pure and deterministic: the start world, the final world and every turn's
events give the same account every time, in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pate.core.events import Event
from pate.core.result.fates import SCUTTLED, SEA, SUNK, TAKEN, Ledger, read_ledger
from pate.core.result.sides import Side, campaign_sides, side_of
from pate.core.ruledata import ResultScoring
from pate.core.world.ships import ShipType
from pate.core.world.state import WorldState

TYPES = tuple(t.value for t in ShipType)  # FL, SL, FR, TR: the account's columns


def _by_type() -> dict[str, int]:
    return dict.fromkeys(TYPES, 0)


@dataclass(slots=True)
class SideAccount:
    side: str  # Side.key: "BR+PO"
    name: str
    states: tuple[str, ...]
    ships_start: dict[str, int] = field(default_factory=_by_type)
    ships_end: dict[str, int] = field(default_factory=_by_type)
    sunk: dict[str, int] = field(default_factory=_by_type)  # own ships an enemy sank or destroyed
    lost_to_sea: dict[str, int] = field(default_factory=_by_type)  # foundered or wrecked
    scuttled: dict[str, int] = field(default_factory=_by_type)
    taken: dict[str, int] = field(default_factory=_by_type)  # own ships the enemy took
    sank: dict[str, int] = field(default_factory=_by_type)  # enemy ships it sank or destroyed
    prizes: dict[str, int] = field(default_factory=_by_type)  # enemy ships it took
    unrecorded: dict[str, int] = field(default_factory=_by_type)  # count change no event explains
    merchants_lost: int = 0
    merchants_taken: int = 0
    trade_sailed: int = 0
    trade_arrived: int = 0
    troops_landed: int = 0  # land units put ashore from its transports
    troops_landed_on_enemy: int = 0  # of them, in ports an enemy held at the start
    troops_lost: int = 0  # land units lost at sea
    men_lost: int = 0  # their men, where PATE knows the units' sizes
    ports_taken: tuple[str, ...] = ()
    ports_lost: tuple[str, ...] = ()
    won: int = 0  # points
    lost: int = 0

    @property
    def score(self) -> int:
        return self.won - self.lost

    @property
    def ships_lost(self) -> dict[str, int]:
        return {t: self.sunk[t] + self.lost_to_sea[t] + self.scuttled[t] + self.taken[t] for t in TYPES}


def _ships(world: WorldState, sides: tuple[Side, ...], into: Mapping[str, SideAccount], field_: str) -> None:
    for ship in world.ships.values():
        side = side_of(sides, ship.state)
        if side is not None:
            getattr(into[side.key], field_)[ship.type.value] += 1


def _fates(ledger: Ledger, sides: tuple[Side, ...], acc: Mapping[str, SideAccount]) -> None:
    where = {SUNK: "sunk", SEA: "lost_to_sea", SCUTTLED: "scuttled", TAKEN: "taken"}
    for f in ledger.fates:
        own = side_of(sides, f.state)
        if own is not None:
            getattr(acc[own.key], where[f.how])[f.type.value] += 1
        enemy = side_of(sides, f.by) if f.by else None
        if enemy is not None and enemy != own:
            (acc[enemy.key].prizes if f.how == TAKEN else acc[enemy.key].sank)[f.type.value] += 1


def _unrecorded(ledger: Ledger, sides: tuple[Side, ...], acc: Mapping[str, SideAccount]) -> None:
    """The end count less what the start count and the events make of it: zero
    when every ship that came or went did so by an event the account reads."""
    expected = {key: dict(a.ships_start) for key, a in acc.items()}
    for f in ledger.fates:
        own = side_of(sides, f.state)
        if own is not None:
            expected[own.key][f.type.value] -= 1
        captor = side_of(sides, f.by) if f.how == TAKEN and f.by else None
        if captor is not None:
            expected[captor.key][f.type.value] += 1
    for r in ledger.regrouped:
        side = side_of(sides, r.state)
        if side is not None:
            expected[side.key][ShipType.TR.value] += r.change
    for key, a in acc.items():
        a.unrecorded = {t: a.ships_end[t] - expected[key][t] for t in TYPES}


def _commerce(ledger: Ledger, sides: tuple[Side, ...], acc: Mapping[str, SideAccount]) -> None:
    for m in ledger.merchants:
        victim, raider = side_of(sides, m.victim), side_of(sides, m.raider)
        if victim is not None:
            acc[victim.key].merchants_lost += m.taken
        if raider is not None:
            acc[raider.key].merchants_taken += m.taken
    for t in ledger.trade:
        side = side_of(sides, t.state)
        if side is not None:
            acc[side.key].trade_sailed += t.sailed
            acc[side.key].trade_arrived += t.arrived


def _troops(
    ledger: Ledger, start: WorldState, sides: tuple[Side, ...], acc: Mapping[str, SideAccount]
) -> None:
    gone: set[str] = set()  # a unit is lost once, whichever rule told of it (EiA and section 9 both may)
    for t in ledger.troops:
        side = side_of(sides, t.state)
        if side is None:
            continue
        a = acc[side.key]
        if not t.landed:
            units = [u for u in t.units if u not in gone]
            gone.update(units)
            a.troops_lost += len(units)
            a.men_lost += sum(start.land_units[u].men for u in units if u in start.land_units)
            continue
        a.troops_landed += len(t.units)
        held = start.ports.get(t.port)
        if held is not None and start.diplomacy.hostile(t.state, held.controller):
            a.troops_landed_on_enemy += len(t.units)


def _ports(
    start: WorldState, final: WorldState, sides: tuple[Side, ...], acc: Mapping[str, SideAccount]
) -> None:
    """A port counts by where it ended against where it began: one taken and
    retaken within the campaign counts for nobody."""
    taken: dict[str, list[str]] = {}
    lost: dict[str, list[str]] = {}
    for name in sorted(start.ports):
        if name not in final.ports:
            continue
        before = side_of(sides, start.ports[name].controller)
        after = side_of(sides, final.ports[name].controller)
        if before is None or after is None or before == after:
            continue
        taken.setdefault(after.key, []).append(name)
        lost.setdefault(before.key, []).append(name)
    for key, a in acc.items():
        a.ports_taken = tuple(taken.get(key, ()))
        a.ports_lost = tuple(lost.get(key, ()))


def _points(a: SideAccount, s: ResultScoring) -> None:
    ship = {t.value: s.ship[t] for t in ShipType}
    a.won = (
        sum(ship[t] * (a.sank[t] + a.prizes[t]) for t in TYPES)
        + s.merchant * a.merchants_taken
        + s.port * len(a.ports_taken)
        + s.troops_landed * a.troops_landed_on_enemy
    )
    a.lost = (
        sum(ship[t] * a.ships_lost[t] for t in TYPES)
        + s.merchant * a.merchants_lost
        + s.port * len(a.ports_lost)
        + s.troops_lost * a.troops_lost
    )


def final_account(
    start: WorldState,
    final: WorldState,
    turns: Mapping[int, Sequence[Event]],
    scoring: ResultScoring,
) -> list[SideAccount]:
    """Every side's account, in the order of :func:`campaign_sides`."""
    sides = campaign_sides(start, final)
    units = {u: v.state for w in (start, final) for u, v in w.land_units.items()}
    ledger = read_ledger(turns, final.diplomacy, units)
    acc = {s.key: SideAccount(s.key, s.name, s.states) for s in sides}
    _ships(start, sides, acc, "ships_start")
    _ships(final, sides, acc, "ships_end")
    _fates(ledger, sides, acc)
    _unrecorded(ledger, sides, acc)
    _commerce(ledger, sides, acc)
    _troops(ledger, start, sides, acc)
    _ports(start, final, sides, acc)
    for a in acc.values():
        _points(a, scoring)
    return [acc[s.key] for s in sides]
