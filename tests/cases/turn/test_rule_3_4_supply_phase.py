"""Rule cases for rule 3.4: the supply phase."""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Phase
from pate.core.orders.model import ShipOrder
from pate.core.world.ships import Cargo, InPort
from tests.cases.turn.turn_world import coastal, events, harbor, move, only, run, sea, ship, world


def _stores(sid: str, n: int | None) -> ShipOrder:
    return ShipOrder(sid, stores=n)


def test_rule_3_4_at_sea_and_in_coastal_waters_one_store_a_turn_from_aboard() -> None:
    """3.4: "Ships and TRs at sea or in the coastal waters of ports use 1 unit of onboard stores
    per turn." """
    w = world([ship("FR1SL", sea("BIS"), stores=10), ship("FR1TR", coastal("Brest"), stores=10)])
    r = run(w)
    assert r.state.ships["FR1SL"].stores == 9
    assert r.state.ships["FR1TR"].stores == 9
    assert r.state.ports["Brest"].stores == w.ports["Brest"].stores


def test_rule_3_4_in_harbor_stores_come_from_the_port_city_if_it_has_them() -> None:
    """3.4: "Ships and TRs in harbor will use stores from the port city if available, and will
    consume onboard stores if not." """
    w = world(
        [ship("FR1SL", harbor("Brest"), stores=10), ship("FR2SL", harbor("Cherbourg"), stores=10)],
        ports={"Brest": {"stores": 50}, "Cherbourg": {"stores": 0}},
    )
    r = run(w)
    assert (r.state.ships["FR1SL"].stores, r.state.ports["Brest"].stores) == (10, 49)
    assert (r.state.ships["FR2SL"].stores, r.state.ports["Cherbourg"].stores) == (9, 0)


def test_rule_3_4_load_up_to_24_in_a_friendly_harbor_with_stores() -> None:
    """3.4: "Ships in same-side or actively allied harbors may load up to 24 stores (the maximum
    they can carry) if the port city has stores available to load." """
    w = world(
        [ship("FR1SL", harbor("Brest"), stores=10), ship("SP1SL", harbor("Brest"), stores=3)],
        ports={"Brest": {"stores": 100}},
    )
    r = run(w, _stores("FR1SL", 24), _stores("SP1SL", 30))
    assert r.state.ships["FR1SL"].stores == 24
    assert r.state.ships["SP1SL"].stores == 24  # an ally; 24 is the most a ship carries
    assert r.state.ports["Brest"].stores == 100 - 2 - 14 - 21


def test_rule_3_4_loading_takes_only_what_the_port_city_has() -> None:
    """3.4: "if the port city has stores available to load"."""
    w = world([ship("FR1SL", harbor("Brest"), stores=10)], ports={"Brest": {"stores": 6}})
    r = run(w, _stores("FR1SL", 24))
    assert (r.state.ships["FR1SL"].stores, r.state.ports["Brest"].stores) == (15, 0)


def test_rule_3_4_no_loading_in_a_hostile_or_neutral_harbor() -> None:
    """3.4: only "same-side or actively allied harbors"."""
    w = world([ship("BR1SL", harbor("Kobenhavn"), stores=10)])
    r = run(w, _stores("BR1SL", 24))
    assert r.state.ships["BR1SL"].stores == 9
    assert not events(r, "loaded_stores")


def test_rule_3_4_a_transport_carries_extra_stores_at_20_spaces_each() -> None:
    """3.4: "A transport can carry additional stores; each additional store uses 20 spaces of
    capacity." A 5,000 group with 500 crew (1 per 10, 2.7) and 4,700 spaces of cargo has 300
    free: 15 stores above 24."""
    tr = ship("FR1TR", harbor("Brest"), stores=24, cargo=Cargo(("FR9IN",), 0, 4700))
    w = world([tr], ports={"Brest": {"stores": 200}})
    r = run(w, _stores("FR1TR", 60))
    assert r.state.ships["FR1TR"].stores == 24 + 15


def test_rule_3_4_a_port_reprovisions_at_most_twice_its_yard_capacity() -> None:
    """3.4: "A port cannot reprovision more ships than 2 times its yard capacity." Dominica's
    yard is 1: two ships load (fewest stores first), the third does not."""
    ships = [
        ship("BR1SL", harbor("Dominica"), stores=5),
        ship("BR2SL", harbor("Dominica"), stores=1),
        ship("BR3SL", harbor("Dominica"), stores=9),
    ]
    w = world(ships, ports={"Dominica": {"stores": 200}})
    r = run(w, *(_stores(s.id, 24) for s in ships))
    assert {e.ships[0] for e in events(r, "loaded_stores")} == {"BR1SL", "BR2SL"}
    assert r.state.ships["BR3SL"].stores == 9


def test_rule_3_4_a_ship_with_more_stores_than_ordered_unloads_the_rest_to_the_port() -> None:
    """3.4: "If a ship that is in port has more stores than the amount it requested to carry in
    orders, it will unload the rest back to the port from which it is drawing stores." """
    w = world([ship("FR1SL", harbor("Brest"), stores=24)], ports={"Brest": {"stores": 10}})
    r = run(w, _stores("FR1SL", 10))
    assert r.state.ships["FR1SL"].stores == 10
    assert r.state.ports["Brest"].stores == 10 - 1 + 14
    assert only(r, "unloaded_stores").data["stores"] == 14


def test_rule_3_4_no_stores_order_keeps_the_stores_aboard_but_an_empty_ship_fills_up() -> None:
    """4.11 and 3.4 (decision): with no stores order the stores aboard stay as they are; a ship
    with none aboard fills up, since a ship that ran out sails home "to replenish"."""
    w = world(
        [ship("FR1SL", harbor("Brest"), stores=10), ship("FR2SL", harbor("Brest"), stores=0)],
        ports={"Brest": {"stores": 100}},
    )
    r = run(w)
    assert r.state.ships["FR1SL"].stores == 10
    assert r.state.ships["FR2SL"].stores == 24


def test_rule_3_4_ships_that_run_out_lose_crew_and_sail_for_the_nearest_friendly_harbor() -> None:
    """3.4: "Ships that run out of stores suffer crew loss, and stop responding to orders. They
    will automatically sail to the nearest same-side or actively allied harbor to replenish."
    FR1SL, empty in the Channel, was ordered to the Bay of Biscay; it loses 10% of 600 crew and
    enters Boulogne (the first of the Channel's French ports with stores) instead."""
    w = world([ship("FR1SL", sea("ECH"), stores=0, crew=600)])
    r = run(w, move("FR1SL", "BIS"))
    starving = only(r, "out_of_stores", Phase.SUPPLY)
    assert starving.data == {"crew_lost": 60, "crew": 540, "homing": True}
    assert r.state.ships["FR1SL"].location == InPort("Boulogne", True)
    assert r.state.ships["FR1SL"].crew == 540


def test_rule_3_4_a_starving_ship_in_coastal_waters_shifts_into_the_harbor() -> None:
    """3.4 (decision): the nearest friendly harbor of a ship off a friendly port with stores is
    that port's own harbor."""
    w = world([ship("FR1SL", coastal("Brest"), stores=0)])
    r = run(w)
    assert r.state.ships["FR1SL"].location == InPort("Brest", True)


def test_rule_3_4_stores_are_not_used_by_inactive_ships() -> None:
    """2.6 with 3.4: inactive ships "do not use stores or supplies"."""
    w = world(
        [ship("FR1SL", harbor("Cherbourg"), stores=7, active=False)], ports={"Cherbourg": {"stores": 0}}
    )
    r = run(w)
    assert r.state.ships["FR1SL"].stores == 7


def test_rule_3_4_a_transport_keeps_room_for_units_it_loads_this_turn() -> None:
    """3.4 with section 9 (decision): stores above 24 are counted after the units and supplies
    the group is ordered to load, so an order for both does not crowd out its own cargo."""
    from tests.cases.turn.turn_world import infantry, load

    tr = ship("FR1TR", harbor("Brest"), stores=24)
    w = world([tr], ports={"Brest": {"stores": 500, "garrison": ("FR1IN",)}}, units=[infantry("FR1IN", 4500)])
    r = run(w, replace(load("FR1TR", "FR1IN"), stores=200))
    after = r.state.ships["FR1TR"]
    assert after.cargo.units == ("FR1IN",)
    assert after.stores == 24 + 500 // 20
