"""Rule cases for the administrative orders: dividing and combining transport
groups (2.5), inactivating and reactivating (2.6), transferring crew (2.7),
scuttling (4.10, recovered)."""

from __future__ import annotations

from pate.core.orders.model import AdminKind, AdminOrder, Movement, ShipOrder
from tests.support.orders_world import (
    ADMIN,
    check,
    coastal,
    commander,
    harbor,
    minister,
    refusal,
    sea,
    ship,
    world,
)


def _admin(sid: str, kind: AdminKind, target: str | None = None, amount: int = 0) -> ShipOrder:
    return ShipOrder(sid, admin=(AdminOrder(kind, target, amount),))


# 2.5


def test_rule_2_5_combine_groups_of_one_state_in_contact() -> None:
    """2.5: "Transport groups controlled by the same state can be combined if
    they finish a turn in contact with one another" (recovered: "same
    tactical location")."""
    w = world(
        [ship("BR1TR", harbor("Gibraltar")), ship("BR2TR", harbor("Gibraltar")), ship("SP1TR", sea("SOA"))]
    )
    assert check(_admin("BR1TR", AdminKind.COMBINE, "BR2TR"), w) == []
    w2 = world([ship("BR1TR", harbor("Gibraltar")), ship("BR2TR", coastal("Gibraltar"))])
    r = refusal(check(_admin("BR1TR", AdminKind.COMBINE, "BR2TR"), w2), "admin[0].target")
    assert (r.rule, r.code) == ("2.5", "failed_precondition")


def test_rule_2_5_allies_cannot_combine() -> None:
    """2.5: "controlled by the same state" (recovered: "allies cannot combine"); the state
    decides before where the groups lie, so an ally's group elsewhere is refused for being
    an ally's, not for lying apart (a play-test read "must be both in harbor" for it)."""
    w = world([ship("FR1TR", sea("SOA")), ship("SP1TR", sea("SOA"))])
    r = refusal(check(_admin("FR1TR", AdminKind.COMBINE, "SP1TR"), w), "admin[0].target")
    assert (r.rule, r.code) == ("2.5", "failed_precondition")
    apart = world([ship("FR1TR", harbor("Gibraltar")), ship("SP1TR", coastal("Gibraltar"))])
    r = refusal(check(_admin("FR1TR", AdminKind.COMBINE, "SP1TR"), apart), "admin[0].target")
    assert "allies cannot combine" in r.message


def test_rule_2_5_groups_in_two_ports_are_told_they_must_share_one() -> None:
    """2.5 (recovered: "same tactical location") with 1.2: both groups in a harbor, but of two
    ports: the refusal says one port, not "both in harbor", which they are."""
    w = world([ship("BR1TR", harbor("Gibraltar")), ship("BR2TR", harbor("Cadiz"))])
    r = refusal(check(_admin("BR1TR", AdminKind.COMBINE, "BR2TR"), w), "admin[0].target")
    assert (
        r.message == "BR2TR and BR1TR must be in one port, both in the harbor or both in the coastal waters"
    )


def test_rule_2_5_combined_capacity_at_most_20000() -> None:
    """2.5: "Transport groups so combined or divided may not have capacities
    greater than 20,000 or less than 2,000." """
    w = world([ship("BR1TR", sea("SOA"), capacity=15000), ship("BR2TR", sea("SOA"), capacity=6000)])
    assert refusal(check(_admin("BR1TR", AdminKind.COMBINE, "BR2TR"), w), "admin[0].target").rule == "2.5"


def test_rule_2_5_divide_into_groups_of_2000_to_20000() -> None:
    """2.5: "they can also be divided into two smaller groups" within 2,000 to
    20,000 capacity each."""
    w = world([ship("BR1TR", sea("SOA"), capacity=5000)])
    assert check(_admin("BR1TR", AdminKind.DIVIDE, amount=2000), w) == []
    assert check(_admin("BR1TR", AdminKind.DIVIDE, amount=3000), w) == []
    for amount in (1999, 3001):
        r = refusal(check(_admin("BR1TR", AdminKind.DIVIDE, amount=amount), w), "admin[0].amount")
        assert (r.rule, r.code) == ("2.5", "failed_precondition")


def test_rule_2_5_only_transport_groups_divide_or_combine() -> None:
    """2.5: dividing and combining are for transport groups."""
    w = world([ship("BR1SL", sea("SOA"))])
    assert refusal(check(_admin("BR1SL", AdminKind.DIVIDE, amount=2000), w), "admin[0].kind").rule == "2.5"


# 2.6


def test_rule_2_6_inactivate_in_a_home_port_under_home_control() -> None:
    """2.6: "Ships can only be inactivated in ports of their home nation, under
    control of their home state" """
    w = world([ship("BR1SL", harbor("Portsmouth")), ship("BR2SL", harbor("Gibraltar"))])
    assert check(_admin("BR1SL", AdminKind.INACTIVATE), w, minister("BR")) == []
    lost = world([ship("BR1SL", harbor("Portsmouth"))], controllers={"Portsmouth": "FR"})
    r = refusal(check(_admin("BR1SL", AdminKind.INACTIVATE), lost, minister("BR")), "admin[0].kind")
    assert (r.rule, r.code) == ("2.6", "failed_precondition")
    w2 = world([ship("FR1SL", harbor("Lisbon"))])
    assert (
        refusal(check(_admin("FR1SL", AdminKind.INACTIVATE), w2, minister("FR")), "admin[0].kind").rule
        == "2.6"
    )


def test_rule_2_6_not_in_off_map_ports() -> None:
    """2.6: "not in off-map ports." Martinique is an off-GITM-map French port (1.5)."""
    w = world([ship("FR1SL", harbor("Martinique"))])
    r = refusal(check(_admin("FR1SL", AdminKind.INACTIVATE), w, minister("FR")), "admin[0].kind")
    assert r.rule == "2.6" and "off-map" in r.message


def test_rule_2_6_not_in_the_presence_of_hostile_ships() -> None:
    """2.6: "They cannot inactivate in the presence of hostile ships." """
    w = world([ship("FR1SL", harbor("Brest")), ship("BR1SL", coastal("Brest"))])
    r = refusal(check(_admin("FR1SL", AdminKind.INACTIVATE), w, minister("FR")), "admin[0].kind")
    assert (r.rule, r.code) == ("2.6", "failed_precondition")


def test_rule_2_6_transport_groups_cannot_be_inactivated() -> None:
    """2.6: "Transport groups cannot be inactivated." """
    w = world([ship("BR1TR", harbor("Portsmouth"))])
    r = refusal(check(_admin("BR1TR", AdminKind.INACTIVATE), w, minister("BR")), "admin[0].kind")
    assert (r.rule, r.code) == ("2.6", "invalid_argument")


def test_rule_2_6_inactivating_is_for_the_naval_minister() -> None:
    """2.6 (decision): laying a ship up, like assigning its commanders (2.3), is
    the naval minister's (or an administrator's) order, not the commander's."""
    w = world([ship("BR1SL", harbor("Portsmouth"))])
    r = refusal(check(_admin("BR1SL", AdminKind.INACTIVATE), w, commander("BR")), "admin[0].kind")
    assert (r.rule, r.code) == ("2.6", "permission_denied")
    assert check(_admin("BR1SL", AdminKind.INACTIVATE), w, ADMIN) == []


def test_rule_2_6_inactive_ships_take_only_a_reactivate_order() -> None:
    """2.6: "When inactive, ships do not appear on the map"; "Reactivating an
    inactive ship takes four campaign turns." (Decision: the only order an
    inactive ship takes is reactivate.)"""
    w = world([ship("BR1SL", harbor("Portsmouth"), active=False)])
    assert check(_admin("BR1SL", AdminKind.REACTIVATE), w, minister("BR")) == []
    r = refusal(check(ShipOrder("BR1SL", movement=Movement(("ECH",))), w, minister("BR")), "movement")
    assert (r.rule, r.code) == ("2.6", "failed_precondition")
    assert refusal(check(ShipOrder("BR1SL"), w, minister("BR")), "admin").rule == "2.6"
    busy = world([ship("BR1SL", harbor("Portsmouth"), active=False, reactivates_turn=5)])
    assert (
        refusal(check(_admin("BR1SL", AdminKind.REACTIVATE), busy, minister("BR")), "admin[0].kind").rule
        == "2.6"
    )


# 2.7


def test_rule_2_7_transfer_crew_in_the_same_location() -> None:
    """2.7: "Crew can be transferred between FLs,SLs, and FRs. To do so the
    ships must be in the same location ... if in a port, they must both be in
    harbor, or both in the coastal waters." """
    w = world([ship("BR1FL", harbor("Gibraltar")), ship("BR2SL", harbor("Gibraltar"), crew=400)])
    assert check(_admin("BR1FL", AdminKind.TRANSFER_CREW, "BR2SL", 100), w) == []
    w2 = world([ship("BR1FL", harbor("Gibraltar")), ship("BR2SL", coastal("Gibraltar"), crew=400)])
    r = refusal(check(_admin("BR1FL", AdminKind.TRANSFER_CREW, "BR2SL", 100), w2), "admin[0].target")
    assert (r.rule, r.code) == ("2.7", "failed_precondition")


def test_rule_2_7_at_sea_the_ships_must_see_one_another() -> None:
    """2.7: "If in a sea area they must be able to see one another" (in
    contact: the same tactical area)."""
    w = world([ship("BR1FL", sea("SOA", 1)), ship("BR2SL", sea("SOA", 2), crew=400)])
    assert (
        refusal(check(_admin("BR1FL", AdminKind.TRANSFER_CREW, "BR2SL", 100), w), "admin[0].target").rule
        == "2.7"
    )


def test_rule_2_7_no_enemy_ships_present() -> None:
    """2.7: "There must be no enemy ships present in that location." """
    w = world([ship("BR1FL", sea("SOA")), ship("BR2SL", sea("SOA"), crew=400), ship("FR1SL", sea("SOA"))])
    r = refusal(check(_admin("BR1FL", AdminKind.TRANSFER_CREW, "BR2SL", 100), w), "admin[0].kind")
    assert (r.rule, r.code) == ("2.7", "failed_precondition")


def test_rule_2_7_not_from_frigates_or_transport_groups() -> None:
    """2.7: "Crew cannot be transferred from frigates or transport groups." """
    w = world([ship("BR4FR", sea("SOA")), ship("BR1TR", sea("SOA")), ship("BR2SL", sea("SOA"), crew=400)])
    for sid in ("BR4FR", "BR1TR"):
        r = refusal(check(_admin(sid, AdminKind.TRANSFER_CREW, "BR2SL", 10), w), "admin[0].kind")
        assert (r.rule, r.code) == ("2.7", "invalid_argument")


def test_rule_2_7_leave_at_least_70_crew_unless_scuttled() -> None:
    """2.7: "Ships may not be left with less than 70 crew (40 for frigates) as
    a result of a transfer, unless the ship is immediately scuttled." """
    w = world(
        [ship("BR1SL", sea("SOA"), crew=170), ship("BR2SL", sea("SOA"), crew=100), ship("BR3SL", sea("SOA"))]
    )
    assert check(_admin("BR1SL", AdminKind.TRANSFER_CREW, "BR2SL", 100), w) == []
    r = refusal(check(_admin("BR1SL", AdminKind.TRANSFER_CREW, "BR2SL", 101), w), "admin[0].amount")
    assert (r.rule, r.code) == ("2.7", "failed_precondition")
    both = ShipOrder(
        "BR1SL", admin=(AdminOrder(AdminKind.TRANSFER_CREW, "BR2SL", 170), AdminOrder(AdminKind.SCUTTLE))
    )
    assert check(both, w) == []


def test_rule_2_7_crew_limits_of_the_receiving_ship() -> None:
    """2.7: "FLs are limited to 800 crew and 200 Marines, SLs to 600 crew and
    150 Marines, and FRs to 225 crew and 25 Marines." """
    w = world([ship("BR1FL", sea("SOA"), crew=800), ship("BR2SL", sea("SOA"), crew=550)])
    assert check(_admin("BR1FL", AdminKind.TRANSFER_CREW, "BR2SL", 50), w) == []
    r = refusal(check(_admin("BR1FL", AdminKind.TRANSFER_CREW, "BR2SL", 51), w), "admin[0].amount")
    assert (r.rule, r.code) == ("2.7", "failed_precondition")


def test_rule_2_7_a_transfer_breaking_both_limits_is_told_both() -> None:
    """2.7: 70 crew at least are left, and the receiver holds no more than its class's crew.
    A transfer that breaks both is refused for both, so its author mends it in one go (a
    play-test read only the first)."""
    w = world([ship("BR1SL", sea("SOA"), crew=160), ship("BR2SL", sea("SOA"), crew=500)])
    said = [r.message for r in check(_admin("BR1SL", AdminKind.TRANSFER_CREW, "BR2SL", 150), w)]
    assert said == [
        "BR1SL would keep 10 crew, below 70, and is not scuttled",
        "BR2SL would have 650 crew, above its limit of 600",
    ]


# 4.10 (recovered)


def test_rule_4_10_scuttle_when_not_alongside_enemy_ships() -> None:
    """4.10 (recovered): "Ships and transport groups may be removed (scuttled)
    when not in the same tactical location as enemy ships." """
    w = world([ship("BR1SL", harbor("Gibraltar")), ship("FR1SL", coastal("Gibraltar"))])
    assert check(_admin("BR1SL", AdminKind.SCUTTLE), w) == []
    w2 = world([ship("BR1SL", coastal("Gibraltar")), ship("FR1SL", coastal("Gibraltar"))])
    r = refusal(check(_admin("BR1SL", AdminKind.SCUTTLE), w2), "admin[0].kind")
    assert (r.rule, r.code) == ("4.10", "failed_precondition")


def test_rule_4_10_a_friendly_ship_must_stay_in_the_sea_area() -> None:
    """4.10 (recovered): "A ship may not be removed in a sea area unless at
    least one friendly ship that is not being removed stays; transport groups
    may be." """
    alone = world([ship("BR1SL", sea("SOA")), ship("BR1TR", sea("SOA"))])
    assert refusal(check(_admin("BR1SL", AdminKind.SCUTTLE), alone), "admin[0].kind").rule == "4.10"
    assert check(_admin("BR1TR", AdminKind.SCUTTLE), alone) == []
    with_friend = world([ship("BR1SL", sea("SOA", 1)), ship("BR2SL", sea("SOA", 2))])
    assert check(_admin("BR1SL", AdminKind.SCUTTLE), with_friend) == []
