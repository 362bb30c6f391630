"""Small parts of the movement rules: chances, routes, storms, placement."""

from __future__ import annotations

from pate.core.orders.model import Commerce, ShipOrder
from pate.core.rng import Rng
from pate.core.rules.movement.chances import damaged, group_chance, port_blocked, sail_chance, stop_chance
from pate.core.rules.movement.params import MovementRules
from pate.core.rules.movement.routes import (
    can_sail,
    course_of,
    entry_course,
    exit_course,
    sea_distance,
)
from pate.core.rules.storms import StormRules, blow, damage, danger
from pate.core.rules.winds import Heading
from pate.core.world.state import Wind
from tests.unit.movement.maps import HEAVY, LIGHT, MODERATE, RULES, TOY_MAP, E, N, S, W, port, sea, ship

PARAMS = MovementRules.of(RULES)
STORMS = StormRules.of(RULES)


def test_sail_chance_subtracts_damage_and_commerce() -> None:
    frigate = ship("BR1FR", sea("SOC"), hull=2, rigging=2)
    raid = ShipOrder("BR1FR", commerce=Commerce.RAID)
    assert sail_chance(frigate, raid, Heading.UPWIND, False, PARAMS) == 70
    assert sail_chance(frigate, ShipOrder("BR1FR"), Heading.UPWIND, False, PARAMS) == 120


def test_transports_sail_like_ships_of_the_line() -> None:
    order = ShipOrder("BR1TR")
    for way in Heading:
        assert sail_chance(ship("BR1TR", sea("SOC")), order, way, True, PARAMS) == sail_chance(
            ship("BR1SL", sea("SOC")), order, way, True, PARAMS
        )
    assert stop_chance(ship("BR1FL", sea("SOC")), Heading.UPWIND, PARAMS) == 100


def test_group_chance_is_the_slowest_sound_ship() -> None:
    sound = ship("BR1SL", sea("SOC"))
    hurt = ship("BR2SL", sea("SOC"), rigging=1)
    assert damaged(hurt, PARAMS) and not damaged(sound, PARAMS)
    assert group_chance([(sound, 150), (hurt, 130)], PARAMS) == 150
    assert group_chance([(hurt, 130)], PARAMS) == 130


def test_port_rules_only_bite_upwind() -> None:
    assert port_blocked(Heading.UPWIND, Wind(N, HEAVY), False) == "upwind_heavy"
    assert port_blocked(Heading.UPWIND, Wind(N, LIGHT), True) == "upwind_enemy"
    assert port_blocked(Heading.UPWIND, Wind(N, LIGHT), False) is None
    assert port_blocked(Heading.ACROSS, Wind(N, HEAVY), True) is None


def test_courses_in_and_out_of_ports_and_straits() -> None:
    assert exit_course(TOY_MAP, "Lisbon", "IBC") is W
    assert entry_course(TOY_MAP, "Lisbon", "IBC") is E
    assert exit_course(TOY_MAP, "Gibraltar", "WMD") is E
    assert exit_course(TOY_MAP, "Gibraltar", "SOA") is W  # SOA lies west of WMD
    assert course_of(TOY_MAP, sea("SOC"), "NOC") is N
    assert course_of(TOY_MAP, sea("IBC"), "SWA") is W  # out of European waters
    assert course_of(TOY_MAP, sea("SWA"), "IBC") is E


def test_which_moves_are_possible() -> None:
    assert can_sail(TOY_MAP, sea("SOC"), "NOC", False)
    assert not can_sail(TOY_MAP, sea("SOC"), "WCA", False)
    assert can_sail(TOY_MAP, port("Gibraltar"), "SOA", False)
    assert not can_sail(TOY_MAP, port("Lisbon"), "SOA", False)
    assert can_sail(TOY_MAP, sea("IBC"), "SWA", False)
    assert not can_sail(TOY_MAP, sea("IBC"), "SOC", False)
    assert can_sail(TOY_MAP, sea("IBC"), "SOC", True)
    assert not can_sail(TOY_MAP, sea("SOA"), "SWA", True)  # not on the edge


def test_sea_distance_counts_moves_and_the_atlantic() -> None:
    assert sea_distance(TOY_MAP, "SOC", "SOC", 6) == 0
    assert sea_distance(TOY_MAP, "SOC", "BAH", 6) == 2
    assert sea_distance(TOY_MAP, "WMD", "SWA", 6) == 2 + 6
    assert sea_distance(TOY_MAP, "WMD", "SOC", 6) == 2 + 6 + 2


def test_storm_danger_grows_with_damage_transports_heavy_winds_and_lee_shores() -> None:
    calm = Wind(W, MODERATE)
    sound = ship("BR1SL", sea("SOC"))
    assert danger(sound, calm, False, STORMS) == 0
    assert danger(ship("BR2SL", sea("SOC"), hull=1, rigging=2), calm, False, STORMS) == 15
    assert danger(ship("BR3TR", sea("SOC")), calm, False, STORMS) == STORMS.transport
    assert danger(sound, Wind(W, HEAVY), True, STORMS) == STORMS.heavy_wind + STORMS.onshore


def test_storm_blow_bands_and_foundering() -> None:
    wreck = ship("BR1TR", sea("SOC"), hull=4, rigging=5)  # +45 +15
    outcomes = {blow(wreck, Wind(W, HEAVY), True, STORMS, Rng(s)).foundered for s in range(200)}
    assert outcomes == {True, False}
    hit, sank = damage(ship("BR2SL", sea("SOC"), hull=4), 1, 1)
    assert sank and hit.hull == 5
    hit, sank = damage(ship("BR3SL", sea("SOC"), rigging=5), 2, 0)
    assert not sank and hit.rigging == 5


def test_second_move_tables_are_harder_than_first() -> None:
    for kind in ("frigate", "line"):
        for way in Heading:
            assert PARAMS.second[(kind, way)] < PARAMS.first[(kind, way)]
    assert PARAMS.first[("line", Heading.UPWIND)] < PARAMS.first[("line", Heading.ACROSS)]
    assert S is not N
