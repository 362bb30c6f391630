"""Rule cases 6.12 and 2.8: peace and truce turns, and the start of a campaign."""

from __future__ import annotations

import math

import pytest

from pate.core.rng import Rng
from pate.core.rules.placement import place_at_start
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import TurnKind, Wind
from tests.unit.movement.maps import (
    CALM,
    HEAVY,
    RULES,
    TOY_MAP,
    N,
    go,
    order,
    port,
    run,
    sea,
    ship,
    winds,
    world,
)

PEACE = TurnKind.PEACE
RUNS = 1500


def _near(count: int, n: int, percent: float) -> bool:
    p = percent / 100
    return abs(count / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.slow
def test_rule_6_12_any_distance_but_perhaps_back_at_base() -> None:
    """6.12: "During peace and truce turns, a ship can move to any sea area or
    port it desires - there is no restriction on distance ... at the end of the
    turn it may be placed at either the location to which it was ordered, or to
    its base port." From Cadiz to the Southern Caribbean (nine moves away: 40%
    on station), whatever the winds."""
    there = 0
    for seed in range(RUNS):
        w = world([ship("SP1SL", port("Cadiz", True), base="Cadiz")], winds(Wind(N, HEAVY)), kind=PEACE)
        loc = run(w, [order("SP1SL", go("SOC"))], seed=seed, ctx=CALM).world.ships["SP1SL"].location
        assert loc == InPort("Cadiz", True) or (isinstance(loc, AtSea) and loc.area == "SOC")
        there += isinstance(loc, AtSea)
    assert _near(there, RUNS, 40)


def test_rule_6_12_ordered_to_a_port() -> None:
    """6.12: "a ship is ordered to a sea area or port". A port next to its base
    (Gibraltar is one move from Cadiz: 75% there)."""
    there = 0
    for seed in range(RUNS // 3):
        w = world([ship("SP1SL", port("Cadiz", True), base="Cadiz")], kind=PEACE)
        loc = (
            run(w, [order("SP1SL", go(port_="Gibraltar"))], seed=seed, ctx=CALM).world.ships["SP1SL"].location
        )
        assert loc in (InPort("Gibraltar", False), InPort("Cadiz", True))
        there += loc.port == "Gibraltar"  # type: ignore[union-attr]
    assert _near(there, RUNS // 3, 75)


@pytest.mark.slow
def test_rule_2_8_peace_turns_rotate_ships_between_station_and_base() -> None:
    """2.8: "During peace turns, however, ships automatically rotate between
    their location (that is, their duty station) and their base port, if those
    are not the same, to replenish their stores." With no order, on station in
    SOA (the base's own sea area: 80%) or home in Cadiz."""
    home = 0
    for seed in range(RUNS):
        w = world([ship("SP1SL", sea("SOA", 2), base="Cadiz")], kind=PEACE)
        loc = run(w, seed=seed, ctx=CALM).world.ships["SP1SL"].location
        assert loc in (sea("SOA", 2), InPort("Cadiz", True))
        home += loc == InPort("Cadiz", True)
    assert _near(home, RUNS, 20)


@pytest.mark.slow
def test_rule_2_8_start_on_station_likelier_when_the_base_is_near() -> None:
    """2.8: "When a campaign begins, ships will automatically be placed randomly
    at either their duty station or at their base. The closer their base is to
    their station, the more likely they are to be placed on station." Cadiz to
    SOA: 90%; Cadiz to the Southern Caribbean (nine moves): 20%."""
    near = far = 0
    for seed in range(RUNS):
        w = world([ship("SP1SL", sea("SOA"), base="Cadiz"), ship("SP2SL", sea("SOC"), base="Cadiz")])
        placed = place_at_start(TOY_MAP, RULES, w, Rng(seed))
        near += placed.ships["SP1SL"].location == sea("SOA")
        far += placed.ships["SP2SL"].location == sea("SOC")
    assert _near(near, RUNS, 90) and _near(far, RUNS, 20)


def test_rule_2_8_stores_full_at_base_and_short_on_station() -> None:
    """2.8: "Ships that start a campaign at their base will have full stores
    loaded; those that start on station will have less than full stores
    loaded." """
    for seed in range(200):
        w = world([ship("SP1SL", sea("SOC"), base="Cadiz", stores=10)])
        placed = place_at_start(TOY_MAP, RULES, w, Rng(seed)).ships["SP1SL"]
        if placed.location == InPort("Cadiz", True):
            assert placed.stores == 24
        else:
            assert 16 <= placed.stores < 24


def test_rule_2_8_attachments_follow_the_ships_that_start_together() -> None:
    """2.8: "If a ship starts in a different location than the ship to which it
    is attached, it will be attached to a different ship starting in the same
    location that was attached to to the same ship before being relocated." """
    seen_split = False
    for seed in range(300):
        ships = [
            ship("SP1SL", sea("SOC"), base="Cadiz"),
            ship("SP2SL", sea("SOC"), base="Cartagena", attached_to="SP1SL"),
            ship("SP3SL", sea("SOC"), base="Cartagena", attached_to="SP1SL"),
        ]
        placed = place_at_start(TOY_MAP, RULES, world(ships), Rng(seed)).ships
        lead, a, b = placed["SP1SL"], placed["SP2SL"], placed["SP3SL"]
        for s in (a, b):
            if s.location == lead.location:
                assert s.attached_to == "SP1SL"
        if a.location == b.location != lead.location:
            seen_split = True
            assert a.attached_to is None and b.attached_to == "SP2SL"
        elif a.location not in (lead.location, b.location):
            assert a.attached_to is None
    assert seen_split
