"""Shared builders for the combat tests: a toy map, a world, battles and specs.

Map: the English Channel (ECH, 4 tactical areas) with Brest (exit west,
defense 3, French) and Plymouth (exit south, defense 2, British).  States:
Britain at war with France and Spain, France and Spain actively allied,
Portugal allied to Britain, Denmark at peace with everyone.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from pate.core.orders.model import (
    Aim,
    Combat,
    CombatStance,
    Contact,
    FleeTo,
    Gauge,
    Line,
    Movement,
    Range,
    ShipOrder,
)
from pate.core.rng import Rng, derive_seed
from pate.core.rules.combat import (
    Battle,
    BattleResult,
    BattleShip,
    CombatRules,
    combat_phase,
    fight_prepared,
    parse_spec,
    prepare,
)
from pate.core.rules.context import TurnContext, TurnState
from pate.core.world.diplomacy import Diplomacy, State
from pate.core.world.geography import Direction, MapName, Port, SeaArea, WindStrength, WindTable, WorldMap
from pate.core.world.ships import AtSea, InPort, Location, Quality, Ship, ShipType, parse_ship_id
from pate.core.world.state import PortState, TurnKind, Wind, WorldState
from pate.datafiles import load_rule_data

RULE_DATA = load_rule_data()
RULES = CombatRules.from_rules(RULE_DATA)

_TABLE = WindTable(
    direction=((Direction.NORTH, 25), (Direction.SOUTH, 25), (Direction.EAST, 25), (Direction.WEST, 25)),
    strength=((WindStrength.LIGHT, 30), (WindStrength.MODERATE, 50), (WindStrength.HEAVY, 20)),
)
MAP = WorldMap(
    sea_areas={
        "ECH": SeaArea("ECH", "English Channel", MapName.EUROPE, (), _TABLE, 4, False, (0.0, 0.0)),
    },
    ports={
        "Brest": Port("Brest", "FR", "FR", "ECH", Direction.WEST, 3, 4, 100, True),
        "Plymouth": Port("Plymouth", "BR", "BR", "ECH", Direction.SOUTH, 2, 4, 100, True),
    },
)
CTX = TurnContext(map=MAP, rules=RULE_DATA)
DIPLOMACY = Diplomacy.build(
    {c: State(c, c, c) for c in ("BR", "FR", "SP", "PO", "DK")},
    wars=[("BR", "FR"), ("BR", "SP")],
    alliances=[("FR", "SP"), ("BR", "PO")],
)

SEA = AtSea("ECH", 1)
HARBOR = InPort("Brest", harbor=True)
COASTAL = InPort("Brest", harbor=False)


def ship(sid: str, location: Location = SEA, **kw: Any) -> Ship:
    parsed = parse_ship_id(sid)
    assert parsed is not None, sid
    state, number, type_ = parsed
    cls = RULE_DATA.ship_class(type_)
    base: dict[str, Any] = {
        "crew": cls.max_crew if type_ is not ShipType.TR else 500,
        "marines": cls.max_marines,
        "commander": f"cmd-{sid}",
        "deputy": f"dep-{sid}",
    }
    base.update(kw)
    return Ship(
        id=sid, state=state, type=type_, number=number, name=sid, location=location, base="Brest", **base
    )


def world(*ships: Ship, wind: Wind | None = None, battery_damaged: bool = False) -> WorldState:
    return WorldState(
        campaign="test",
        turn=1,
        turns=15,
        seed=7,
        kind=TurnKind.CAMPAIGN,
        diplomacy=DIPLOMACY,
        players={},
        ships={s.id: s for s in ships},
        ports={
            "Brest": PortState("Brest", "FR", 100, battery_damaged=battery_damaged),
            "Plymouth": PortState("Plymouth", "BR", 100),
        },
        winds={"ECH": wind or Wind(Direction.NORTH, WindStrength.MODERATE)},
    )


def order(sid: str, **combat: Any) -> ShipOrder:
    gauge = combat.pop("gauge", Gauge.LEEWARD)
    movement = combat.pop("movement", Movement())
    return ShipOrder(sid, combat=Combat(**combat), contact=Contact(gauge=gauge), movement=movement)


def run_phase(w: WorldState, orders: dict[str, ShipOrder] | None = None, seed: int = 1) -> TurnState:
    ts = TurnState(world=w, orders=dict(orders or {}))
    return combat_phase(CTX, ts, Rng(seed))


def fleet(sid_prefix: str, type_: str, n: int, start: int = 1) -> list[str]:
    return [f"{sid_prefix}{k}{type_}" for k in range(start, start + n)]


def bship(key: str, side: int, type_: ShipType = ShipType.SL, **kw: Any) -> BattleShip:
    """A battle ship with full crew and Marines unless told otherwise."""
    kw.setdefault("crew", RULES.max_crew[type_])
    kw.setdefault("marines", RULES.max_marines[type_])
    return BattleShip(key=key, side=side, type=type_, **kw)


def battle(*ships: BattleShip, **kw: Any) -> Battle:
    return Battle(ships=tuple(ships), **kw)


def fights(b: Battle, n: int, seed: int = 1) -> list[BattleResult]:
    """The same battle fought n times on independent fixed streams."""
    prepared = prepare(b, RULES)
    return [fight_prepared(prepared, Rng(derive_seed("case", seed, k))) for k in range(n)]


def tolerance(p: float, n: int) -> float:
    """Four standard errors of a proportion p over n trials (a false alarm
    about once in 15,000 runs of the suite, with seeds fixed: never)."""
    return 4.0 * math.sqrt(max(p * (1.0 - p), 0.0025) / n)


def spec(a: dict[str, Any], b: dict[str, Any], **top: Any) -> Any:
    raw = {"location": "sea", "wind": "moderate", "sides": {"A": a, "B": b}, **top}
    return parse_spec(raw, RULES)


def side(ships: list[dict[str, Any]], gauge: str | None = None, **orders: str) -> dict[str, Any]:
    out: dict[str, Any] = {"ships": ships, "orders": orders}
    if gauge:
        out["gauge"] = gauge
    return out


__all__ = [
    "COASTAL",
    "CTX",
    "HARBOR",
    "MAP",
    "RULES",
    "SEA",
    "Aim",
    "CombatStance",
    "FleeTo",
    "Gauge",
    "Line",
    "Movement",
    "Quality",
    "Range",
    "ShipType",
    "battle",
    "bship",
    "fights",
    "fleet",
    "order",
    "replace",
    "run_phase",
    "ship",
    "side",
    "spec",
    "tolerance",
    "world",
]
