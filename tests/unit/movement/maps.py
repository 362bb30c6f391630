"""A toy map and world builders for the movement tests.

The American part has the sea areas of the rule 6.2 example (the Southern
Caribbean borders the Northern Caribbean, Surinam Coast and Panama Coast, not
the Western Caribbean nor the Southwest Atlantic); the European part has the
Iberian Coast on the Atlantic edge with Lisbon, and Gibraltar on the strait
between SOA and WMD (6.3).  States: Britain at war with France and Spain,
France and Spain actively allied, Portugal at peace with everyone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pate.core.orders.model import Contact, ContactMode, Movement, ShipOrder
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.movement import movement_phase
from pate.core.world.diplomacy import Diplomacy, State
from pate.core.world.geography import Direction, MapName, Port, SeaArea, WindStrength, WindTable, WorldMap
from pate.core.world.ships import AtSea, InPort, Location, Ship, ShipType, parse_ship_id
from pate.core.world.state import PortState, TurnKind, Wind, WorldState
from pate.datafiles import load_rule_data

N, S, E, W = Direction.NORTH, Direction.SOUTH, Direction.EAST, Direction.WEST
LIGHT, MODERATE, HEAVY = WindStrength.LIGHT, WindStrength.MODERATE, WindStrength.HEAVY

UNIFORM = WindTable(
    direction=((N, 25), (S, 25), (E, 25), (W, 25)),
    strength=((LIGHT, 30), (MODERATE, 50), (HEAVY, 20)),
)


def _area(code: str, name: str, map_: MapName, edge: bool = False, tactical: int = 4, **nb: str) -> SeaArea:
    neighbours = tuple((Direction(d), tuple(v.split(","))) for d, v in sorted(nb.items()))
    return SeaArea(code, name, map_, neighbours, UNIFORM, tactical, edge, (0.0, 0.0))


def _port(name: str, area: str, exit_: Direction, controller: str, strait: str | None = None) -> Port:
    return Port(name, controller, controller, area, exit_, 2, 2, 50, False, strait)


AM, EU = MapName.AMERICA, MapName.EUROPE

SEA_AREAS = [
    _area("SOC", "Southern Caribbean", AM, north="NOC", east="SUR", west="PAN"),
    _area("NOC", "Northern Caribbean", AM, south="SOC", west="WCA", north="BAH", east="SWA"),
    _area("SUR", "Surinam Coast", AM, west="SOC"),
    _area("PAN", "Panama Coast", AM, east="SOC", north="WCA"),
    _area("WCA", "Western Caribbean", AM, east="NOC", south="PAN"),
    _area("BAH", "Bahamas", AM, south="NOC"),
    _area("SWA", "Southwest Atlantic", AM, edge=True, west="NOC"),
    _area("BIS", "Bay of Biscay", EU, edge=True, south="IBC"),
    _area("IBC", "Iberian Coast", EU, edge=True, north="BIS", south="SOA"),
    _area("SOA", "Straits of Andalusia", EU, north="IBC", east="WMD"),
    _area("WMD", "Western Mediterranean", EU, west="SOA"),
]

PORTS = [
    _port("Martinique", "SOC", N, "FR"),
    _port("Dominica", "NOC", S, "BR"),
    _port("Port au Prince", "WCA", S, "FR"),
    _port("Lisbon", "IBC", W, "PO"),
    _port("Cadiz", "SOA", W, "SP"),
    _port("Gibraltar", "WMD", E, "BR", strait="SOA"),
    _port("Cartagena", "WMD", S, "SP"),
]

TOY_MAP = WorldMap(sea_areas={a.code: a for a in SEA_AREAS}, ports={p.name: p for p in PORTS})

DIPLOMACY = Diplomacy.build(
    {c: State(c, c, c) for c in ("BR", "FR", "SP", "PO")},
    wars=[("BR", "FR"), ("BR", "SP")],
    alliances=[("FR", "SP")],
)

RULES = load_rule_data()
CTX = TurnContext(map=TOY_MAP, rules=RULES)


def ship(sid: str, loc: Location, base: str = "Cadiz", **kw: Any) -> Ship:
    parsed = parse_ship_id(sid)
    assert parsed is not None, sid
    state, number, type_ = parsed
    return Ship(id=sid, state=state, type=type_, number=number, name=sid, location=loc, base=base, **kw)


def sea(area: str, tactical: int = 1) -> AtSea:
    return AtSea(area, tactical)


def port(name: str, harbor: bool = False) -> InPort:
    return InPort(name, harbor)


WESTERLY = Wind(W, MODERATE)


def winds(default: Wind = WESTERLY, **per_area: Wind) -> dict[str, Wind]:
    out = {code: default for code in TOY_MAP.sea_areas}
    out.update(per_area)
    return out


def world(
    ships: list[Ship], wind: dict[str, Wind] | None = None, kind: TurnKind = TurnKind.CAMPAIGN, turn: int = 1
) -> WorldState:
    return WorldState(
        campaign="toy",
        turn=turn,
        turns=15,
        seed=1,
        kind=kind,
        diplomacy=DIPLOMACY,
        players={},
        ships={s.id: s for s in ships},
        ports={p.name: PortState(p.name, p.controller, p.stores) for p in PORTS},
        winds=wind if wind is not None else winds(),
    )


def go(*areas: str, port_: str | None = None, harbor: bool = False, **kw: Any) -> Movement:
    return Movement(sea_areas=tuple(areas), port=port_, harbor=harbor, **kw)


def order(sid: str, movement: Movement | None = None, **kw: Any) -> ShipOrder:
    return ShipOrder(sid, movement=movement or Movement(), **kw)


def pursue(minimum: int | None = None, maximum: int | None = None, **kw: Any) -> Contact:
    return Contact(mode=ContactMode.PURSUE, minimum=minimum, maximum=maximum, **kw)


def evade(minimum: int | None = None, maximum: int | None = None, **kw: Any) -> Contact:
    return Contact(mode=ContactMode.EVADE, minimum=minimum, maximum=maximum, **kw)


def run(
    w: WorldState, orders: list[ShipOrder] | None = None, seed: int = 1, ctx: TurnContext = CTX
) -> TurnState:
    ts = TurnState(world=w, orders={o.ship_id: o for o in orders or []})
    return movement_phase(ctx, ts, Rng(seed))


def calm_rules() -> TurnContext:
    """The toy map with rules that never shift winds nor raise storms, so a
    rule case sees exactly the winds it sets."""
    sections = dict(RULES.sections)
    sections["winds"] = {
        **sections.get("winds", {}),
        "shift": {"direction_percent": 0, "strength_percent": 0},
    }
    sections["storms"] = {**sections.get("storms", {}), "chance": {"light": 0, "moderate": 0, "heavy": 0}}
    return TurnContext(map=TOY_MAP, rules=replace(RULES, sections=sections))


CALM = calm_rules()


def variant(
    base: TurnContext = CALM,
    *,
    tactical: dict[str, int] | None = None,
    tables: dict[str, WindTable] | None = None,
    **sections: dict[str, Any],
) -> TurnContext:
    """``base`` with some sea areas' tactical areas or wind tables changed, and
    some rule sections merged over (one level deep)."""
    areas = dict(base.map.sea_areas)
    for code, n in (tactical or {}).items():
        areas[code] = replace(areas[code], tactical_areas=n)
    for code, table in (tables or {}).items():
        areas[code] = replace(areas[code], winds=table)
    merged = dict(base.rules.sections)
    for name, over in sections.items():
        merged[name] = {**merged.get(name, {}), **over}
    return TurnContext(
        map=WorldMap(sea_areas=areas, ports=dict(base.map.ports)),
        rules=replace(base.rules, sections=merged),
    )


def kinds(ts: TurnState) -> list[str]:
    return [e.kind for e in ts.events]


def events_of(ts: TurnState, kind: str) -> list[Any]:
    return [e for e in ts.events if e.kind == kind]


SL, FR, TR = ShipType.SL, ShipType.FR, ShipType.TR
