"""Rule cases for rules 6.1 to 6.5, 6.11 and 6.12 as far as orders go: the
routes the order desk accepts, on the real map."""

from __future__ import annotations

from pate.core.orders.model import Contact, ContactMode, Movement, ShipOrder
from pate.core.orders.text import parse_orders
from pate.core.world.state import TurnKind
from tests.support.orders_world import atlantic, check, coastal, harbor, refusal, sea, ship, world


def _move(sid: str, *areas: str, port: str | None = None, harbor: bool = False) -> ShipOrder:
    return ShipOrder(sid, movement=Movement(tuple(areas), port=port, harbor=harbor))


def test_rule_6_1_two_sea_areas_and_one_port_at_most() -> None:
    """6.1: "A ship or transport group can submit three orders for movement,
    two for sea areas and one for ports." """
    w = world([ship("BR1FL", sea("SOC"))])
    assert check(_move("BR1FL", "NOC", "BAH", port="Nassau", harbor=True), w) == []
    r = refusal(check(_move("BR1FL", "NOC", "BAH", "FLS"), w), "movement.sea_areas[2]")
    assert (r.rule, r.code) == ("6.1", "invalid_argument")


def test_rule_6_1_shift_within_the_current_port() -> None:
    """6.1: "A ship or transport group can shift position within a port by
    sending an order to move to the port it is currently in, to whichever
    portion it wishes to move." """
    w = world([ship("BR1FL", coastal("Gibraltar")), ship("BR2SL", harbor("Gibraltar"))])
    assert check(_move("BR1FL", port="Gibraltar", harbor=True), w) == []
    assert check(_move("BR2SL", port="Gibraltar"), w) == []


def test_rule_6_2_example_southern_caribbean_neighbours() -> None:
    """6.2: "A ship in the Southern Caribbean may move to the Northern
    Caribbean, Surinam Coast, or Panama Coast." """
    w = world([ship("BR1FL", sea("SOC"))])
    for area in ("NOC", "SUR", "PAN"):
        assert check(_move("BR1FL", area), w) == []


def test_rule_6_2_example_not_beyond_the_neighbours() -> None:
    """6.2: "It may not move to the Western Caribbean or Southwest Atlantic,
    nor to the Bahamas, unless it moves to an adjacent sea area first." """
    w = world([ship("BR1FL", sea("SOC"))])
    for area in ("WCA", "SWA", "BAH"):
        r = refusal(check(_move("BR1FL", area), w), "movement.sea_areas[0]")
        assert (r.rule, r.code) == ("6.2", "invalid_argument")
    assert check(_move("BR1FL", "NOC", "BAH"), w) == []
    assert check(_move("BR1FL", "NOC", "WCA"), w) == []
    assert check(_move("BR1FL", "SUR", "SWA"), w) == []


def test_rule_6_2_example_martinique_but_not_dominica() -> None:
    """6.2: "It may move to Martinique, which is connected to the Southern
    Caribbeam, but not to Dominica, which is connected to the Northern
    Caribbean." """
    w = world([ship("BR1FL", sea("SOC"))])
    assert check(_move("BR1FL", port="Martinique"), w) == []
    r = refusal(check(_move("BR1FL", port="Dominica"), w), "movement.port")
    assert (r.rule, r.code) == ("6.2", "invalid_argument")
    assert check(_move("BR1FL", "NOC", port="Dominica"), w) == []


def test_rule_6_2_second_sea_area_must_border_the_first() -> None:
    """6.2 applied to the second move: from the first sea area, only to a sea
    area adjacent to it."""
    w = world([ship("BR1FL", sea("SOC"))])
    r = refusal(check(_move("BR1FL", "NOC", "SUR"), w), "movement.sea_areas[1]")
    assert r.rule == "6.2" and "NOC" in r.message


def test_rule_6_3_example_gibraltar_to_either_sea_area() -> None:
    """6.3: "ships in Gibraltar may sail to either SOA or WMD, and ships in
    either SOA or WMD may sail to Gibraltar." """
    w = world([ship("BR1FL", harbor("Gibraltar")), ship("BR2SL", sea("SOA")), ship("BR3SL", sea("WMD"))])
    assert check(_move("BR1FL", "SOA"), w) == []
    assert check(_move("BR1FL", "WMD"), w) == []
    assert check(_move("BR2SL", port="Gibraltar"), w) == []
    assert check(_move("BR3SL", port="Gibraltar", harbor=True), w) == []


def test_rule_6_3_the_other_strait_ports() -> None:
    """6.3: "Bolougne is on the border between ECH and NOS, and Kobenhavn is on
    the border between SKA and BAS." """
    w = world([ship("FR1SL", sea("NOS")), ship("FR2SL", sea("ECH")), ship("BR1SL", sea("SKA"))])
    assert check(_move("FR1SL", port="Boulogne"), w) == []
    assert check(_move("FR2SL", port="Boulogne"), w) == []
    assert check(_move("BR1SL", port="Kobenhavn"), w) == []


def test_rule_6_3_passing_a_strait_needs_no_port_in_the_order() -> None:
    """6.3: "It is not necessary to specify the port in the ship's movement
    orders; when a ship in SOA is ordered to move to WMD, it will
    automatically be moved through Gibraltar coastal waters." """
    w = world([ship("BR1FL", sea("SOA"))])
    assert check(_move("BR1FL", "WMD"), w) == []


def test_rule_6_4_ships_in_port_sail_only_to_the_connected_sea_area() -> None:
    """6.4: "Ships in port may only be ordered to move to the sea are connected
    to that port." (1.3 example: "A ship sailing out of Port au Prince cannot
    sail directly into the Bahamas sea area or the Straits of Florida sea area;
    it must first sail to the Western Caribbean".)"""
    w = world([ship("FR1SL", harbor("Port au Prince"))])
    for area in ("BAH", "FLS"):
        r = refusal(check(_move("FR1SL", area), w), "movement.sea_areas[0]")
        assert (r.rule, r.code) == ("6.4", "invalid_argument")
    assert check(_move("FR1SL", "WCA", "WIN"), w) == []


def test_rule_6_5_no_sailing_directly_from_port_to_port() -> None:
    """6.5: "Ships cannot sail directly from one port to another. To sail from
    one port to another port on the same sea area, first sail to the sea area,
    then sail to the new port." """
    w = world([ship("FR1SL", harbor("Brest"))])
    r = refusal(check(_move("FR1SL", port="Cherbourg"), w), "movement.port")
    assert (r.rule, r.code) == ("6.5", "invalid_argument")
    assert check(_move("FR1SL", "ECH", port="Cherbourg"), w) == []


def test_rule_6_11_example_lisbon_to_the_southwest_atlantic() -> None:
    """6.11: "A ship in Lisbon can cross the Atlantic by ordering a movement to
    the Iberian Coast, then to the Southwest Atlantic." """
    w = world([ship("PO1SL", harbor("Lisbon"))])
    assert check(_move("PO1SL", "IBC", "SWA"), w) == []


def test_rule_6_11_example_resubmit_the_crossing_next_turn() -> None:
    """6.11: "(The ship may not make its second move under rule 6.5; if not,
    you need to resubmit the order to move to the Southwest Atlantic on the
    following turn.)" """
    w = world([ship("PO1SL", sea("IBC"))])
    assert check(_move("PO1SL", "SWA"), w) == []


def test_rule_6_11_both_ends_on_the_map_edges() -> None:
    """6.11: "they send orders to move to any sea area on the appropriate edge
    of one map, then any sea area on the appropriate edge of the other map." """
    w = world([ship("BR1SL", sea("BIS")), ship("BR2SL", sea("IBC"))])
    r = refusal(check(_move("BR1SL", "SWA"), w), "movement.sea_areas[0]")
    assert r.rule == "6.11"  # BIS is not on the edge
    r = refusal(check(_move("BR2SL", "SOC"), w), "movement.sea_areas[0]")
    assert r.rule == "6.11"  # SOC is not on the edge of the American map


def test_rule_6_11_frigates_name_any_sea_area_across() -> None:
    """6.11: "Frigate groups simply send orders for a sea area on the other
    side of the Atlantic (not necessarily on the edge of the map)." """
    w = world([ship("BR4FR", sea("IBC"))])
    assert check(_move("BR4FR", "SOC"), w) == []


def test_rule_6_11_the_crossing_ends_the_movement() -> None:
    """6.11: ships "enter the Atlantic Ocean, and remain there for several
    turns": nothing may follow the crossing in the same order."""
    w = world([ship("BR1SL", sea("IBC"))])
    assert refusal(check(_move("BR1SL", "SWA", "NOC"), w), "movement.sea_areas[1]").rule == "6.11"
    assert refusal(check(_move("BR1SL", "SWA", port="Martinique"), w), "movement.port").rule == "6.11"


def test_rule_6_11_crossing_ships_refuse_new_orders() -> None:
    """6.11: "Ships crossing the Atlantic Ocean cannot receive new orders until
    they reach the other map; during the crossing they will refuse to accept
    new orders." (1.6: "nor can they receive new orders".)"""
    w = world([ship("BR1SL", atlantic())])
    r = refusal(check(ShipOrder("BR1SL"), w), "ship_id")
    assert (r.rule, r.code) == ("6.11", "failed_precondition")


def test_rule_6_12_peace_turns_any_distance() -> None:
    """6.12: "During peace and truce turns, a ship can move to any sea area or
    port it desires - there is no restriction on distance." """
    w = world([ship("BR1SL", harbor("Gibraltar"))], kind=TurnKind.PEACE)
    assert check(_move("BR1SL", port="Martinique"), w) == []
    assert check(_move("BR1SL", "BAL"), w) == []
    assert refusal(check(_move("BR1SL", "BAL", "GOL"), w), "movement.sea_areas[1]").rule == "6.12"
    anywhere = ShipOrder("BR1SL", movement=Movement(any_enemy_port=True))
    assert refusal(check(anywhere, w), "movement.any_enemy_port").rule == "6.12"


def test_rule_6_10_pursuers_may_choose_not_to_follow_into_ports() -> None:
    """6.10: "Pursuing ships can also select not to pursue into the coastal
    waters of ports, but abandon the pursuit remain in the open sea." """
    w = world([ship("BR1FL", sea("SOC"))])
    (order,) = parse_orders("order BR1FL\n  contact pursue not-into-ports\n")
    assert order.contact == Contact(ContactMode.PURSUE, pursue_into_ports=False)
    assert check(order, w) == []
    evading = ShipOrder("BR1FL", contact=Contact(ContactMode.ACCEPT, pursue_into_ports=False))
    assert refusal(check(evading, w), "contact.pursue_into_ports").rule == "6.10"
