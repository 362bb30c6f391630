"""Rule cases for rules 4.5 to 4.11: the sections of the order form."""

from __future__ import annotations

import pytest

from pate.core.orders.effective import effective_orders
from pate.core.orders.model import (
    Aim,
    Amphibious,
    Combat,
    CombatStance,
    Commerce,
    Contact,
    ContactMode,
    FleeTo,
    Gauge,
    Line,
    Movement,
    Range,
    ShipOrder,
    default_order,
)
from pate.core.orders.text import parse_orders
from tests.support.orders_world import check, coastal, harbor, refusal, sea, ship, world

W = world(
    [
        ship("BR1FL", sea("SOC")),
        ship("BR2SL", harbor("Gibraltar")),
        ship("BR1TR", harbor("Gibraltar")),
        ship("BR2TR", sea("SOA")),
        ship("BR4FR", coastal("Gibraltar")),
    ]
)


def _one(text: str) -> ShipOrder:
    (order,) = parse_orders(text)
    return order


# 4.5 movement


def test_rule_4_5_one_or_two_sea_areas_and_a_port() -> None:
    """4.5: "They can indicate one or two sea areas to which the
    ship/transport should move, and a port to which the ship/transport should
    move." """
    order = _one("order BR1FL\n  move NOC BAH port Nassau\n")
    assert order.movement == Movement(("NOC", "BAH"), port="Nassau")
    assert check(order, W) == []
    assert check(_one("order BR1FL\n move NOC\n"), W) == []


def test_rule_4_5_any_port_with_an_enemy_ship() -> None:
    """4.5: "They can also specify movement to any port with an enemy ship
    instead of naming a specific port." """
    order = _one("order BR1FL\n  move NOC port any-enemy\n")
    assert order.movement == Movement(("NOC",), any_enemy_port=True)
    assert check(order, W) == []
    both = ShipOrder("BR1FL", movement=Movement(("NOC",), port="Dominica", any_enemy_port=True))
    assert refusal(check(both, W), "movement.any_enemy_port").rule == "6.1"


def test_rule_4_5_harbor_or_coastal_waters() -> None:
    """4.5: "They can specify whether the ship/transport should enter the
    port's harbor or remain in its coastal waters." """
    assert _one("order BR1FL\n move port Martinique harbor\n").movement.harbor is True
    assert _one("order BR1FL\n move port Martinique coastal\n").movement.harbor is False
    assert _one("order BR1FL\n move port Martinique\n").movement.harbor is False


def test_rule_4_5_sail_together_or_alone() -> None:
    """4.5: "they specify whether they want to sail together with other ships
    with the same movement orders with which they are in contact, or sail
    alone." """
    assert _one("order BR1FL\n move NOC alone\n").movement.sail_alone is True
    assert _one("order BR1FL\n move NOC together\n").movement.sail_alone is False


# 4.6 contact


def test_rule_4_6_pursue_evade_or_accept() -> None:
    """4.6: "Ships can choose to pursue enemy ships encountered, evade them,
    or accept contact." """
    for mode in ContactMode:
        order = _one(f"order BR1FL\n contact {mode.value}\n")
        assert order.contact.mode is mode
        assert check(order, W) == []


def test_rule_4_6_neither_number_acts_on_any_number() -> None:
    """4.6: "If a ship specifies neither of them, then it will pursue or evade
    any number of enemy ships it encounters." """
    c = Contact(ContactMode.PURSUE)
    assert all(c.effective_mode(n) is ContactMode.PURSUE for n in (1, 5, 50))


def test_rule_4_6_only_a_minimum() -> None:
    """4.6: "If its specifies only a minimum number, then it will pursue or
    evade if it encounters that number or more, otherwise it will accept
    contact." """
    c = _one("order BR1FL\n contact evade min 3\n").contact
    assert c == Contact(ContactMode.EVADE, minimum=3, join_allies=False)
    assert [c.effective_mode(n) for n in (2, 3, 9)] == [
        ContactMode.ACCEPT,
        ContactMode.EVADE,
        ContactMode.EVADE,
    ]


def test_rule_4_6_only_a_maximum() -> None:
    """4.6: "If ir specifies only a maximum number, then it will pursue or
    evade if it encounters that number or fewer, otherwise it will accept
    contact." """
    c = _one("order BR1FL\n contact pursue max 4\n").contact
    assert [c.effective_mode(n) for n in (1, 4, 5)] == [
        ContactMode.PURSUE,
        ContactMode.PURSUE,
        ContactMode.ACCEPT,
    ]


def test_rule_4_6_example_minimum_2_maximum_10() -> None:
    """4.6: "If a ship specifies a mininum of 2 and a maximum of 10, it will
    pursue 2 ships or 3 ships, or 9 ships or 10 ships, but not 1 ship or 11
    ships." """
    order = _one("order BR1FL\n contact pursue min 2 max 10\n")
    assert check(order, W) == []
    acts = {n: order.contact.acts_on(n) for n in (1, 2, 3, 9, 10, 11)}
    assert acts == {1: False, 2: True, 3: True, 9: True, 10: True, 11: False}


def test_rule_4_6_example_minimum_10_maximum_2() -> None:
    """4.6: "If it specifies a minimum of 10 and a maximum of 2, then it will
    pursue 1 ship or 2 ships, or 10 ships or 11 ships, but not 3 ships or 9
    ships." """
    order = _one("order BR1FL\n contact pursue min 10 max 2\n")
    assert check(order, W) == []
    acts = {n: order.contact.acts_on(n) for n in (1, 2, 3, 9, 10, 11)}
    assert acts == {1: True, 2: True, 3: False, 9: False, 10: True, 11: True}


def test_rule_4_6_numbers_are_not_negative() -> None:
    """4.6: the minimum and maximum are numbers of enemy ships: never negative."""
    order = ShipOrder("BR1FL", contact=Contact(ContactMode.PURSUE, minimum=-1))
    r = refusal(check(order, W), "contact.minimum")
    assert (r.rule, r.code) == ("4.6", "invalid_argument")


def test_rule_4_6_join_allies_or_sail_separately() -> None:
    """4.6: "Ships can also choose whether to join allied ships they encounter
    and sail together, or to sail separately." """
    assert _one("order BR1FL\n contact accept\n").contact.join_allies is True
    assert _one("order BR1FL\n contact accept separate\n").contact.join_allies is False


def test_rule_4_6_windward_or_leeward_gauge() -> None:
    """4.6: "Last, they choose whether to manuever for windward gauge or
    leeward gauge upon meeting enemy ships." """
    assert _one("order BR1FL\n contact accept gauge windward\n").contact.gauge is Gauge.WINDWARD


def test_rule_4_6_evade_may_not_join_allies() -> None:
    """4.6: "Ships with Evade checked may not Join Allies, as they never
    approach the allied fleet to join it." """
    bad = ShipOrder("BR1FL", contact=Contact(ContactMode.EVADE, join_allies=True))
    r = refusal(check(bad, W), "contact.join_allies")
    assert (r.rule, r.code) == ("4.6", "invalid_argument")
    assert check(ShipOrder("BR1FL", contact=Contact(ContactMode.EVADE, join_allies=False)), W) == []


@pytest.mark.parametrize(
    ("commerce", "mode", "ok"),
    [
        (Commerce.RAID, ContactMode.PURSUE, True),
        (Commerce.RAID, ContactMode.ACCEPT, False),
        (Commerce.RAID, ContactMode.EVADE, False),
        (Commerce.CONVOY, ContactMode.ACCEPT, True),
        (Commerce.CONVOY, ContactMode.PURSUE, False),
        (Commerce.IGNORE, ContactMode.EVADE, True),
    ],
)
def test_rule_4_6_contact_orders_limited_by_commerce_orders(
    commerce: Commerce, mode: ContactMode, ok: bool
) -> None:
    """4.6: "The ship's choice of contact orders may be limited by its intended
    commerce orders"; recovered: "A raiding order forces pursue as the contact
    order; a convoying (protect commerce) order forces accept." """
    order = ShipOrder(
        "BR1FL", commerce=commerce, contact=Contact(mode, join_allies=mode is not ContactMode.EVADE)
    )
    refusals = check(order, W)
    assert (refusals == []) is ok
    if not ok:
        assert refusal(refusals, "contact.mode").rule == "4.6"


# 4.7 combat, 4.8 commerce


def test_rule_4_7_gauge_line_ahead_or_break_rigging_or_hull() -> None:
    """4.7: "Ships can choose to manuever for leeward or windward gauge, to
    engage in line ahead or to break the enemy's line, and to aim at enemy
    rigging or enemy hulls." (Gauge is written with the contact orders.)"""
    order = _one("order BR1FL\n contact accept gauge windward\n combat break aim hull\n")
    assert (order.contact.gauge, order.combat.line, order.combat.aim) == (
        Gauge.WINDWARD,
        Line.BREAK,
        Aim.HULL,
    )
    assert _one("order BR1FL\n combat line-ahead aim rigging\n").combat == Combat()


def test_rule_4_7_combat_mechanics_six_decisions() -> None:
    """Combat mechanics: "whether to initiate, accept, or evade battle, whether
    to fight at range or at close quarters, whether to aim at enemy rigging or
    hulls, whether to maintain line ahead or attempt to break the enemy's line,
    and whether to break off battle and, if they are in coastal waters, whether
    to run to harbor or to open sea." """
    order = _one("order BR1FL\n combat run-past close break aim hull flee sea\n")
    assert order.combat == Combat(CombatStance.RUN_PAST, Range.CLOSE, Line.BREAK, Aim.HULL, FleeTo.SEA)
    assert _one("order BR1FL\n combat evade\n").combat.stance is CombatStance.EVADE


def test_rule_4_8_raid_convoy_or_ignore_commerce() -> None:
    """4.8: "Ships can choose to raid enemy commerce, convoy their own
    commerce, or ignore commercial shipping entirely." """
    assert _one("order BR1FL\n commerce raid\n contact pursue\n").commerce is Commerce.RAID
    assert _one("order BR1FL\n commerce convoy\n").commerce is Commerce.CONVOY
    assert _one("order BR1FL\n commerce ignore\n").commerce is Commerce.IGNORE


# 4.9 stores and amphibious orders


def test_rule_4_9_how_many_naval_stores_to_load() -> None:
    """4.9: "ships/transports indicate how many naval stores to load"; 3.4:
    "may load up to 24 stores (the maximum they can carry)"."""
    assert check(_one("order BR2SL\n stores 24\n"), W) == []
    assert check(_one("order BR2SL\n stores 0\n"), W) == []
    r = refusal(check(_one("order BR2SL\n stores 25\n"), W), "stores")
    assert (r.rule, r.code) == ("3.4", "invalid_argument")


def test_rule_4_9_transports_may_carry_more_stores() -> None:
    """3.4: "A transport can carry additional stores; each additional store
    uses 20 spaces of capacity." A 5,000 group with 500 crew and nothing else
    aboard has room for 24 + 5000 // 20 = 274 stores."""
    assert check(ShipOrder("BR1TR", stores=274), W) == []
    assert refusal(check(ShipOrder("BR1TR", stores=275), W), "stores").rule == "3.4"


def test_rule_4_9_only_transports_load_or_unload_units_and_supplies() -> None:
    """4.9: "and if transports, indicate orders to load or unload units or
    supplies from/to GITM." """
    load = Amphibious(load_units=("BR1IN",), load_supplies=5)
    assert check(ShipOrder("BR1TR", amphibious=load), W) == []
    r = refusal(check(ShipOrder("BR2SL", amphibious=load), W), "amphibious")
    assert (r.rule, r.code) == ("4.9", "invalid_argument")


def test_rule_4_9_loading_and_unloading_only_in_port() -> None:
    """4.9 with 3.6: loading and unloading begin in the initial amphibious
    phase, before any movement: a transport group at sea cannot."""
    r = refusal(check(ShipOrder("BR2TR", amphibious=Amphibious(load_supplies=1)), W), "amphibious")
    assert (r.rule, r.code) == ("4.9", "failed_precondition")


# 4.10, 4.11


def test_rule_4_10_orders_in_all_sections_in_any_combination() -> None:
    """4.10: "In general, players may submit orders in all sections in any
    combinations they desire." """
    text = """
order BR1TR
  attach BR2SL
  move GIB port Gibraltar harbor
  contact pursue min 2 max 10 gauge windward
  combat engage close break aim hull flee sea
  commerce raid
  stores 30
  load units BR1IN supplies 5
"""
    order = _one(text.replace("GIB", "SOA"))
    assert check(order, W) == []


def test_rule_4_11_defaults_when_no_order_is_sent() -> None:
    """4.11: "The ship/transport will not move, will not change its attachment
    if any, will not load or unload, will accept contact with other ships, will
    join allies, will accept combat, will manuever for leeward gauge, will
    engage line ahead, will not break enemy lines, and will fire at enemy
    rigging." """
    w = world([ship("BR1FL", sea("SOC"), attached_to="BR2SL"), ship("BR2SL", sea("SOC"), active=False)])
    eff = effective_orders(w.ships, [])["BR1FL"]
    o = eff.order
    assert o == default_order("BR1FL")
    assert not o.movement.moves and o.attach_to is None and not o.detach
    assert o.amphibious.empty
    assert (o.contact.mode, o.contact.join_allies, o.contact.gauge) == (
        ContactMode.ACCEPT,
        True,
        Gauge.LEEWARD,
    )
    assert (o.combat.stance, o.combat.line, o.combat.aim) == (
        CombatStance.ACCEPT,
        Line.LINE_AHEAD,
        Aim.RIGGING,
    )
    assert o.stores is None and o.commerce is Commerce.IGNORE


def test_rule_4_11_defaults_keep_the_attachment() -> None:
    """4.11: "If a ship/transport fails to send orders, and does not receive
    orders from an attached ship, then default orders will be carried out
    ... will not change its attachment if any" """
    w = world([ship("BR1FL", sea("SOC")), ship("BR5SL", sea("SOC"), attached_to="BR1FL")])
    eff = effective_orders(w.ships, [])
    assert eff["BR5SL"].attached_to == "BR1FL"
    assert eff["BR5SL"].order == default_order("BR5SL")
