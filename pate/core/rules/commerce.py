"""Commerce (rule 4.8): merchant traffic, raiders, convoys and the naval
ministers' trade summary.  The rule book names the orders only (raid enemy
commerce, convoy one's own, or ignore); the design is decided in
docs/rules/orders.md ("Commerce"), every number in data/rules/commerce.toml.

At the end of the turn (final amphibious phase, where the raiders and
escorts finished their moves), in each sea area:

- each state's merchants at sea there: its trade spread over the sea areas
  of the ports it controls;
- every active warship with Raid orders, at sea or in the coastal waters of
  a port of the area, may take each merchant there of a state at war with
  its own, at the chance of its type (frigates most), divided by
  (1 + the escort weight on Convoy of the merchants' side in the area);
- each merchant prize costs the raider a prize crew.

Events: ``merchant_prizes`` (the raider, for its commander), ``trade_lost``
(the victim state's naval minister), ``convoy_covered`` (escorts that
covered merchants under attack) and one ``trade_summary`` per state with a
naval minister: the state's traffic, losses and prizes by sea area
(:class:`TradeSummary` reads it back for the reports).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.model import Commerce
from pate.core.rng import Rng
from pate.core.ruledata import RuleData
from pate.core.rules.context import TurnContext, TurnState
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship, ShipType
from pate.core.world.state import WorldState

PHASE = Phase.FINAL_AMPHIBIOUS


@dataclass(frozen=True, slots=True)
class CommerceRules:
    trade: Mapping[str, int]
    default_trade: int
    raid_pct: Mapping[ShipType, float]
    prize_crew: int
    coastal: bool
    escort: Mapping[ShipType, float]

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> CommerceRules:
        trade = dict(d.get("trade", {}))
        raid = d.get("raid", {})
        convoy = d.get("convoy", {})
        return cls(
            trade={k: int(v) for k, v in trade.items() if k != "default"},
            default_trade=int(trade.get("default", 0)),
            raid_pct={t: float(raid.get(t.value, 0)) for t in ShipType},
            prize_crew=int(raid.get("prize_crew", 0)),
            coastal=bool(raid.get("coastal", True)),
            escort={t: float(convoy.get(t.value, 0)) for t in ShipType},
        )

    @classmethod
    def of(cls, rules: RuleData) -> CommerceRules:
        return cls.from_section(rules.section("commerce"))

    def trade_of(self, state: str) -> int:
        return self.trade.get(state, self.default_trade)


def traffic(world_map: WorldMap, world: WorldState, r: CommerceRules) -> dict[str, dict[str, int]]:
    """Merchants at sea per state and sea area: the state's trade spread
    equally over its ports' sea areas, largest remainder (ties by area code)."""
    areas: dict[str, dict[str, int]] = {}
    for name in sorted(world.ports):
        port = world_map.ports.get(name)
        if port is None:
            continue
        by_state = areas.setdefault(world.ports[name].controller, {})
        by_state[port.sea_area] = by_state.get(port.sea_area, 0) + 1
    out: dict[str, dict[str, int]] = {}
    for state in sorted(areas):
        ports = areas[state]
        total, n = r.trade_of(state), sum(ports.values())
        shares = {a: total * k // n for a, k in ports.items()}
        left = total - sum(shares.values())
        for a in sorted(ports, key=lambda a: (-(total * ports[a] % n), a))[:left]:
            shares[a] += 1
        out[state] = {a: v for a, v in sorted(shares.items()) if v > 0}
    return out


def _area_of(world_map: WorldMap, ship: Ship, r: CommerceRules) -> str | None:
    loc = ship.location
    if isinstance(loc, AtSea):
        return loc.area
    if isinstance(loc, InPort) and not loc.harbor and r.coastal:
        return world_map.ports[loc.port].sea_area
    return None


def commerce_step(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    r = CommerceRules.of(ctx.rules)
    world = ts.world
    merchants = traffic(ctx.map, world, r)
    raiders, escorts = _stations(ctx, ts, r)
    events: list[Event] = []
    taken: dict[tuple[str, str], int] = {}  # (victim, area) -> merchants taken
    took: dict[str, int] = {}  # raider state -> merchant prizes
    crews: dict[str, Ship] = {}
    for area in sorted(raiders):
        present = sorted(s.id for ships in (raiders, escorts) for s in ships.get(area, ()))
        for victim in sorted(merchants):
            n = merchants[victim].get(area, 0)
            hunters = [s for s in raiders[area] if world.diplomacy.hostile(s.state, victim)]
            if not n or not hunters:
                continue
            cover = [s for s in escorts.get(area, ()) if world.diplomacy.allied(s.state, victim)]
            shield = 1.0 + sum(r.escort[s.type] for s in cover)
            prizes = _hunt(hunters, n, shield, r, rng.fork("raid", area, victim))
            lost = sum(prizes.values())
            events += _prize_crews(world, r, (area, victim), prizes, present, crews, took)
            if lost:
                taken[(victim, area)] = taken.get((victim, area), 0) + lost
            events += _trade_events((area, victim), n, lost, hunters, cover, prizes)
    events += _summaries(world, merchants, taken, took)
    if crews:
        ts = replace(ts, world=world.with_ships(crews))
    return ts.emit(*events)


def _stations(
    ctx: TurnContext, ts: TurnState, r: CommerceRules
) -> tuple[dict[str, list[Ship]], dict[str, list[Ship]]]:
    """Raiders and escorts by the sea area they work in, each in id order."""
    raiders: dict[str, list[Ship]] = {}
    escorts: dict[str, list[Ship]] = {}
    for ship in sorted(ts.world.ships.values(), key=lambda s: s.id):
        area = _area_of(ctx.map, ship, r) if ship.active else None
        commerce = ts.order(ship.id).commerce
        if area is None or commerce is Commerce.IGNORE:
            continue
        (raiders if commerce is Commerce.RAID else escorts).setdefault(area, []).append(ship)
    return raiders, escorts


def _prize_crews(
    world: WorldState,
    r: CommerceRules,
    where: tuple[str, str],
    prizes: dict[str, int],
    present: list[str],
    crews: dict[str, Ship],
    took: dict[str, int],
) -> list[Event]:
    """Each raider sends a prize crew into every merchant it took; the crews
    and the count by state are updated here, the events returned."""
    area, victim = where
    events: list[Event] = []
    for sid, k in sorted(prizes.items()):
        raider = crews.get(sid, world.ships[sid])
        crew_sent = min(raider.crew, k * r.prize_crew)
        crews[sid] = replace(raider, crew=raider.crew - crew_sent)
        took[raider.state] = took.get(raider.state, 0) + k
        seen = tuple(i for i in present if i != sid)
        data = {"area": area, "victim": victim, "state": raider.state, "prizes": k, "prize_crew": crew_sent}
        events.append(Event(PHASE, "merchant_prizes", (sid,), area, seen, data))
    return events


def _trade_events(
    where: tuple[str, str], n: int, lost: int, hunters: list[Ship], cover: list[Ship], prizes: dict[str, int]
) -> list[Event]:
    """What the victim's trade lost in the area, and what its escorts covered."""
    area, victim = where
    events: list[Event] = []
    if lost:
        by = sorted({s.state for s in hunters if prizes.get(s.id)})
        data: dict[str, Any] = {
            "state": victim,
            "area": area,
            "taken": lost,
            "merchants": n,
            "by": by,
            "escorts": len(cover),
        }
        events.append(Event(PHASE, "trade_lost", (), area, (), data))
    if cover:
        data = {"area": area, "state": victim, "merchants": n, "lost": lost, "raiders": len(hunters)}
        events.append(
            Event(
                PHASE, "convoy_covered", tuple(s.id for s in cover), area, tuple(s.id for s in hunters), data
            )
        )
    return events


def _hunt(hunters: list[Ship], n: int, shield: float, r: CommerceRules, rng: Rng) -> dict[str, int]:
    """Each merchant in turn: each raider, in id order, may take it."""
    prizes: dict[str, int] = {}
    for k in range(n):
        draw = rng.fork(k)
        for s in hunters:
            if draw.chance(r.raid_pct[s.type] / shield):
                prizes[s.id] = prizes.get(s.id, 0) + 1
                break
    return prizes


def _summaries(
    world: WorldState,
    merchants: Mapping[str, Mapping[str, int]],
    taken: Mapping[tuple[str, str], int],
    took: Mapping[str, int],
) -> list[Event]:
    out = []
    for state in sorted(merchants):
        if world.naval_minister(state) is None:
            continue
        areas: list[dict[str, Any]] = [
            {"area": a, "merchants": n, "taken": taken.get((state, a), 0)}
            for a, n in merchants[state].items()
        ]
        total = sum(merchants[state].values())
        lost = sum(taken.get((state, a), 0) for a in merchants[state])
        data = {
            "state": state,
            "merchants": total,
            "taken": lost,
            "arrived": total - lost,
            "prizes": took.get(state, 0),
            "areas": areas,
        }
        out.append(Event(PHASE, "trade_summary", (), "", (), data))
    return out


@dataclass(frozen=True, slots=True)
class AreaTrade:
    area: str
    merchants: int
    taken: int


@dataclass(frozen=True, slots=True)
class TradeSummary:
    """A naval minister's trade for one turn (rule 4.8), read from the
    ``trade_summary`` event: merchants at sea, taken by the enemy, arrived,
    and merchant prizes his raiders took; by sea area."""

    state: str
    merchants: int
    taken: int
    arrived: int
    prizes: int
    areas: tuple[AreaTrade, ...]

    @classmethod
    def from_events(cls, events: Iterable[Event], state: str) -> TradeSummary | None:
        for e in events:
            if e.kind == "trade_summary" and e.data.get("state") == state:
                d = e.data
                areas = tuple(
                    AreaTrade(str(a["area"]), int(a["merchants"]), int(a["taken"])) for a in d["areas"]
                )
                return cls(
                    state, int(d["merchants"]), int(d["taken"]), int(d["arrived"]), int(d["prizes"]), areas
                )
        return None
