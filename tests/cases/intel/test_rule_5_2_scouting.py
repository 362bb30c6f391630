"""Rule cases for rule 5.2: frigates detect enemies beyond contact."""

from __future__ import annotations

import math

from intel_world import MAP, coastal, harbor, intel_events, sea, ship, turn_knowledge, world

from pate.core.orders.model import Commerce, ShipOrder
from pate.core.rules.detection import Category, Place
from pate.core.rules.gathering import SCOUTING
from pate.reports import render_reports
from pate.reports.svg import sea_area_svg

ALWAYS = {"scouting": {"raiding_percent": 100, "patrolling_percent": 100}}


def _sightings(k):
    return {(s.place, s.port, s.tactical, s.state, s.category): s.estimate for s in k.sightings}


def test_rule_5_2_frigate_detects_enemies_in_its_sea_area_out_of_contact() -> None:
    """5.2: "Frigates can also detect enemy ships or transport groups in the
    same sea area but not in contact with the frigate." """
    ships = [ship("FR2FR", sea("NOC", 1)), ship("BR4SL", sea("NOC", 3)), ship("BR5SL", sea("NOC", 3))]
    ships += [ship("BR9TR", sea("NOC", 2)), ship("BR6SL", sea("BAH", 1))]  # another sea area: never
    w = world(ships)
    k = turn_knowledge("villeneuve", w, w, intel=ALWAYS)
    found = _sightings(k)
    assert set(found) == {
        (Place.SEA, None, 3, "BR", Category.LINE),
        (Place.SEA, None, 2, "BR", Category.TRANSPORTS),
    }
    assert all(s.by == "FR2FR" for s in k.sightings)


def test_rule_5_2_no_exact_number_or_identity() -> None:
    """5.2: "Frigates detecting enemy ships in this way do not report the exact
    number and identity of the enemy ships/transports they detect at sea"."""
    enemies = [ship(f"BR{n}SL", sea("NOC", 3)) for n in range(10, 20)]
    w = world([ship("FR2FR", sea("NOC", 1)), *enemies])
    estimates = set()
    for seed in range(40):
        k = turn_knowledge("villeneuve", w, w, intel=ALWAYS, seed=seed)
        (est,) = _sightings(k).values()
        estimates.add(est)
        reports = render_reports(k, MAP)
        assert not any(e.id in reports["text"] or e.id in reports["html"] for e in enemies)
    assert len(estimates) > 3  # the number is approximate
    assert min(estimates) >= 6 and max(estimates) <= 14  # 10 +- 40% (intel.toml)


def test_rule_5_2_approximate_information_on_the_map_icon() -> None:
    """5.2: "approximate information will be available by clicking on the
    appropriate icon on the sea area map in the position report." """
    w = world([ship("FR2FR", sea("NOC", 1)), ship("BR4SL", sea("NOC", 3)), ship("BR5SL", sea("NOC", 3))])
    k = turn_knowledge("villeneuve", w, w, intel=ALWAYS)
    svg = sea_area_svg(k, MAP, "NOC")
    (est,) = _sightings(k).values()
    assert f"about {est} British ships of the line at sea (sighted by FR2FR)" in svg
    assert 'class="ship approx"' in svg


def test_rule_5_2_frigate_at_sea_detects_ships_in_connected_ports() -> None:
    """5.2: "If a frigate is at sea, then it may detect all enemy ships in that
    sea area and may also detect enemy ships in ports connected to that sea
    area." """
    ships = [
        ship("FR2FR", sea("NOC", 1)),
        ship("BR4SL", coastal("Dominica")),
        ship("BR5SL", harbor("Dominica")),
    ]
    ships += [ship("BR6SL", harbor("Martinique"))]  # connected to SOC, not NOC
    w = world(ships)
    found = _sightings(turn_knowledge("villeneuve", w, w, intel=ALWAYS))
    assert set(found) == {
        (Place.COASTAL, "Dominica", None, "BR", Category.LINE),
        (Place.HARBOR, "Dominica", None, "BR", Category.LINE),
    }


def test_rule_5_2_only_frigates_at_sea_scout() -> None:
    """5.2: "If a frigate is at sea ..." - a frigate in port, or a ship of the
    line at sea, sees only what it is in contact with."""
    ships = [ship("FR2FR", coastal("Dominica")), ship("FR3SL", sea("NOC", 1)), ship("BR4SL", sea("NOC", 3))]
    w = world(ships)
    assert not [e for e in intel_events(w, w, intel=ALWAYS) if e.kind == SCOUTING]


def _rate(order: ShipOrder, n: int, **damage: int) -> float:
    w = world([ship("FR2FR", sea("NOC", 1), **damage), ship("BR4SL", sea("NOC", 3))])
    hits = 0
    for seed in range(n):
        events = intel_events(w, w, {"FR2FR": order}, seed=seed)
        hits += any(e.kind == SCOUTING for e in events)
    return hits / n


def test_rule_5_2_patrolling_or_raiding_detect_more_than_convoying_or_refitting() -> None:
    """5.2: "Frigates are more likely to detect enemy ships if they have orders
    for patrolling or raiding than if they have orders for convoying or
    refitting." (chances 70/60/30/25% in data/rules/intel.toml)"""
    n = 1500
    rates = {
        "raiding": _rate(ShipOrder("FR2FR", commerce=Commerce.RAID), n),
        "patrolling": _rate(ShipOrder("FR2FR", commerce=Commerce.IGNORE), n),
        "convoying": _rate(ShipOrder("FR2FR", commerce=Commerce.CONVOY), n),
        "refitting": _rate(ShipOrder("FR2FR", commerce=Commerce.RAID), n, rigging=2),
    }
    expected = {"raiding": 0.70, "patrolling": 0.60, "convoying": 0.30, "refitting": 0.25}
    for mode, p in expected.items():
        assert abs(rates[mode] - p) < 4 * math.sqrt(p * (1 - p) / n), (mode, rates[mode])
    assert min(rates["raiding"], rates["patrolling"]) > max(rates["convoying"], rates["refitting"])
