"""Rule cases for rules 4.2 and 4.4: attaching, copying orders, detaching."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.effective import Author, Source, effective_orders, end_broken_attachments
from pate.core.orders.model import (
    Amphibious,
    Combat,
    CombatStance,
    Commerce,
    Contact,
    ContactMode,
    Movement,
    ShipOrder,
)
from tests.support.orders_world import (
    atlantic,
    check,
    coastal,
    harbor,
    refusal,
    sea,
    ship,
    submitted,
    world,
)

FLEET = world(
    [
        ship("BR2SL", sea("SOC")),
        ship("BR5SL", sea("SOC"), attached_to="BR2SL"),
        ship("BR8SL", sea("SOC"), attached_to="BR2SL"),
        ship("BR9SL", sea("SOC")),
    ]
)
LEAD = ShipOrder(
    "BR2SL",
    movement=Movement(("NOC",)),
    contact=Contact(mode=ContactMode.PURSUE),
    combat=Combat(stance=CombatStance.ENGAGE),
    commerce=Commerce.RAID,
    stores=20,
)


def test_rule_4_2_example_orders_for_br2sl_are_copied_to_br5sl_and_br8sl() -> None:
    """4.2: "If BR5SL and BR8SL are attached to BR2SL, then orders sent for
    BR2SL are copied to BR5SL and BR8SL. No orders need be sent for BR5SL and
    BR8SL unless the players desire to detach them from BR2SL." """
    eff = effective_orders(FLEET.ships, submitted((LEAD, Author.COMMANDER)))
    for sid in ("BR5SL", "BR8SL"):
        assert eff[sid].order == replace(LEAD, ship_id=sid)
        assert (eff[sid].source, eff[sid].copied_from) == (Source.COPIED, "BR2SL")
    assert eff["BR9SL"].source is Source.DEFAULT


def test_rule_4_2_example_own_orders_of_attached_ships_are_replaced() -> None:
    """4.2: "If orders are sent for BR5SL and BR8SL, and those orders do not
    detach the ships from BR2SL or attach them to a different ship, then those
    orders will not be carried out, because they will be replaced by the
    orders copied over from BR2SL." """
    own = ShipOrder("BR5SL", movement=Movement(("PAN",)), commerce=Commerce.CONVOY)
    eff = effective_orders(FLEET.ships, submitted((LEAD, Author.COMMANDER), (own, Author.COMMANDER)))
    assert eff["BR5SL"].order == replace(LEAD, ship_id="BR5SL")


def test_rule_4_2_example_an_order_that_detaches_is_carried_out() -> None:
    """4.2: orders that "detach the ships from BR2SL" are carried out."""
    own = ShipOrder("BR5SL", detach=True, movement=Movement(("PAN",)))
    eff = effective_orders(FLEET.ships, submitted((LEAD, Author.COMMANDER), (own, Author.COMMANDER)))
    assert eff["BR5SL"].order == own
    assert eff["BR5SL"].attached_to is None


def test_rule_4_2_example_an_order_that_attaches_elsewhere_copies_the_new_lead() -> None:
    """4.2: orders that "attach them to a different ship" are carried out: the
    ship now copies its new lead."""
    own = ShipOrder("BR5SL", attach_to="BR9SL")
    nine = ShipOrder("BR9SL", movement=Movement(("SUR",)))
    eff = effective_orders(
        FLEET.ships, submitted((LEAD, Author.COMMANDER), (own, Author.COMMANDER), (nine, Author.DEPUTY))
    )
    assert eff["BR5SL"].order.movement == nine.movement
    assert (eff["BR5SL"].copied_from, eff["BR5SL"].attached_to) == ("BR9SL", "BR9SL")


def test_rule_4_2_exception_amphibious_orders_of_a_transport_group_are_not_copied() -> None:
    """4.2: "Amphibious orders sent for transport groups are not copied to
    other ships attached to the transport group" """
    w = world([ship("BR1TR", harbor("Gibraltar")), ship("BR3SL", harbor("Gibraltar"), attached_to="BR1TR")])
    tr = ShipOrder("BR1TR", stores=30, amphibious=Amphibious(load_units=("BR1IN",), load_supplies=3))
    eff = effective_orders(w.ships, submitted((tr, Author.COMMANDER)))
    assert eff["BR3SL"].order.amphibious == Amphibious()
    assert eff["BR3SL"].order.stores == 30  # the rest of the order is copied


def test_rule_4_2_exception_amphibious_orders_of_an_attached_transport_group_are_kept() -> None:
    """4.2: "amphibious orders sent for a transport group will not be replaced
    with orders from the ship to which the transport group is attached." """
    w = world([ship("BR3SL", harbor("Gibraltar")), ship("BR1TR", harbor("Gibraltar"), attached_to="BR3SL")])
    lead = ShipOrder("BR3SL", movement=Movement(("WMD",)))
    tr = ShipOrder("BR1TR", amphibious=Amphibious(unload_units=("BR1IN",)), movement=Movement(("SOA",)))
    eff = effective_orders(w.ships, submitted((lead, Author.COMMANDER), (tr, Author.COMMANDER)))
    assert eff["BR1TR"].order.amphibious == tr.amphibious
    assert eff["BR1TR"].order.movement == lead.movement


def test_rule_4_2_attached_ships_stay_attached_on_later_turns() -> None:
    """4.2: "Ships which are attached to other ships will remain attached on
    subsequent turns until they are explicitly detached, or until they finish
    a turn out of contact." (Still in contact: the attachment stays.)"""
    assert end_broken_attachments(FLEET) == FLEET


def test_rule_4_2_attachment_ends_when_a_turn_finishes_out_of_contact() -> None:
    """4.2: "... or until they finish a turn out of contact." """
    moved = FLEET.with_ships({"BR5SL": replace(FLEET.ships["BR5SL"], location=sea("SOC", 2))})
    after = end_broken_attachments(moved)
    assert after.ships["BR5SL"].attached_to is None
    assert after.ships["BR8SL"].attached_to == "BR2SL"


def test_rule_4_2_harbor_and_coastal_waters_of_one_port_are_in_contact() -> None:
    """4.2 with 5.1: ships "in the same port (even if one is in the harbor and
    the other is in the coastal waters)" are in contact, so stay attached."""
    w = world([ship("BR2SL", harbor("Gibraltar")), ship("BR5SL", coastal("Gibraltar"), attached_to="BR2SL")])
    assert end_broken_attachments(w).ships["BR5SL"].attached_to == "BR2SL"


def test_rule_4_2_ships_crossing_the_atlantic_together_stay_attached() -> None:
    """4.2 with 6.11: "Groups of ships that enter the Atlantic together will
    remain together during the crossing" (decision: so they stay attached)."""
    w = world([ship("BR2SL", atlantic(group="a")), ship("BR5SL", atlantic(group="a"), attached_to="BR2SL")])
    assert end_broken_attachments(w).ships["BR5SL"].attached_to == "BR2SL"


def test_rule_4_4_attach_to_any_ship_in_the_same_location() -> None:
    """4.4: "Ships and transport groups may attach to any other ship or
    transport group in the same location" """
    assert check(ShipOrder("BR9SL", attach_to="BR2SL"), FLEET) == []
    w = world([ship("BR1TR", sea("SOC")), ship("BR2SL", sea("SOC"))])
    assert check(ShipOrder("BR2SL", attach_to="BR1TR"), w) == []


def test_rule_4_4_not_to_a_ship_in_another_location() -> None:
    """4.4: "in the same location": another tactical area is another location."""
    w = world([ship("BR1SL", sea("SOC", 1)), ship("BR2SL", sea("SOC", 2))])
    r = refusal(check(ShipOrder("BR1SL", attach_to="BR2SL"), w), "attach_to")
    assert (r.rule, r.code) == ("4.4", "failed_precondition")


def test_rule_4_4_example_no_attaching_to_a_ship_attached_to_a_third() -> None:
    """4.4: "if SP2SL is attached to SP3SL, then SP1SL may not attach itself to
    SP2SL." """
    w = world(
        [ship("SP1SL", sea("NOC")), ship("SP2SL", sea("NOC"), attached_to="SP3SL"), ship("SP3SL", sea("NOC"))]
    )
    r = refusal(check(ShipOrder("SP1SL", attach_to="SP2SL"), w), "attach_to")
    assert r.rule == "4.4" and "SP3SL" in r.message
    assert check(ShipOrder("SP1SL", attach_to="SP3SL"), w) == []


def test_rule_4_4_ships_may_attach_to_ships_of_other_states() -> None:
    """4.4: "A ship or transport group may attach to ships and transport groups
    of other states." """
    w = world([ship("SP1SL", sea("NOC")), ship("FR3FL", sea("NOC"))])
    assert check(ShipOrder("SP1SL", attach_to="FR3FL"), w) == []


def test_rule_4_4_to_move_to_a_third_ship_attach_without_detach() -> None:
    """4.4: "To detach a ship from another ship and attach it to a third,
    simply check the Attach order and enter the name of the new ship; do not
    click the Detach order in this case." """
    assert check(ShipOrder("BR5SL", attach_to="BR9SL"), FLEET) == []
    r = refusal(check(ShipOrder("BR5SL", attach_to="BR9SL", detach=True), FLEET), "detach")
    assert (r.rule, r.code) == ("4.4", "invalid_argument")


def test_rule_4_4_a_ship_must_name_a_valid_ship_id_to_attach() -> None:
    """4.4: "To attach, you must click the Attach box and enter a valid ship ID." """
    assert refusal(check(ShipOrder("BR9SL", attach_to="BR77SL"), FLEET), "attach_to").code == "not_found"
    assert (
        refusal(check(ShipOrder("BR9SL", attach_to="Victory"), FLEET), "attach_to").code == "invalid_argument"
    )
    assert (
        refusal(check(ShipOrder("BR9SL", attach_to="BR9SL"), FLEET), "attach_to").code == "invalid_argument"
    )


def test_rule_4_4_chains_of_one_turn_end_at_the_head() -> None:
    """4.4: "you may not attach a ship to a second ship which is itself
    attached to a third ship. That is, if SP2SL is attached to SP3SL, then
    SP1SL may not attach itself to SP2SL."  Orders of one turn can still
    form that chain (both valid when sent).  Decision
    (docs/rules/orders.md): SP1SL follows SP3SL, the head; the turn, resolved
    by the same core the resolver runs, leaves no chain, and the world passes
    the scenario reader's own attachment check."""
    from pate.core.campaign import resolve_submitted
    from pate.core.orders.effective import together
    from pate.core.world.invariants import world_problems
    from pate.engine.context import turn_context

    w = world([ship(sid, sea("SOC")) for sid in ("SP1SL", "SP2SL", "SP3SL")])
    orders = submitted(
        (ShipOrder("SP2SL", attach_to="SP3SL"), Author.COMMANDER),
        (ShipOrder("SP1SL", attach_to="SP2SL"), Author.COMMANDER),
    )
    after = resolve_submitted(turn_context(), w, orders).result.state
    assert after.ships["SP1SL"].attached_to == "SP3SL"
    assert after.ships["SP2SL"].attached_to == "SP3SL"
    assert world_problems(after, together) == []


def test_rule_4_4_a_world_with_a_chain_breaks_the_invariant() -> None:
    """4.4 (as above): the check after every turn names a chain, so a defect
    that makes one cannot pass unseen."""
    from pate.core.orders.effective import together
    from pate.core.world.invariants import WorldInvariantError, check_world

    w = world(
        [
            ship("SP3SL", sea("SOC")),
            ship("SP2SL", sea("SOC"), attached_to="SP3SL"),
            ship("SP1SL", sea("SOC"), attached_to="SP2SL"),
        ]
    )
    try:
        check_world(w, together)
    except WorldInvariantError as err:
        assert err.problems == [
            "turn 1: ships.SP1SL.attached_to: SP2SL is itself attached to SP3SL (rule 4.4)"
        ]
    else:
        raise AssertionError("the chain was not seen")
