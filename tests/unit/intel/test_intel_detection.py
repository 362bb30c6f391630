"""Unit tests of the detection helpers (rules 5.1, 5.2)."""

from __future__ import annotations

from intel_world import MAP, coastal, harbor, sea, ship, world

from pate.core.orders.model import Commerce, ShipOrder
from pate.core.rng import Rng
from pate.core.rules.detection import (
    Bearing,
    ScoutingMode,
    ScoutingRules,
    Side,
    bearing_of,
    contact_list,
    contact_lists,
    estimate,
    scout_targets,
    scouting_mode,
    ship_sort_key,
)
from pate.core.world.ships import InAtlantic


def test_ship_order_follows_the_samples() -> None:
    ids = ["FR10SL", "FR1FL", "FR6SL", "BR2FL", "FR2FR", "FR11SL", "FR3TR"]
    assert sorted(ids, key=ship_sort_key) == ["BR2FL", "FR1FL", "FR6SL", "FR10SL", "FR11SL", "FR2FR", "FR3TR"]


def test_contact_lists_agree_with_contact_list() -> None:
    ships = [ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1)), ship("PO4SL", sea("NOC", 1))]
    ships += [ship("SP2SL", harbor("Brest")), ship("BR7SL", coastal("Brest")), ship("BR9SL", sea("NOC", 2))]
    w = world(ships)
    many = contact_lists(w)
    for s in ships:
        assert many[s.id] == contact_list(w, s)
    sides = {x.id: x.side for x in many["FR3FL"].seen}
    assert sides == {"BR2FL": Side.ENEMY, "PO4SL": Side.NEUTRAL}  # Portugal is at peace with France


def test_no_gauge_in_harbor_or_between_equal_stations() -> None:
    a, b = ship("FR3FL", harbor("Brest"), station=0), ship("BR2FL", harbor("Brest"), station=1)
    assert bearing_of(a, b) is None
    c, d = ship("FR3FL", sea("NOC"), station=1), ship("BR2FL", sea("NOC"), station=1)
    assert bearing_of(c, d) is None
    e = ship("BR2FL", coastal("Brest"), station=0)
    assert bearing_of(ship("FR3FL", coastal("Brest"), station=2), e) is Bearing.WINDWARD


def test_atlantic_companions_see_each_other_but_meet_nobody() -> None:
    g = InAtlantic("SWA", 7, "g1")
    w = world([ship("SP3TR", g), ship("SP2FL", g), ship("BR2FL", InAtlantic("SWA", 7, "g2"))])
    assert [s.id for s in contact_list(w, w.ships["SP3TR"]).seen] == ["SP2FL"]
    assert contact_list(w, w.ships["BR2FL"]).seen == ()


def test_scouting_mode_precedence() -> None:
    rules = ScoutingRules.from_section({})
    fr = ship("FR2FR", sea("NOC"))
    assert scouting_mode(fr, ShipOrder("FR2FR"), rules) is ScoutingMode.PATROLLING
    assert scouting_mode(fr, ShipOrder("FR2FR", commerce=Commerce.RAID), rules) is ScoutingMode.RAIDING
    assert scouting_mode(fr, ShipOrder("FR2FR", commerce=Commerce.CONVOY), rules) is ScoutingMode.CONVOYING
    damaged = ship("FR2FR", sea("NOC"), hull=1)
    assert scouting_mode(damaged, ShipOrder("FR2FR", commerce=Commerce.RAID), rules) is ScoutingMode.REFITTING


def test_scout_targets_skip_own_tactical_area_and_friends() -> None:
    ships = [ship("FR2FR", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1)), ship("SP2SL", sea("NOC", 2))]
    ships += [ship("BR3SL", sea("NOC", 4)), ship("BR4SL", coastal("Dominica"))]
    w = world(ships)
    targets = scout_targets(MAP, w, w.ships["FR2FR"])
    assert [(t.key, [s.id for s in found]) for t, found in targets] == [
        ("Dominica:coastal", ["BR4SL"]),
        ("NOC:4", ["BR3SL"]),
    ]


def test_estimate_stays_in_its_band() -> None:
    rng = Rng(3)
    values = [estimate(10, 40, rng) for _ in range(2000)]
    assert min(values) == 6 and max(values) == 14
    assert all(estimate(1, 100, rng) >= 1 for _ in range(200))
    assert estimate(7, 0, rng) == 7
