"""Rule cases of the decisions on commerce and contact (4.6 with the
recovered page) and on combining transport groups (2.5 with the recovered
page): what the desk refuses, and what its explanation of the order ("Will
carry out ... Why", from the core's ``explain``) tells the player."""

from __future__ import annotations

from pate.core.orders.effective import Author
from pate.core.orders.explain import explain_orders
from pate.core.orders.model import AdminKind, AdminOrder, Commerce, Contact, ContactMode, ShipOrder
from tests.support.orders_world import check, coastal, harbor, refusal, sea, ship, submitted, world

W = world(
    [
        ship("BR1FR", sea("SOC")),
        ship("BR1TR", harbor("Gibraltar")),
        ship("BR2TR", harbor("Gibraltar")),
        ship("BR3TR", coastal("Gibraltar")),
    ]
)


def _why(order: ShipOrder, part: str) -> str:
    return explain_orders(W.ships, submitted((order, Author.COMMANDER)))[order.ship_id].part(part).reason


def test_rule_4_6_a_raid_order_forces_pursue_and_the_desk_says_so() -> None:
    """4.6: contact "may be limited by its intended commerce orders"; the
    recovered page: "A raiding order forces pursue as the contact order; a
    convoying (protect commerce) order forces accept." The desk refuses a
    raid without pursue, and tells a raider that it will pursue."""
    raid = ShipOrder("BR1FR", contact=Contact(ContactMode.PURSUE), commerce=Commerce.RAID)
    assert check(raid, W) == []
    assert "pursues the enemies it meets" in _why(raid, "contact")
    assert "forces contact pursue" in _why(raid, "commerce")
    wrong = ShipOrder("BR1FR", contact=Contact(ContactMode.ACCEPT), commerce=Commerce.RAID)
    assert refusal(check(wrong, W), "contact.mode").rule == "4.6"


def test_rule_4_6_a_convoy_order_forces_accept_and_the_desk_says_so() -> None:
    """The recovered page: a convoying order "forces accept": pursue and evade
    are refused with it, and the explanation says the ship accepts contact."""
    convoy = ShipOrder("BR1FR", commerce=Commerce.CONVOY)
    assert check(convoy, W) == []
    assert "accepts contact and neither pursues nor evades" in _why(convoy, "contact")
    for mode in (ContactMode.PURSUE, ContactMode.EVADE):
        wrong = ShipOrder("BR1FR", contact=Contact(mode, join_allies=False), commerce=Commerce.CONVOY)
        assert refusal(check(wrong, W), "contact.mode").rule == "4.6"
    assert "commerce" not in _why(ShipOrder("BR1FR"), "contact")


def test_rule_2_5_harbor_and_coastal_waters_are_different_places_for_combining() -> None:
    """2.5: groups "can be combined if they finish a turn in contact"; the
    recovered page: "same tactical location (harbor and coastal waters are
    different locations)". Two groups in Gibraltar harbor combine; a group in
    its coastal waters is refused, and the explanation of a combine says where
    both must be at the turn's end."""
    together = ShipOrder("BR1TR", admin=(AdminOrder(AdminKind.COMBINE, target="BR2TR"),))
    assert check(together, W) == []
    why = _why(together, "admin")
    assert "both in the harbor or both in the coastal waters" in why and "BR2TR" in why
    apart = ShipOrder("BR1TR", admin=(AdminOrder(AdminKind.COMBINE, target="BR3TR"),))
    assert refusal(check(apart, W), "admin[0].target").rule == "2.5"
