"""Rule cases for rules 4.1 and 4.3: who may order a ship, and which order counts."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.effective import Author, Source, effective_orders
from pate.core.orders.model import Commerce, Movement, ShipOrder
from tests.support.orders_world import (
    ADMIN,
    check,
    commander,
    deputy,
    minister,
    refusal,
    sea,
    ship,
    submitted,
    world,
)

W = world([ship("BR1FL", sea("SOC")), ship("FR3FL", sea("NOC"))])
GO_NOC = ShipOrder("BR1FL", movement=Movement(("NOC",)))
GO_SUR = ShipOrder("BR1FL", movement=Movement(("SUR",)))
GO_PAN = ShipOrder("BR1FL", movement=Movement(("PAN",)))


def test_rule_4_1_one_order_per_ship_governs_its_turn() -> None:
    """4.1: "Players send orders for each ship and transport group, for each
    turn ... The orders sent govern the actions of the ship/transport during
    the turn." """
    eff = effective_orders(W.ships, submitted((GO_NOC, Author.COMMANDER)))
    assert eff["BR1FL"].order == GO_NOC
    assert eff["BR1FL"].source is Source.COMMANDER


def test_rule_4_1_last_order_of_the_commander_is_accepted() -> None:
    """4.1: "If multiple orders are sent, the last one sent by the commander is
    accepted" """
    eff = effective_orders(W.ships, submitted((GO_NOC, Author.COMMANDER), (GO_SUR, Author.COMMANDER)))
    assert eff["BR1FL"].order == GO_SUR


def test_rule_4_1_commander_beats_a_later_deputy_order() -> None:
    """4.1: "... and the last one sent by the deputy commander is accepted if
    the commander sent none." (The commander sent one, so the deputy's later
    order does not count.)"""
    eff = effective_orders(W.ships, submitted((GO_NOC, Author.COMMANDER), (GO_SUR, Author.DEPUTY)))
    assert eff["BR1FL"].order == GO_NOC


def test_rule_4_1_last_deputy_order_counts_when_the_commander_sent_none() -> None:
    """4.1: "the last one sent by the deputy commander is accepted if the
    commander sent none." """
    eff = effective_orders(W.ships, submitted((GO_NOC, Author.DEPUTY), (GO_PAN, Author.DEPUTY)))
    assert eff["BR1FL"].order == GO_PAN
    assert eff["BR1FL"].source is Source.DEPUTY


def test_rule_4_1_naval_minister_speaks_with_the_commanders_voice() -> None:
    """4.1 with 2.3 (decision): the naval minister, who assigns commanders and
    deputies, may order his state's ships; his order ranks as the commander's."""
    assert check(GO_NOC, W, minister("BR")) == []
    eff = effective_orders(W.ships, submitted((GO_NOC, Author.DEPUTY), (GO_SUR, Author.MINISTER)))
    assert eff["BR1FL"].order == GO_SUR
    assert eff["BR1FL"].author is Author.MINISTER


def test_rule_4_3_commander_and_deputy_may_order_the_ship() -> None:
    """4.3: players identify themselves "as commander or deputy commander" of
    the ship they send orders for."""
    assert check(GO_NOC, W, commander("BR")) == []
    assert check(GO_NOC, W, deputy("BR")) == []
    assert check(GO_NOC, W, ADMIN) == []


def test_rule_4_3_other_players_may_not_order_the_ship() -> None:
    """4.3 / 2.3: "Each player has a password that identifies him or her as the
    commander or deputy commander of his or her ships." Others are refused."""
    alongside = world([ship("BR1FL", sea("SOC")), ship("FR3FL", sea("SOC")), ship("SP2SL", sea("SOC"))])
    for actor in (commander("FR"), minister("FR"), deputy("SP")):
        r = refusal(check(GO_NOC, alongside, actor), "ship_id")
        assert (r.code, r.rule) == ("permission_denied", "2.3")


def test_rule_4_3_a_ship_the_player_cannot_see_is_refused_as_no_ship() -> None:
    """4.3 with 3.11 and 5.1 (the fog of war): the French ships are in NOC and
    do not see BR1FL in SOC, so to the French an order for BR1FL is refused
    word for word as one for an id no ship has."""
    for actor in (commander("FR"), minister("FR"), deputy("SP")):
        unseen = refusal(check(GO_NOC, W, actor), "ship_id")
        nobody = refusal(check(replace(GO_NOC, ship_id="BR8FL"), W, actor), "ship_id")
        assert (unseen.code, unseen.rule) == ("not_found", "4.3")
        assert unseen.message.replace("BR1FL", "BR8FL") == nobody.message


def test_rule_4_3_ships_are_referred_to_by_id_never_by_name() -> None:
    """4.3: "Ships are always referred to by ID, never by name, in orders." """
    r = refusal(check(ShipOrder("Revolutionnaire", commerce=Commerce.IGNORE), W), "ship_id")
    assert r.code == "invalid_argument"
    r = refusal(check(ShipOrder("BR99SL"), W), "ship_id")
    assert r.code == "not_found"
