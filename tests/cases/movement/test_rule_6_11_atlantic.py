"""Rule cases 1.6 and 6.11: crossing the Atlantic."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from pate.core.world.ships import AtSea, InAtlantic, contact_key
from pate.core.world.state import Wind
from tests.unit.movement.maps import (
    CALM,
    MODERATE,
    E,
    N,
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

RUNS = 1200


def _crossing_turns(sid: str, start: str, to: str, seed: int) -> int:
    w = world([ship(sid, sea(start))], winds(Wind(E, MODERATE)), turn=5)
    loc = run(w, [order(sid, go(to))], seed=seed, ctx=CALM).world.ships[sid].location
    assert isinstance(loc, InAtlantic), loc
    return loc.arrives_turn - 5 + 1


def test_rule_6_11_example_lisbon_to_the_southwest_atlantic() -> None:
    """6.11: "A ship in Lisbon can cross the Atlantic by ordering a movement to
    the Iberian Coast, then to the Southwest Atlantic." (1.6: "Ships leaving
    the European map sailing west ... enter the Atlantic Ocean")"""
    w = world([ship("PO1SL", port("Lisbon", True), base="Lisbon")], winds(Wind(E, MODERATE)))
    ts = run(w, [order("PO1SL", go("IBC", "SWA"))], ctx=CALM)
    loc = ts.world.ships["PO1SL"].location
    assert isinstance(loc, InAtlantic) and loc.destination == "SWA" and loc.arrives_turn in (3, 4)
    (entered,) = events_of(ts, "entered_atlantic")
    assert entered.data == {"destination": "SWA"}  # the length of the crossing is not told


def test_rule_6_11_example_without_the_second_move_resubmit_next_turn() -> None:
    """6.11: "(The ship may not make its second move under rule 6.5; if not, you
    need to resubmit the order to move to the Southwest Atlantic on the
    following turn.)" Sailing out upwind, a ship of the line cannot move again."""
    w = world([ship("PO1SL", port("Lisbon", True), base="Lisbon")], winds(Wind(W, MODERATE)))
    ts = run(w, [order("PO1SL", go("IBC", "SWA"))], ctx=CALM)
    loc = ts.world.ships["PO1SL"].location
    assert isinstance(loc, AtSea) and loc.area == "IBC"
    again = run(ts.world, [order("PO1SL", go("SWA"))], ctx=CALM)
    assert isinstance(again.world.ships["PO1SL"].location, InAtlantic)


def _near(count: int, n: int, p: float) -> bool:
    return abs(count / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


@pytest.mark.slow
def test_rule_6_11_ships_of_the_line_take_three_or_four_turns() -> None:
    """6.11: "The crossing will take 3-4 turns, including the turn on which the
    ship enters the Atlantic." """
    counts = Counter(_crossing_turns("BR1SL", "IBC", "SWA", seed) for seed in range(RUNS))
    assert set(counts) == {3, 4} and _near(counts[3], RUNS, 0.5)


@pytest.mark.slow
def test_rule_6_11_frigates_take_two_or_three_turns() -> None:
    """6.11: "Frigates require 2-3 turns to cross the Atlantic." """
    counts = Counter(_crossing_turns("BR1FR", "SWA", "IBC", seed) for seed in range(RUNS))
    assert set(counts) == {2, 3} and _near(counts[2], RUNS, 0.5)


def test_rule_6_11_frigate_groups_may_name_any_sea_area_of_the_other_map() -> None:
    """6.11: "Frigate groups simply send orders for a sea area on the other side
    of the Atlantic (not necessarily on the edge of the map)." """
    w = world(
        [ship("BR1FR", sea("IBC")), ship("BR2FR", sea("IBC")), ship("BR3SL", sea("IBC", 2))],
        winds(Wind(E, MODERATE)),
    )
    ts = run(w, [order(s, go("SOC")) for s in ("BR1FR", "BR2FR", "BR3SL")], ctx=CALM)
    for sid in ("BR1FR", "BR2FR"):
        loc = ts.world.ships[sid].location
        assert isinstance(loc, InAtlantic) and loc.destination == "SOC"
    assert ts.world.ships["BR3SL"].location == sea("IBC", 2)  # ships of the line: edge to edge only


def test_rule_1_6_the_maps_are_joined_only_at_the_atlantic_edge() -> None:
    """1.6: "The European waters map and the American waters map are not
    connected directly." A sea area off the edge cannot sail to the other map."""
    w = world([ship("BR1FR", sea("SOA"))], winds(Wind(E, MODERATE)))
    ts = run(w, [order("BR1FR", go("SWA"))], ctx=CALM)
    assert ts.world.ships["BR1FR"].location == sea("SOA")
    assert [e.kind for e in ts.events] == ["course_impossible"]


def test_rule_6_11_groups_stay_together_and_meet_nobody() -> None:
    """6.11: "Groups of ships that enter the Atlantic together will remain
    together during the crossing, but will not encounter enemy ships while
    crossing." Pursuers do not follow them into the Atlantic."""
    w = world(
        [ship("BR1SL", sea("IBC")), ship("BR2SL", sea("IBC")), ship("FR1SL", sea("IBC"))],
        winds(Wind(E, MODERATE)),
    )
    ts = run(
        w, [order("BR1SL", go("SWA")), order("BR2SL", go("SWA")), order("FR1SL", contact=pursue())], ctx=CALM
    )
    a, b = ts.world.ships["BR1SL"].location, ts.world.ships["BR2SL"].location
    assert isinstance(a, InAtlantic) and a == b
    assert contact_key(a) is None
    assert ts.world.ships["FR1SL"].location == sea("IBC")


def test_rule_6_11_no_orders_while_crossing_and_arrival_on_the_other_map() -> None:
    """6.11: "Ships crossing the Atlantic Ocean cannot receive new orders until
    they reach the other map"; 1.6: they "remain there for several turns before
    arriving on the other map." They arrive in step seven of their last turn."""
    crossing = InAtlantic("SWA", 3, "1:BR1SL")
    w = world([ship("BR1SL", crossing), ship("BR2SL", crossing)], winds(Wind(N, MODERATE)), turn=2)
    ts = run(w, [order("BR1SL", go("IBC"))], ctx=CALM)
    assert ts.world.ships["BR1SL"].location == crossing and not ts.events
    w3 = world([ship("BR1SL", crossing), ship("BR2SL", crossing)], winds(Wind(N, MODERATE)), turn=3)
    ts = run(w3, [order("BR1SL", go("IBC"))], ctx=CALM)
    a, b = ts.world.ships["BR1SL"].location, ts.world.ships["BR2SL"].location
    assert isinstance(a, AtSea) and a.area == "SWA" and a == b
    (arrived,) = events_of(ts, "arrived")
    assert arrived.ships == ("BR1SL", "BR2SL") and arrived.data["came_from"] == "Atlantic Ocean"
