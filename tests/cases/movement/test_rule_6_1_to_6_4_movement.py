"""Rule cases 6.1 to 6.4 (and 1.3): where ships may sail, as the movement
phase carries it out.  Winds never shift and storms never come (CALM), and
the chances are certain unless a test says otherwise."""

from __future__ import annotations

import pytest

from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import Wind
from tests.unit.movement.maps import (
    CALM,
    HEAVY,
    MODERATE,
    E,
    N,
    S,
    W,
    events_of,
    go,
    order,
    port,
    pursue,
    run,
    sea,
    ship,
    winds,
    world,
)


def test_rule_6_1_two_sea_areas_and_a_port_into_the_harbor() -> None:
    """6.1: "A ship or transport group can submit three orders for movement,
    two for sea areas and one for ports. The port movement order can specify
    whether to move into the harbor or to the coastal waters." """
    w = world([ship("FR1FR", sea("SOC"))], winds(Wind(E, MODERATE)))
    ts = run(w, [order("FR1FR", go("NOC", "WCA", port_="Port au Prince", harbor=True))], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Port au Prince", True)
    steps = [e.data["step"] for e in events_of(ts, "sailed")]
    assert steps == [3, 6, 8]


def test_rule_6_1_port_order_to_the_coastal_waters() -> None:
    """6.1: the port order may ask for the coastal waters instead of the harbor."""
    w = world([ship("FR1FR", sea("SOC"))], winds(Wind(E, MODERATE)))
    ts = run(w, [order("FR1FR", go("NOC", "WCA", port_="Port au Prince", harbor=False))], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Port au Prince", False)


@pytest.mark.parametrize(("start", "want"), [(False, True), (True, False)])
def test_rule_6_1_shift_within_the_port(start: bool, want: bool) -> None:
    """6.1: "A ship or transport group can shift position within a port by
    sending an order to move to the port it is currently in, to whichever
    portion it wishes to move." """
    w = world([ship("FR1SL", port("Martinique", start))])
    ts = run(w, [order("FR1SL", go(port_="Martinique", harbor=want))], ctx=CALM)
    assert ts.world.ships["FR1SL"].location == InPort("Martinique", want)
    assert [e.kind for e in ts.events] == ["shifted"]


@pytest.mark.parametrize("area", ["NOC", "SUR", "PAN"])
def test_rule_6_2_example_southern_caribbean_may_move_to(area: str) -> None:
    """6.2: "A ship in the Southern Caribbean may move to the Northern
    Caribbean, Surinam Coast, or Panama Coast." """
    w = world([ship("BR1FR", sea("SOC"))])
    ts = run(w, [order("BR1FR", go(area))], ctx=CALM)
    loc = ts.world.ships["BR1FR"].location
    assert isinstance(loc, AtSea) and loc.area == area


@pytest.mark.parametrize("area", ["WCA", "SWA", "BAH"])
def test_rule_6_2_example_southern_caribbean_may_not_move_to(area: str) -> None:
    """6.2: "It may not move to the Western Caribbean or Southwest Atlantic,
    nor to the Bahamas, unless it moves to an adjacent sea area first." """
    w = world([ship("BR1FR", sea("SOC"))])
    ts = run(w, [order("BR1FR", go(area))], ctx=CALM)
    assert ts.world.ships["BR1FR"].location == sea("SOC")
    assert [e.kind for e in ts.events] == ["course_impossible"]


def test_rule_6_2_example_through_an_adjacent_sea_area_first() -> None:
    """6.2: "... unless it moves to an adjacent sea area first." """
    w = world([ship("BR1FR", sea("SOC"))], winds(Wind(S, MODERATE)))
    ts = run(w, [order("BR1FR", go("NOC", "BAH"))], ctx=CALM)
    loc = ts.world.ships["BR1FR"].location
    assert isinstance(loc, AtSea) and loc.area == "BAH"


def test_rule_6_2_example_martinique_but_not_dominica() -> None:
    """6.2: "It may move to Martinique, which is connected to the Southern
    Caribbeam, but not to Dominica, which is connected to the Northern
    Caribbean." """
    w = world([ship("BR1FR", sea("SOC")), ship("BR2FR", sea("SOC", 2))])
    ts = run(w, [order("BR1FR", go(port_="Martinique")), order("BR2FR", go(port_="Dominica"))], ctx=CALM)
    assert ts.world.ships["BR1FR"].location == InPort("Martinique", False)
    assert ts.world.ships["BR2FR"].location == sea("SOC", 2)


@pytest.mark.parametrize("area", ["SOA", "WMD"])
def test_rule_6_3_example_either_sea_area_may_sail_to_gibraltar(area: str) -> None:
    """6.3: "ships in either SOA or WMD may sail to Gibraltar." """
    w = world([ship("BR1SL", sea(area))], winds(Wind(N, MODERATE)))
    ts = run(w, [order("BR1SL", go(port_="Gibraltar", harbor=True))], ctx=CALM)
    assert ts.world.ships["BR1SL"].location == InPort("Gibraltar", True)


@pytest.mark.parametrize("area", ["SOA", "WMD"])
def test_rule_6_3_example_gibraltar_may_sail_to_either_sea_area(area: str) -> None:
    """6.3: "Example: ships in Gibraltar may sail to either SOA or WMD" """
    w = world([ship("BR1SL", port("Gibraltar", True))], winds(Wind(N, MODERATE)))
    ts = run(w, [order("BR1SL", go(area))], ctx=CALM)
    loc = ts.world.ships["BR1SL"].location
    assert isinstance(loc, AtSea) and loc.area == area


def test_rule_6_3_passing_the_strait_goes_through_gibraltar_coastal_waters() -> None:
    """6.3: "ships moving from one of those sea areas to the other must pass
    through coastal waters of the port, where they may be detected and/or
    pursued ... when a ship in SOA is ordered to move to WMD, it will
    automatically be moved through Gibraltar coastal waters." """
    w = world(
        [
            ship("SP1SL", sea("SOA")),
            ship("BR1FR", port("Gibraltar")),
            ship("BR2SL", port("Gibraltar", True)),
        ],
        winds(Wind(N, MODERATE)),
    )
    ts = run(w, [order("SP1SL", go("WMD")), order("BR1FR", contact=pursue())], ctx=CALM)
    (passed,) = events_of(ts, "passed_strait")
    assert passed.ships == ("SP1SL",) and passed.location == "Gibraltar (coastal waters)"
    assert set(passed.witnesses) == {"BR1FR", "BR2SL"}
    sp, br = ts.world.ships["SP1SL"].location, ts.world.ships["BR1FR"].location
    assert isinstance(sp, AtSea) and sp.area == "WMD" and br == sp  # pursued from the coastal waters
    assert ts.world.ships["BR2SL"].location == InPort("Gibraltar", True)


def test_rule_6_3_gibraltar_takes_the_weather_of_wmd_only() -> None:
    """6.3: "(Note that Gibraltar is not connected to SOA; it remains connected
    to WMD only for purposes of weather, sighting, etc.)" Leaving for SOA is a
    course west, upwind in a heavy westerly blowing in WMD, whatever SOA's
    wind."""
    w = world([ship("BR1FR", port("Gibraltar", True))], winds(SOA=Wind(E, MODERATE), WMD=Wind(W, HEAVY)))
    ts = run(w, [order("BR1FR", go("SOA"))], ctx=CALM)
    assert ts.world.ships["BR1FR"].location == InPort("Gibraltar", True)
    assert events_of(ts, "held_in_port")[0].data["reason"] == "upwind_heavy"


def test_rule_6_4_a_port_sails_only_to_its_sea_area() -> None:
    """6.4: "Ships in port may only be ordered to move to the sea are
    connected to that port." (1.3: "when sailing out of a port, a ship must
    sail to the connected sea area")"""
    w = world([ship("FR1FR", port("Martinique", True))])
    ts = run(w, [order("FR1FR", go("NOC"))], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Martinique", True)
    assert [e.kind for e in ts.events] == ["course_impossible"]


def test_rule_6_4_no_leaving_the_harbor_past_hostile_ships_off_the_coast() -> None:
    """6.4: "Ships in harbor in a port may not leave the port when hostile
    groups of ships are off the coast, except at the start of the combat
    phase" """
    w = world([ship("FR1FR", port("Martinique", True)), ship("BR1SL", port("Martinique", False))])
    ts = run(w, [order("FR1FR", go("SOC"))], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Martinique", True)
    held = events_of(ts, "held_in_port")
    assert held and held[0].data["reason"] == "enemy_off_coast" and "BR1SL" in held[0].witnesses


def test_rule_6_4_coastal_waters_may_sail_out_past_hostile_ships() -> None:
    """6.4: "Ships off the coastal waters of a port may sail to the attached
    sea area" (here across the wind, so 6.6 does not hold them)."""
    w = world([ship("FR1FR", port("Martinique", False)), ship("BR1SL", port("Martinique", False))])
    ts = run(w, [order("FR1FR", go("SOC"))], ctx=CALM)
    loc = ts.world.ships["FR1FR"].location
    assert isinstance(loc, AtSea) and loc.area == "SOC"


def test_rule_6_4_no_entering_the_harbor_with_hostile_ships_off_the_coast() -> None:
    """6.4: "... but may not sail to the harbor in the presence of hostile
    enemy ships, except at the start of the combat phase" """
    w = world([ship("FR1FR", port("Martinique", False)), ship("BR1SL", port("Martinique", False))])
    ts = run(w, [order("FR1FR", go(port_="Martinique", harbor=True))], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Martinique", False)
    assert events_of(ts, "shift_blocked")[0].data["reason"] == "enemy_present"
