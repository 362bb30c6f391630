"""A small hand-built world for the intelligence and report tests.

The Northern Caribbean and its neighbours as the sample map of rule 1.6 draws
them, plus two European sea areas with on-GITM-map ports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.intel.knowledge import knowledge_for
from pate.core.intel.model import PlayerKnowledge
from pate.core.orders.model import ShipOrder
from pate.core.rng import Rng
from pate.core.ruledata import RuleData, parse_rules
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.intelligence import intelligence_phase
from pate.core.world.diplomacy import Diplomacy, State
from pate.core.world.geography import (
    Direction,
    MapName,
    Port,
    SeaArea,
    WindStrength,
    WindTable,
    WorldMap,
)
from pate.core.world.ships import AtSea, InPort, Location, Ship, parse_ship_id
from pate.core.world.state import Player, PortState, Role, TurnKind, Wind, WorldState
from pate.datafiles import load_rule_data

N, S, E, W = Direction.NORTH, Direction.SOUTH, Direction.EAST, Direction.WEST
_TABLE = WindTable(direction=((W, 100),), strength=((WindStrength.MODERATE, 100),))


def _area(code: str, name: str, map_: MapName, pos: tuple[float, float], **nb: str) -> SeaArea:
    dirs = {"n": N, "s": S, "e": E, "w": W}
    return SeaArea(
        code=code,
        name=name,
        map=map_,
        neighbours=tuple((dirs[k], tuple(v.split())) for k, v in nb.items()),
        winds=_TABLE,
        tactical_areas=4,
        atlantic_edge=code in ("SWA", "ECH"),
        position=pos,
    )


AM, EU = MapName.AMERICA, MapName.EUROPE
AREAS = [
    _area("NOC", "Northern Caribbean", AM, (50, 40), n="BAH", s="SOC", e="SWA", w="WCA"),
    _area("BAH", "Bahamas", AM, (50, 10), s="NOC"),
    _area("WCA", "Western Caribbean", AM, (20, 40), e="NOC"),
    _area("SWA", "Southwest Atlantic", AM, (80, 40), w="NOC"),
    _area("SOC", "Southern Caribbean", AM, (50, 70), n="NOC"),
    _area("ECH", "English Channel", EU, (30, 50), e="NOS"),
    _area("NOS", "North Sea", EU, (60, 30), w="ECH"),
]


def _port(name: str, area: str, exit_: Direction, *, controller: str, on_map: bool, nation: str = "") -> Port:
    return Port(
        name=name,
        nation=nation or controller,
        controller=controller,
        sea_area=area,
        exit=exit_,
        defense=2,
        yard=2,
        stores=50,
        on_gitm_map=on_map,
    )


PORTS = [
    _port("Dominica", "NOC", W, controller="BR", on_map=False),
    _port("Martinique", "SOC", N, controller="FR", on_map=False),
    _port("Port au Prince", "WCA", S, controller="FR", on_map=False),
    _port("Brest", "ECH", W, controller="FR", on_map=True),
    _port("London", "NOS", E, controller="BR", on_map=True),
]
MAP = WorldMap(sea_areas={a.code: a for a in AREAS}, ports={p.name: p for p in PORTS})

STATES = {
    "FR": State("FR", "France", "France"),
    "BR": State("BR", "Great Britain", "Great Britain"),
    "SP": State("SP", "Spain", "Spain"),
    "PO": State("PO", "Portugal", "Portugal"),
}
DIPLOMACY = Diplomacy.build(STATES, wars=[("FR", "BR"), ("SP", "BR")], alliances=[("FR", "SP")])

PLAYERS = {
    "villeneuve": Player("villeneuve", "Pierre Villeneuve", "FR"),
    "ganteaume": Player("ganteaume", "Honore Ganteaume", "FR"),
    "decres": Player("decres", "Denis Decres", "FR", frozenset({Role.NAVAL_MINISTER})),
    "nelson": Player("nelson", "Horatio Nelson", "BR"),
    "calder": Player("calder", "Robert Calder", "BR"),
    "barham": Player("barham", "Lord Barham", "BR", frozenset({Role.NAVAL_MINISTER})),
    "gravina": Player("gravina", "Federico Gravina", "SP"),
}
DEFAULT_COMMANDER = {"FR": "villeneuve", "BR": "nelson", "SP": "gravina", "PO": None}
CREW = {"FL": 800, "SL": 600, "FR": 225, "TR": 500}


def sea(area: str, tactical: int = 1) -> AtSea:
    return AtSea(area, tactical)


def harbor(port: str) -> InPort:
    return InPort(port, True)


def coastal(port: str) -> InPort:
    return InPort(port, False)


def ship(sid: str, location: Location, **kw: Any) -> Ship:
    parsed = parse_ship_id(sid)
    assert parsed is not None, sid
    state, number, type_ = parsed
    values: dict[str, Any] = {
        "name": f"{state} ship {number}",
        "base": "Brest" if state == "FR" else "London",
        "crew": CREW[type_.value],
        "commander": DEFAULT_COMMANDER.get(state),
    }
    values.update(kw)
    return Ship(id=sid, state=state, type=type_, number=number, location=location, **values)


def world(
    ships: Iterable[Ship], *, turn: int = 3, ports: Mapping[str, PortState] | None = None
) -> WorldState:
    port_states = {p.name: PortState(p.name, p.controller, p.stores) for p in PORTS}
    port_states.update(ports or {})
    return WorldState(
        campaign="test",
        turn=turn,
        turns=15,
        seed=1805,
        kind=TurnKind.CAMPAIGN,
        diplomacy=DIPLOMACY,
        players=dict(PLAYERS),
        ships={s.id: s for s in ships},
        ports=port_states,
        winds={a.code: Wind(W, WindStrength.MODERATE) for a in AREAS},
    )


def rules(intel: Mapping[str, Any] | None = None) -> RuleData:
    """The project's rule data (data/rules/*.toml), with some intel numbers
    overridden for a test."""
    sections = {k: dict(v) for k, v in load_rule_data().sections.items()}
    merged = {k: dict(v) for k, v in sections.get("intel", {}).items()}
    for part, values in (intel or {}).items():
        merged[part] = {**merged.get(part, {}), **values}
    return parse_rules({**sections, "intel": merged})


def context(intel: Mapping[str, Any] | None = None) -> TurnContext:
    return TurnContext(map=MAP, rules=rules(intel))


def intel_events(
    start: WorldState,
    end: WorldState,
    orders: Mapping[str, ShipOrder] | None = None,
    *,
    intel: Mapping[str, Any] | None = None,
    seed: int = 7,
) -> tuple[Event, ...]:
    """The events of the intelligence phase after a turn from start to end."""
    ts = TurnState(world=end, orders=dict(orders or {}), start=start)
    return intelligence_phase(context(intel), ts, Rng(seed)).events


def turn_knowledge(
    player: str,
    start: WorldState,
    end: WorldState,
    events: Sequence[Event] = (),
    orders: Mapping[str, ShipOrder] | None = None,
    *,
    intel: Mapping[str, Any] | None = None,
    seed: int = 7,
) -> PlayerKnowledge:
    """A player's knowledge after the turn: the given events, then the
    intelligence phase's own, as the resolver would have emitted them."""
    after = replace(end, turn=start.turn + 1)
    all_events = (*events, *intel_events(start, end, orders, intel=intel, seed=seed))
    return knowledge_for(player, start, after, all_events, MAP, rules(intel))


def event(
    kind: str, ships: Sequence[str], location: str, witnesses: Sequence[str] = (), **data: Any
) -> Event:
    return Event(
        phase=Phase.MOVEMENT,
        kind=kind,
        ships=tuple(ships),
        location=location,
        witnesses=tuple(witnesses),
        data=data,
    )
