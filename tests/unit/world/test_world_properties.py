"""Property tests: mutate valid scenarios and maps at random.  Each mutation is
either accepted, giving a consistent world, or rejected with a DataError whose
every problem is located by a path in the file; never another exception."""

from __future__ import annotations

import copy
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pate.core.scenario.parse import Scenario, parse_scenario
from pate.core.world.fields import DataError
from pate.core.world.geography import WorldMap
from pate.core.world.mapdata import parse_map
from pate.core.world.ships import AtSea, InAtlantic, InPort, ShipType
from pate.datafiles import (
    data_dir,
    load_nations,
    load_rule_data,
    load_world_map,
    read_toml,
    read_world_map_files,
)

WMAP = load_world_map()
RULES = load_rule_data()
NATIONS = load_nations()
BASES = {name: read_toml(data_dir() / "scenarios" / f"{name}.toml") for name in ("training", "trafalgar")}
MAP_RAW = read_world_map_files()

# a TOML path (bare or quoted keys, [index]) then ": " then the message
_KEY = r'(?:[A-Za-z0-9_-]+|"[^"]*")'
_PATH = rf"{_KEY}(?:\.{_KEY}|\[\d+\])*"
SCENARIO_PATH = re.compile(rf"^{_PATH}: \S")
MAP_PATH = re.compile(rf"^\[[^\]]+\](?: {_PATH})?: \S")

INTERESTING: Any = st.one_of(
    st.integers(min_value=-3, max_value=25000),
    st.sampled_from(
        [
            "",
            " ",
            "ECH",
            "BIS",
            "XYZ",
            "NOC",
            "Brest",
            "Atlantis",
            "Plymouth",
            "BR1FL",
            "BR1SL",
            "FR1FL",
            "BR99SL",
            "FR1TR",
            "ZZ1SL",
            "nelson",
            "barham",
            "decres",
            "admin",
            "BR",
            "FR",
            "SP",
            "XX",
            "Very Good",
            "Excellent",
            "Bad",
            "campaign",
            "peace",
            "naval_minister",
            "commander",
            "east",
        ]
    ),
    st.booleans(),
    st.lists(st.sampled_from(["BR", "FR", "SP", "XX", "ECH"]), max_size=3),
    st.just(None),  # delete the key
)


def _containers(node: Any, out: list[Any]) -> list[Any]:
    """Every table and array inside ``node`` (the places a mutation can hit)."""
    if isinstance(node, dict):
        out.append(node)
        for v in node.values():
            _containers(v, out)
    elif isinstance(node, list):
        out.append(node)
        for v in node:
            _containers(v, out)
    return out


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any], extra_keys: list[str]) -> dict[str, Any]:
    raw = copy.deepcopy(base)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        places = _containers(raw, [])
        target = draw(st.sampled_from(places))
        value = draw(INTERESTING)
        if isinstance(target, dict):
            keys = [*target.keys(), *extra_keys]
            key = draw(st.sampled_from(keys))
            if value is None:
                target.pop(key, None)
            else:
                target[key] = value
        elif target:
            i = draw(st.integers(min_value=0, max_value=len(target) - 1))
            if value is None:
                del target[i]
            elif draw(st.booleans()):
                target.append(copy.deepcopy(target[i]))
            else:
                target[i] = value
    return raw


SHIP_KEYS = [
    "id",
    "sea_area",
    "tactical",
    "port",
    "harbor",
    "crew",
    "marines",
    "attached_to",
    "active",
    "commander",
    "capacity",
    "stores",
    "hull",
    "crossing_to",
    "arrives_turn",
]


def assert_consistent(s: Scenario) -> None:
    """What every accepted scenario guarantees to the rules."""
    w = s.world
    for ship in w.ships.values():
        cls = RULES.ship_class(ship.type)
        loc = ship.location
        if isinstance(loc, AtSea):
            assert 1 <= loc.tactical <= WMAP.sea_areas[loc.area].tactical_areas
        elif isinstance(loc, InPort):
            assert loc.port in WMAP.ports
        else:
            assert isinstance(loc, InAtlantic) and loc.destination in WMAP.sea_areas
        assert ship.base in WMAP.ports
        assert 0 <= ship.hull < 5 and 0 <= ship.rigging <= 5
        if ship.type is not ShipType.TR:
            assert 0 <= ship.crew <= cls.max_crew and 0 <= ship.marines <= cls.max_marines
            assert 0 <= ship.stores <= cls.stores_max
        if ship.attached_to is not None:
            target = w.ships[ship.attached_to]
            assert target.location == ship.location and target.attached_to is None
        for pid in (ship.commander, ship.deputy):
            assert pid is None or w.players[pid].state == ship.state
        if not ship.active:
            assert isinstance(loc, InPort) and loc.harbor and ship.type is not ShipType.TR
        assert ship.state in w.diplomacy.states
    assert not (w.diplomacy.wars & w.diplomacy.alliances)


def check_scenario(raw: dict[str, Any]) -> None:
    try:
        scenario = parse_scenario(raw, WMAP, RULES, nations=NATIONS)
    except DataError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert SCENARIO_PATH.match(problem), problem
        return
    assert_consistent(scenario)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(BASES["training"], SHIP_KEYS))
def test_mutated_training_scenario_is_accepted_or_located(raw: dict[str, Any]) -> None:
    check_scenario(raw)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(BASES["trafalgar"], [*SHIP_KEYS, "attach", "ships"]))
def test_mutated_trafalgar_scenario_is_accepted_or_located(raw: dict[str, Any]) -> None:
    check_scenario(raw)


def assert_map_consistent(wmap: WorldMap) -> None:
    for code, area in wmap.sea_areas.items():
        assert sum(v for _, v in area.winds.direction) == 100
        for d, others in area.neighbours:
            for other in others:
                assert code in wmap.sea_areas[other].neighbours_in(d.opposite)
    for port in wmap.ports.values():
        assert port.sea_area in wmap.sea_areas
        if port.strait_sea_area:
            assert wmap.borders(port.sea_area, port.strait_sea_area)


MAP_KEYS = ["north", "south", "east", "west", "sea_area", "strait", "tactical_areas", "light", "exit"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(MAP_RAW, MAP_KEYS))
def test_mutated_maps_are_accepted_or_located(raw: dict[str, Any]) -> None:
    try:
        wmap = parse_map(raw, nations=NATIONS.nations, states=NATIONS.states)
    except DataError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert MAP_PATH.match(problem), problem
        return
    assert_map_consistent(wmap)
