"""Validation details: paths, codes, hints, and what is refused early."""

from __future__ import annotations

from pate.core.orders.effective import Author
from pate.core.orders.model import (
    AdminKind,
    AdminOrder,
    Amphibious,
    Contact,
    ContactMode,
    Movement,
    ShipOrder,
)
from pate.core.orders.refusal import Actor, authority
from pate.core.rules.validation.orders import validate_order
from pate.core.world.state import Role
from tests.support.orders_world import (
    ADMIN,
    MAP,
    RULES,
    check,
    commander,
    deputy,
    harbor,
    minister,
    refusal,
    sea,
    ship,
    world,
)

W = world(
    [
        ship("BR1FL", sea("SOC")),
        ship("BR1TR", harbor("Gibraltar")),
        ship("FR3FL", sea("SOC")),
    ]
)


def test_an_accepted_order_has_no_refusals() -> None:
    assert check(ShipOrder("BR1FL"), W) == []


def test_misspelt_names_get_a_hint() -> None:
    r = refusal(check(ShipOrder("BR1FL", movement=Movement(("noc",))), W), "movement.sea_areas[0]")
    assert (r.rule, r.code) == ("1.4", "invalid_argument") and "did you mean NOC?" in r.message
    r = refusal(check(ShipOrder("BR1FL", movement=Movement(port="Martinque")), W), "movement.port")
    assert "did you mean Martinique?" in r.message


def test_unknown_names_stop_the_route_check() -> None:
    refusals = check(ShipOrder("BR1FL", movement=Movement(("XXX", "BAH"))), W)
    assert [r.field for r in refusals] == ["movement.sea_areas[0]"]


def test_harbor_needs_a_port() -> None:
    r = refusal(check(ShipOrder("BR1FL", movement=Movement(("NOC",), harbor=True)), W), "movement.harbor")
    assert r.rule == "6.1"


def test_any_enemy_port_from_a_port_needs_a_sea_area_first() -> None:
    order = ShipOrder("BR1TR", movement=Movement(any_enemy_port=True))
    assert refusal(check(order, W), "movement.any_enemy_port").rule == "6.5"
    ok = ShipOrder("BR1TR", movement=Movement(("WMD",), any_enemy_port=True))
    assert check(ok, W) == []


def test_contact_numbers_only_with_pursue_or_evade_and_bounded() -> None:
    r = refusal(check(ShipOrder("BR1FL", contact=Contact(minimum=2)), W), "contact.minimum")
    assert r.rule == "4.6"
    big = ShipOrder("BR1FL", contact=Contact(ContactMode.PURSUE, maximum=1000))
    assert refusal(check(big, W), "contact.maximum").code == "invalid_argument"
    no_ports = ShipOrder("BR1FL", contact=Contact(pursue_into_ports=False))
    assert refusal(check(no_ports, W), "contact.pursue_into_ports").rule == "6.10"


def test_amphibious_details_are_checked_by_path() -> None:
    a = Amphibious(
        load_units=("BR1IN", "BR1IN", "bad id!"), unload_units=("BR2IN",), load_supplies=1, unload_supplies=1
    )
    refusals = check(ShipOrder("BR1TR", amphibious=a), W)
    assert [r.field for r in refusals] == [
        "amphibious.load_units[1]",
        "amphibious.load_units[2]",
        "amphibious.unload_supplies",
    ]
    r = refusal(
        check(ShipOrder("BR1TR", amphibious=Amphibious(unload_units=("BR2IN",))), W),
        "amphibious.unload_units[0]",
    )
    assert r.code == "failed_precondition"


def test_admin_order_shapes() -> None:
    def one(*admin: AdminOrder) -> list[str]:
        return [f"{r.field}:{r.code}" for r in check(ShipOrder("BR1TR", admin=admin), W)]

    assert one(AdminOrder(AdminKind.SCUTTLE, "BR2TR")) == ["admin[0].target:invalid_argument"]
    assert one(AdminOrder(AdminKind.DIVIDE)) == ["admin[0].amount:invalid_argument"]
    assert one(AdminOrder(AdminKind.COMBINE)) == ["admin[0].target:invalid_argument"]
    assert one(AdminOrder(AdminKind.COMBINE, "BR9TR")) == ["admin[0].target:not_found"]
    assert one(AdminOrder(AdminKind.COMBINE, "BR1TR")) == ["admin[0].target:invalid_argument"]
    assert one(AdminOrder(AdminKind.SCUTTLE), AdminOrder(AdminKind.SCUTTLE)) == [
        "admin[1].kind:invalid_argument"
    ]
    assert one(AdminOrder(AdminKind.DIVIDE, None, 2000), AdminOrder(AdminKind.SCUTTLE)) == [
        "admin[1].kind:invalid_argument"
    ]


def test_scuttling_or_inactivating_ship_cannot_move() -> None:
    order = ShipOrder("BR1TR", movement=Movement(("WMD",)), admin=(AdminOrder(AdminKind.SCUTTLE),))
    assert refusal(check(order, W), "movement").rule == "4.10"


def test_attaching_to_an_enemy_is_refused() -> None:
    r = refusal(check(ShipOrder("BR1FL", attach_to="FR3FL"), W), "attach_to")
    assert (r.rule, r.code) == ("4.4", "failed_precondition")


def test_authority_order_commander_minister_admin_deputy() -> None:
    s = W.ships["BR1FL"]
    assert authority(commander("BR"), s) is Author.COMMANDER
    assert authority(deputy("BR"), s) is Author.DEPUTY
    assert authority(minister("BR"), s) is Author.MINISTER
    assert authority(ADMIN, s) is Author.ADMIN
    assert authority(minister("FR"), s) is None
    both = Actor("br_dep", "BR", frozenset({Role.NAVAL_MINISTER}))
    assert authority(both, s) is Author.MINISTER


def test_refusals_print_field_message_and_rule() -> None:
    (r,) = validate_order(ShipOrder("BR1FL", stores=99), commander("BR"), W, MAP, RULES)
    assert str(r) == "stores: BR1FL can carry 0 to 24 stores (rule 3.4)"


def test_naming_the_sea_area_the_ship_is_in_is_no_move() -> None:
    """As the movement phase reads it: ``move SOC port Martinique`` from SOC
    enters Martinique; ``move NOC NOC`` sails once."""
    assert check(ShipOrder("BR1FL", movement=Movement(("SOC",), port="Martinique")), W) == []
    assert check(ShipOrder("BR1FL", movement=Movement(("NOC", "NOC"))), W) == []
