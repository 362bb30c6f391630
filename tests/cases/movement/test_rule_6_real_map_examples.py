"""The examples of rules 6.2, 6.3 and 6.11 on the real maps (data/maps)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pate.core.rules.context import TurnContext
from pate.core.world.ships import AtSea, InAtlantic, InPort, Ship
from pate.core.world.state import PortState, Wind, WorldState
from pate.datafiles import load_world_map
from tests.unit.movement.maps import CALM, MODERATE, E, N, go, order, pursue, run, ship, world

REAL = load_world_map()
CTX = TurnContext(map=REAL, rules=CALM.rules)


def _world(ships: list[Ship], wind: Wind) -> WorldState:
    w = world(ships, {code: wind for code in REAL.sea_areas})
    return replace(w, ports={p.name: PortState(p.name, p.controller, p.stores) for p in REAL.ports.values()})


@pytest.mark.parametrize(
    ("to", "allowed"),
    [("NOC", True), ("SUR", True), ("PAN", True), ("WCA", False), ("SWA", False), ("BAH", False)],
)
def test_rule_6_2_example_southern_caribbean_on_the_real_map(to: str, allowed: bool) -> None:
    """6.2: "A ship in the Southern Caribbean may move to the Northern
    Caribbean, Surinam Coast, or Panama Coast. It may not move to the Western
    Caribbean or Southwest Atlantic, nor to the Bahamas" """
    ts = run(_world([ship("BR1FR", AtSea("SOC", 1))], Wind(N, MODERATE)), [order("BR1FR", go(to))], ctx=CTX)
    loc = ts.world.ships["BR1FR"].location
    assert isinstance(loc, AtSea) and (loc.area == to) is allowed


def test_rule_6_2_example_martinique_not_dominica_on_the_real_map() -> None:
    """6.2: "It may move to Martinique ... but not to Dominica" """
    w = _world([ship("BR1FR", AtSea("SOC", 1)), ship("BR2FR", AtSea("SOC", 2))], Wind(N, MODERATE))
    ts = run(w, [order("BR1FR", go(port_="Martinique")), order("BR2FR", go(port_="Dominica"))], ctx=CTX)
    assert ts.world.ships["BR1FR"].location == InPort("Martinique", False)
    assert ts.world.ships["BR2FR"].location == AtSea("SOC", 2)


def test_rule_6_3_example_gibraltar_on_the_real_map() -> None:
    """6.3: "ships in Gibraltar may sail to either SOA or WMD, and ships in
    either SOA or WMD may sail to Gibraltar ... ships moving between SOA and WMD
    must pass through Gibraltar." """
    w = _world(
        [
            ship("BR1FR", InPort("Gibraltar", True)),
            ship("BR2FR", InPort("Gibraltar", True)),
            ship("BR3FR", AtSea("SOA", 1)),
            ship("BR4FR", AtSea("WMD", 1)),
            ship("SP1FR", AtSea("SOA", 2)),
            ship("BR5SL", InPort("Gibraltar", False)),
        ],
        Wind(N, MODERATE),
    )
    orders = [
        order("BR1FR", go("SOA")),
        order("BR2FR", go("WMD", sail_alone=True)),
        order("BR3FR", go(port_="Gibraltar", harbor=True)),
        order("BR4FR", go(port_="Gibraltar", harbor=True)),
        order("SP1FR", go("WMD")),
        order("BR5SL", contact=pursue()),
    ]
    ts = run(w, orders, ctx=CTX)
    ships = ts.world.ships
    assert ships["BR1FR"].location.area == "SOA"  # type: ignore[union-attr]
    assert ships["BR2FR"].location.area == "WMD"  # type: ignore[union-attr]
    assert ships["BR3FR"].location == ships["BR4FR"].location == InPort("Gibraltar", True)
    assert ships["SP1FR"].location.area == "WMD"  # type: ignore[union-attr]
    assert any(
        e.kind == "passed_strait" and e.ships == ("SP1FR",) and "BR5SL" in e.witnesses for e in ts.events
    )
    assert ships["BR5SL"].location == ships["SP1FR"].location


def test_rule_6_11_example_lisbon_iberian_coast_southwest_atlantic_on_the_real_map() -> None:
    """6.11: "A ship in Lisbon can cross the Atlantic by ordering a movement to
    the Iberian Coast, then to the Southwest Atlantic." """
    w = _world([ship("PO1SL", InPort("Lisbon", True), base="Lisbon")], Wind(E, MODERATE))
    ts = run(w, [order("PO1SL", go("IBC", "SWA"))], ctx=CTX)
    loc = ts.world.ships["PO1SL"].location
    assert isinstance(loc, InAtlantic) and loc.destination == "SWA" and loc.arrives_turn in (3, 4)
