"""Rule cases 6.8 and 6.9: where arriving ships are placed, and whom they meet."""

from __future__ import annotations

import pytest

from pate.core.orders.model import Contact, Gauge, ShipOrder
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import Wind
from tests.unit.movement.maps import (
    CALM,
    MODERATE,
    E,
    N,
    S,
    W,
    evade,
    events_of,
    go,
    order,
    port,
    run,
    sea,
    ship,
    variant,
    winds,
    world,
)

RUNS = 400
ONE = variant(tactical={"NOC": 1})  # every arrival in NOC meets whoever is there


def test_rule_6_8_port_arrivals_stay_in_the_coastal_waters() -> None:
    """6.8: "Ships and transport groups which move to a new port will be placed
    in the coastal waters of the port, unless they have orders to enter the
    harbor and enemy ships are not present." """
    w = world([ship("SP1FR", sea("SOA")), ship("SP2FR", sea("SOA"))], winds(Wind(N, MODERATE)))
    orders = [
        order("SP1FR", go(port_="Cadiz")),
        order("SP2FR", go(port_="Cadiz", harbor=True, sail_alone=True)),
    ]
    ts = run(w, orders, ctx=CALM)
    assert ts.world.ships["SP1FR"].location == InPort("Cadiz", False)
    assert ts.world.ships["SP2FR"].location == InPort("Cadiz", True)


def test_rule_6_8_not_into_the_harbor_with_enemies_present() -> None:
    """6.8: "... unless they have orders to enter the harbor and enemy ships
    are not present." An enemy anywhere in the port keeps them outside."""
    w = world([ship("SP1FR", sea("SOA")), ship("BR1SL", port("Cadiz", True))], winds(Wind(N, MODERATE)))
    ts = run(w, [order("SP1FR", go(port_="Cadiz", harbor=True))], ctx=CALM)
    assert ts.world.ships["SP1FR"].location == InPort("Cadiz", False)
    assert any(e.kind == "met_enemy" and e.ships == ("SP1FR",) for e in ts.events)


def test_rule_6_8_an_empty_sea_area_receives_ships_in_its_first_tactical_area() -> None:
    """6.8 "More Details": "Into an empty sea area: the first tactical area,
    no contact." """
    w = world([ship("BR1FR", sea("SOC", 3))], winds(Wind(W, MODERATE)))
    ts = run(w, [order("BR1FR", go("NOC"))], ctx=CALM)
    assert ts.world.ships["BR1FR"].location == AtSea("NOC", 1)
    assert [e.kind for e in ts.events] == ["sailed", "arrived"]


def test_rule_6_8_random_tactical_area_and_encounter_only_there() -> None:
    """6.8: "Ships and transport groups which move to a new sea area will be
    placed in a randomly selected tactical area in that sea area. If other ships
    or transport groups are in the same tactical area, the moving ships will
    encounter them, otherwise they will not." """
    places: set[int] = set()
    for seed in range(RUNS):
        w = world([ship("BR1FR", sea("SOC")), ship("FR1SL", sea("NOC", 3))], winds(Wind(W, MODERATE)))
        ts = run(w, [order("BR1FR", go("NOC"))], seed=seed, ctx=CALM)
        loc = ts.world.ships["BR1FR"].location
        assert isinstance(loc, AtSea)
        places.add(loc.tactical)
        met = events_of(ts, "met_enemy")
        assert bool(met) is (loc.tactical == 3)
    assert places == {1, 2, 3, 4}


def test_rule_6_9_allied_ships_joined_when_join_allies_is_checked() -> None:
    """6.9: "If the ships encountered are allied, then the moving ships will
    join them if the Join Allies box on the order form is checked, otherwise
    not ... When two allied groups of ships join, they will sail together." """
    for seed in range(50):
        w = world([ship("SP1SL", sea("SOC")), ship("FR1SL", sea("NOC", 2))], winds(Wind(W, MODERATE)))
        ts = run(w, [order("SP1SL", go("NOC"))], seed=seed, ctx=CALM)
        assert ts.world.ships["SP1SL"].location == AtSea("NOC", 2)
        assert ts.world.ships["SP1SL"].station == ts.world.ships["FR1SL"].station
        assert events_of(ts, "joined_allies")[0].data["allies"] == ["FR1SL"]


def test_rule_6_9_allied_ships_not_joined_without_join_allies() -> None:
    """6.9: "... otherwise not." With no enemy about, they keep to an empty
    tactical area (6.8 "More Details")."""
    for seed in range(50):
        w = world([ship("SP1SL", sea("SOC")), ship("FR1SL", sea("NOC", 2))], winds(Wind(W, MODERATE)))
        ts = run(w, [order("SP1SL", go("NOC"), contact=Contact(join_allies=False))], seed=seed, ctx=CALM)
        loc = ts.world.ships["SP1SL"].location
        assert isinstance(loc, AtSea) and loc.tactical != 2
        assert not events_of(ts, "joined_allies")


def test_rule_6_9_evaders_avoid_the_enemy() -> None:
    """6.9: "If the ships encountered are hostile, then the moving ships will
    avoid them if their Contact order is Evade, otherwise not." """
    met = {"evade": 0, "accept": 0}
    for seed in range(RUNS):
        for mode, contact in (("evade", evade()), ("accept", Contact())):
            w = world([ship("BR1FR", sea("SOC")), ship("FR1SL", sea("NOC", 3))], winds(Wind(W, MODERATE)))
            ts = run(w, [order("BR1FR", go("NOC"), contact=contact)], seed=seed, ctx=CALM)
            met[mode] += ts.world.ships["BR1FR"].location == AtSea("NOC", 3)
            if mode == "evade" and events_of(ts, "evaded"):
                assert events_of(ts, "evaded")[0].witnesses == ("FR1SL",)
    assert met["evade"] == 0 and met["accept"] > 0


def test_rule_6_8_evaders_with_nowhere_to_go_stay_and_meet() -> None:
    """Recovered 6.8: evaders go to another tactical area, "an empty one if possible, else one
    without enemies"; with an enemy in every tactical area of the sea area they stay where they
    arrived and meet her, and the report must not say they kept clear."""
    enemies = [ship(f"FR{t}SL", sea("NOC", t)) for t in range(1, 5)]
    for seed in range(20):
        w = world([ship("BR1FR", sea("SOC")), *enemies], winds(Wind(W, MODERATE)))
        ts = run(w, [order("BR1FR", go("NOC"), contact=evade())], seed=seed, ctx=CALM)
        assert not events_of(ts, "evaded")
        assert len([e for e in events_of(ts, "arrived") if "BR1FR" in e.ships]) == 1
        loc = ts.world.ships["BR1FR"].location
        assert isinstance(loc, AtSea) and loc.area == "NOC"
        assert any(ts.world.ships[e.id].location == loc for e in enemies)


@pytest.mark.parametrize(
    ("wind", "side", "station"), [(Wind(S, MODERATE), "windward", 0), (Wind(N, MODERATE), "leeward", 1)]
)
def test_rule_6_9_arrivals_from_windward_or_leeward_take_that_side(
    wind: Wind, side: str, station: int
) -> None:
    """6.9: "When two hostile groups join, one will be to windward and one to
    leeward. If the moving ships arrive from windward or leeward, they will
    take that position" (sailing north with a southerly they come from
    windward; into a northerly, from leeward)."""
    w = world([ship("BR1FR", sea("SOC")), ship("FR1SL", sea("NOC", 1))], winds(SOC=wind, NOC=wind))
    ts = run(w, [order("BR1FR", go("NOC"), contact=Contact(gauge=Gauge.LEEWARD))], ctx=ONE)
    assert events_of(ts, "met_enemy")[0].data["side"] == side
    assert ts.world.ships["BR1FR"].station == station
    assert ts.world.ships["FR1SL"].station == 1 - station


@pytest.mark.parametrize("wanted", [Gauge.WINDWARD, Gauge.LEEWARD])
def test_rule_6_9_across_the_wind_opposite_requests_are_granted(wanted: Gauge) -> None:
    """6.9: "if they arrive from across the wind, then they will maneuver for
    position. If one group has requested windward and the other group leeward,
    they will take their desired positions" """
    other = Gauge.LEEWARD if wanted is Gauge.WINDWARD else Gauge.WINDWARD
    w = world([ship("BR1FR", sea("SOC")), ship("FR1SL", sea("NOC", 1))], winds(Wind(W, MODERATE)))
    orders = [
        order("BR1FR", go("NOC"), contact=Contact(gauge=wanted)),
        order("FR1SL", contact=Contact(gauge=other)),
    ]
    ts = run(w, orders, ctx=ONE)
    assert events_of(ts, "met_enemy")[0].data["side"] == wanted.value


def test_rule_6_9_across_the_wind_same_requests_leave_it_to_chance() -> None:
    """6.9: "... if not, the position of each group is random." """
    sides = set()
    for seed in range(60):
        w = world([ship("BR1FR", sea("SOC")), ship("FR1SL", sea("NOC", 1))], winds(Wind(W, MODERATE)))
        orders = [
            order(s, go("NOC") if s == "BR1FR" else go(), contact=Contact(gauge=Gauge.WINDWARD))
            for s in ("BR1FR", "FR1SL")
        ]
        ts = run(w, orders, seed=seed, ctx=ONE)
        sides.add(events_of(ts, "met_enemy")[0].data["side"])
    assert sides == {"windward", "leeward"}


@pytest.mark.parametrize(("wind", "joined"), [(Wind(S, MODERATE), True), (Wind(N, MODERATE), False)])
def test_rule_6_9_a_third_group_joins_the_allied_group_on_its_side(wind: Wind, joined: bool) -> None:
    """6.9: "If two groups are already present and a third group joins, it will
    approach from windward or leeward as above, then join an allied group if the
    first group in the direction from which they approach (windward or leeward)
    is allied." French to windward (station 0), British to leeward (1); a
    Spanish ship arrives from windward (joins the French) or from leeward (takes
    a new station beyond the British)."""
    w = world(
        [
            ship("SP1SL", sea("SOC")),
            ship("FR1SL", sea("NOC", 1), station=0),
            ship("BR1SL", sea("NOC", 1), station=1),
        ],
        winds(SOC=wind, NOC=wind),
    )
    ts = run(w, [order("SP1SL", go("NOC"))], ctx=ONE)
    sp = ts.world.ships["SP1SL"]
    if joined:
        assert sp.station == ts.world.ships["FR1SL"].station == 0
        assert events_of(ts, "joined_allies")
    else:
        assert sp.station == 2 and ts.world.ships["BR1SL"].station == 1
        assert not events_of(ts, "joined_allies")
    assert E is not W


@pytest.mark.parametrize("start", ["SOC", "coastal waters"])
def test_rule_6_8_into_the_harbor_of_an_enemy_held_port_with_no_enemy_ship(start: str) -> None:
    """6.8: "... will be placed in the coastal waters of the port, unless they
    have orders to enter the harbor and enemy ships are not present." Only
    enemy ships bar the harbor: Martinique is French, but no French ship is
    there, so a British frigate enters its harbor from the sea area or from
    the coastal waters (6.1)."""
    loc = sea("SOC") if start == "SOC" else port("Martinique", False)
    w = world([ship("BR1FR", loc)], winds(Wind(N, MODERATE)))
    ts = run(w, [order("BR1FR", go(port_="Martinique", harbor=True))], ctx=CALM)
    assert ts.world.ships["BR1FR"].location == InPort("Martinique", True)
    assert events_of(ts, "entered_port" if start == "SOC" else "shifted")[0].data["harbor"] is True


@pytest.mark.parametrize("enemy_in_harbor", [True, False])
def test_rule_6_8_an_enemy_ship_anywhere_in_the_port_keeps_them_out(enemy_in_harbor: bool) -> None:
    """6.8: "... unless they have orders to enter the harbor and enemy ships
    are not present." A French ship in Martinique's harbor or coastal waters
    keeps the British frigate in the coastal waters."""
    w = world(
        [ship("BR1FR", sea("SOC")), ship("FR1SL", port("Martinique", enemy_in_harbor))],
        winds(Wind(N, MODERATE)),
    )
    ts = run(w, [order("BR1FR", go(port_="Martinique", harbor=True))], ctx=CALM)
    assert ts.world.ships["BR1FR"].location == InPort("Martinique", False)
    assert events_of(ts, "met_enemy")[0].ships == ("BR1FR",)


def _mixed_group(lead_joins: bool) -> list[ShipOrder]:
    """SP1SL and SP2SL on the same movement orders (one group, 6.7); only one
    of them has Join Allies checked."""
    return [
        order("SP1SL", go("NOC"), contact=Contact(join_allies=lead_joins)),
        order("SP2SL", go("NOC"), contact=Contact(join_allies=not lead_joins)),
    ]


@pytest.mark.parametrize("lead_joins", [True, False])
def test_rule_6_9_join_allies_is_each_ships_own_choice_in_a_group(lead_joins: bool) -> None:
    """6.9: "If the ships encountered are allied, then the moving ships will
    join them if the Join Allies box on the order form is checked, otherwise
    not." The two Spaniards sail on one roll (6.7); with no enemy about the one
    joining goes to the French ally and the other to an empty tactical area
    (6.8 "More Details"), whichever of them leads."""
    joiner, other = ("SP1SL", "SP2SL") if lead_joins else ("SP2SL", "SP1SL")
    for seed in range(50):
        w = world(
            [ship("SP1SL", sea("SOC")), ship("SP2SL", sea("SOC")), ship("FR1SL", sea("NOC", 2))],
            winds(Wind(W, MODERATE)),
        )
        ts = run(w, _mixed_group(lead_joins), seed=seed, ctx=CALM)
        assert events_of(ts, "sailed")[0].ships == ("SP1SL", "SP2SL")
        assert ts.world.ships[joiner].location == AtSea("NOC", 2)
        assert ts.world.ships[joiner].station == ts.world.ships["FR1SL"].station
        loc = ts.world.ships[other].location
        assert isinstance(loc, AtSea) and loc.area == "NOC" and loc.tactical != 2
        assert [e.ships for e in events_of(ts, "joined_allies")] == [(joiner,)]


def test_rule_6_9_among_enemies_a_ship_not_joining_keeps_its_own_station() -> None:
    """6.9: "... then join an allied group if the first group in the direction
    from which they approach (windward or leeward) is allied." French ally to
    windward, British to leeward; two Spaniards arrive from windward together:
    the one with Join Allies joins the French, the other (separate) takes a
    station of its own on the same side."""
    w = world(
        [
            ship("SP1SL", sea("SOC")),
            ship("SP2SL", sea("SOC")),
            ship("FR1SL", sea("NOC", 1), station=0),
            ship("BR1SL", sea("NOC", 1), station=1),
        ],
        winds(Wind(S, MODERATE)),
    )
    ts = run(w, _mixed_group(True), ctx=ONE)
    st = {sid: ts.world.ships[sid].station for sid in ("SP1SL", "SP2SL", "FR1SL", "BR1SL")}
    assert st == {"SP2SL": 0, "SP1SL": 1, "FR1SL": 1, "BR1SL": 2}
    assert [e.ships for e in events_of(ts, "joined_allies")] == [("SP1SL",)]
    assert {e.data["side"] for e in events_of(ts, "met_enemy")} == {"windward"}


def test_rule_6_9_in_a_port_a_ship_not_joining_keeps_its_own_station() -> None:
    """6.9, the Join Allies box, in a port: the two Spaniards enter Cadiz
    together; only the one with Join Allies joins the French ship there."""
    w = world(
        [ship("SP1SL", sea("SOA")), ship("SP2SL", sea("SOA")), ship("FR1SL", port("Cadiz", False))],
        winds(Wind(W, MODERATE)),
    )
    orders = [
        order("SP1SL", go(port_="Cadiz"), contact=Contact(join_allies=True)),
        order("SP2SL", go(port_="Cadiz"), contact=Contact(join_allies=False)),
    ]
    ts = run(w, orders, ctx=CALM)
    ships = ts.world.ships
    assert ships["SP1SL"].location == ships["SP2SL"].location == InPort("Cadiz", False)
    assert ships["SP1SL"].station == ships["FR1SL"].station != ships["SP2SL"].station
    assert [e.ships for e in events_of(ts, "joined_allies")] == [("SP1SL",)]
