"""Rule cases for the administrative orders as the resolver carries them out:
rules 2.5 (dividing and combining transport groups), 2.6 (inactive ships),
2.7 (crew transfers) and 4.10 (removal and scuttling, recovered)."""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Phase
from pate.core.orders.model import AdminKind, AdminOrder, ShipOrder
from pate.core.world.ships import Cargo, InPort
from pate.core.world.state import TurnKind
from tests.cases.turn.turn_world import admin, events, harbor, infantry, move, only, run, sea, ship, world

T, S, INACT, R = AdminKind.TRANSFER_CREW, AdminKind.SCUTTLE, AdminKind.INACTIVATE, AdminKind.REACTIVATE
DIV, COMB = AdminKind.DIVIDE, AdminKind.COMBINE


def _reasons(result: object) -> list[str]:
    return [r["message"] for e in events(result, "admin_refused") for r in e.data["reasons"]]  # type: ignore[arg-type]


# --- 2.5 ---------------------------------------------------------------------


def test_rule_2_5_divide_the_new_group_takes_the_next_number_above_the_highest() -> None:
    """2.5: transport groups "can also be divided into two smaller groups"; recovered: "the new
    group takes the next number above the highest in use for that state (e.g. with MX2, MX6,
    MX7, MX9 in use the new one is MX10TR) and keeps the commander and deputy"."""
    groups = [ship(f"FR{n}TR", harbor("Brest"), capacity=6000, crew=600) for n in (2, 6, 7, 9)]
    r = run(world(groups), admin("FR6TR", DIV, amount=2000))
    new, old = r.state.ships["FR10TR"], r.state.ships["FR6TR"]
    assert (new.capacity, old.capacity) == (2000, 4000)
    assert (new.crew, old.crew) == (200, 400)
    assert (new.commander, new.deputy) == (old.commander, old.deputy)
    assert new.location == old.location
    assert only(r, "group_divided", Phase.FINAL_AMPHIBIOUS).data["new"] == "FR10TR"


def test_rule_2_5_divide_moves_units_across_when_the_old_group_lacks_room_else_fails() -> None:
    """Recovered: "units, supplies and stores may be moved across if both have room, else the
    order fails"."""
    cargo = Cargo(("FR1IN", "FR2IN"), 0, 5000)
    units = [infantry("FR1IN", 2500), infantry("FR2IN", 2500)]
    w = world([ship("FR1TR", harbor("Brest"), capacity=6000, crew=600, cargo=cargo)], units=units)
    r = run(w, admin("FR1TR", DIV, amount=3000))
    assert r.state.ships["FR1TR"].cargo.units == ("FR1IN",)
    assert r.state.ships["FR2TR"].cargo == Cargo(("FR2IN",), 0, 2500)
    # the event says what changed transport group, for the GITM bridge
    moved = only(r, "group_divided", Phase.FINAL_AMPHIBIOUS).data["cargo_moves"]
    assert moved == {"from": "FR1TR", "to": "FR2TR", "units": ["FR2IN"], "supplies": 0}
    big = [infantry("FR1IN", 3500), infantry("FR2IN", 1500)]
    r = run(
        world([ship("FR1TR", harbor("Brest"), capacity=6000, crew=600, cargo=cargo)], units=big),
        admin("FR1TR", DIV, amount=3000),
    )
    assert "FR2TR" not in r.state.ships
    assert _reasons(r) == ["the units, supplies and stores aboard do not fit in the two groups"]


def test_rule_2_5_groups_of_one_state_that_finish_the_turn_in_contact_are_combined() -> None:
    """2.5: "Transport groups controlled by the same state can be combined if they finish a turn
    in contact with one another"; the group with the lower number goes on."""
    a = ship("FR1TR", harbor("Brest"), capacity=5000, crew=500, stores=20, cargo=Cargo(("FR1IN",), 2, 1040))
    b = ship("FR4TR", harbor("Brest"), capacity=3000, crew=300, stores=12, cargo=Cargo((), 5, 100))
    r = run(world([a, b]), admin("FR4TR", COMB, target="FR1TR"))
    merged = r.state.ships["FR1TR"]
    assert "FR4TR" not in r.state.ships
    assert (merged.capacity, merged.crew) == (8000, 800)
    assert merged.cargo == Cargo(("FR1IN",), 7, 1140)
    moved = only(r, "groups_combined", Phase.FINAL_AMPHIBIOUS).data["cargo_moves"]
    assert moved == {"from": "FR4TR", "to": "FR1TR", "units": [], "supplies": 5}
    assert merged.stores == (20 * 5000 + 12 * 3000) // 8000  # fed by Brest; weighted by capacity


def test_rule_2_5_groups_not_in_contact_at_the_end_of_the_turn_are_not_combined() -> None:
    """2.5: "if they finish a turn in contact": FR4TR sails out, so nothing is combined."""
    a, b = ship("FR1TR", harbor("Brest")), ship("FR4TR", harbor("Brest"))
    r = run(
        world([a, b]),
        ShipOrder("FR4TR", movement=move("FR4TR", "ECH").movement, admin=(AdminOrder(COMB, "FR1TR"),)),
    )
    assert {"FR1TR", "FR4TR"} <= set(r.state.ships)
    assert len(_reasons(r)) == 1


def test_rule_2_5_no_combined_group_above_20000_capacity() -> None:
    """2.5: "Transport groups so combined or divided may not have capacities greater than 20,000
    or less than 2,000." """
    a = ship("FR1TR", harbor("Brest"), capacity=15000, crew=1500)
    b = ship("FR2TR", harbor("Brest"), capacity=6000, crew=600)
    r = run(world([a, b]), admin("FR1TR", COMB, target="FR2TR"))
    assert r.state.ships["FR1TR"].capacity == 15000
    assert "20000" in _reasons(r)[0]


def test_rule_2_5_allies_cannot_combine() -> None:
    """Recovered: "same state only (allies cannot combine)"."""
    r = run(
        world([ship("FR1TR", harbor("Brest")), ship("SP1TR", harbor("Brest"))]),
        admin("FR1TR", COMB, target="SP1TR"),
    )
    assert {"FR1TR", "SP1TR"} <= set(r.state.ships)
    assert "allies cannot combine" in _reasons(r)[0]


# --- 2.6 ---------------------------------------------------------------------


def test_rule_2_6_an_inactivated_ship_is_off_the_map_and_uses_no_stores() -> None:
    """2.6: "When inactive, ships do not appear on the map, do not use stores or supplies"; the
    ship is laid up in the harbor (decision) at the start of the turn."""
    w = world([ship("FR1SL", harbor("Brest"), stores=12)], ports={"Brest": {"stores": 0}})
    r = run(w, admin("FR1SL", INACT))
    s = r.state.ships["FR1SL"]
    assert (s.active, s.stores, s.location) == (False, 12, InPort("Brest", True))
    assert only(r, "inactivated", Phase.REPAIR)


def test_rule_2_6_no_inactivation_with_hostile_ships_present_nor_for_transports() -> None:
    """2.6: "They cannot inactivate in the presence of hostile ships." "Transport groups cannot
    be inactivated." """
    w = world(
        [ship("FR1SL", harbor("Brest")), ship("FR1TR", harbor("Cherbourg")), ship("BR1FR", harbor("Brest"))]
    )
    r = run(w, admin("FR1SL", INACT), admin("FR1TR", INACT))
    assert r.state.ships["FR1SL"].active and r.state.ships["FR1TR"].active
    assert sorted(_reasons(r)) == [
        "ships cannot inactivate with hostile ships present",
        "transport groups cannot be inactivated",
    ]


def test_rule_2_6_reactivation_takes_four_campaign_turns() -> None:
    """2.6: "Reactivating an inactive ship takes four campaign turns." Ordered on turn 3, the
    ship is on the map from the start of turn 7; a peace turn on the way does not count."""
    for kinds, ready in ((("campaign",) * 15, 7), (("campaign",) * 4 + ("peace",) + ("campaign",) * 10, 8)):
        w = world(
            [ship("FR1SL", harbor("Brest"), active=False)],
            turn=3,
            turn_kinds=tuple(TurnKind(k) for k in kinds),
        )
        r = run(w, admin("FR1SL", R))
        assert only(r, "reactivation_begun").data["ready_turn"] == ready
        w = r.state
        while w.turn < ready:
            assert not w.ships["FR1SL"].active
            w = run(w).state
        assert w.ships["FR1SL"].active and w.ships["FR1SL"].reactivates_turn is None


# --- 2.7 ---------------------------------------------------------------------


def test_rule_2_7_crew_moves_between_ships_in_the_same_location() -> None:
    """2.7: "Crew can be transferred between FLs,SLs, and FRs. To do so the ships must be in the
    same location." """
    w = world([ship("FR1SL", harbor("Brest"), crew=600), ship("FR2SL", harbor("Brest"), crew=400)])
    r = run(w, admin("FR1SL", T, target="FR2SL", amount=150))
    assert (r.state.ships["FR1SL"].crew, r.state.ships["FR2SL"].crew) == (450, 550)


def test_rule_2_7_limits_are_rechecked_for_several_transfers_to_one_ship() -> None:
    """2.7: "SLs [are limited] to 600 crew": two transfers of 100 to a ship of 450, each valid at
    the desk, are carried out in ship id order; the second would pass the limit."""
    ships = [
        ship("FR1SL", harbor("Brest")),
        ship("FR2SL", harbor("Brest")),
        ship("FR3SL", harbor("Brest"), crew=450),
    ]
    r = run(
        world(ships),
        admin("FR1SL", T, target="FR3SL", amount=100),
        admin("FR2SL", T, target="FR3SL", amount=100),
    )
    assert r.state.ships["FR3SL"].crew == 550
    assert "above its limit of 600" in _reasons(r)[0]


def test_rule_2_7_no_ship_left_below_70_crew_unless_it_is_scuttled() -> None:
    """2.7: "Ships may not be left with less than 70 crew (40 for frigates) as a result of a
    transfer, unless the ship is immediately scuttled." """
    w = world([ship("FR1SL", harbor("Brest"), crew=300), ship("FR2SL", harbor("Brest"), crew=300)])
    r = run(w, admin("FR1SL", T, target="FR2SL", amount=250))
    assert r.state.ships["FR1SL"].crew == 300
    both = ShipOrder("FR1SL", admin=(AdminOrder(T, "FR2SL", 250), AdminOrder(S)))
    r = run(w, both)
    assert "FR1SL" not in r.state.ships and r.state.ships["FR2SL"].crew == 550


# --- 4.10 (recovered) ---------------------------------------------------------


def test_rule_4_10_a_ship_in_a_sea_area_is_scuttled_only_if_a_friend_stays() -> None:
    """Recovered 4.10: "A ship may not be removed in a sea area unless at least one friendly ship
    that is not being removed stays; transport groups may be." Of two ships both ordered to be
    scuttled, the first (by id) goes and the second must stay."""
    w = world([ship("FR1SL", sea("BIS")), ship("FR2SL", sea("BIS", 2)), ship("FR1TR", sea("ECH"))])
    r = run(w, admin("FR1SL", S), admin("FR2SL", S), admin("FR1TR", S))
    assert "FR1SL" not in r.state.ships and "FR1TR" not in r.state.ships
    assert "FR2SL" in r.state.ships
    assert len(_reasons(r)) == 1


def test_rule_4_10_units_and_supplies_aboard_a_scuttled_group_are_lost() -> None:
    """Recovered 4.10: "Crews return to the manpower pool at the end of the season after the
    removal; units and supplies aboard a removed transport group are lost." """
    tr = ship("FR1TR", harbor("Brest"), crew=500, cargo=Cargo(("FR1IN",), 3, 1060))
    w = world([tr], units=[infantry("FR1IN", 1000)])
    r = run(w, admin("FR1TR", S))
    assert "FR1TR" not in r.state.ships and "FR1IN" not in r.state.land_units
    assert only(r, "scuttled").data == {"crew": 500, "marines": 0, "units": ["FR1IN"], "supplies": 3}


def test_rule_4_10_no_scuttling_alongside_enemy_ships() -> None:
    """Recovered 4.10: "Ships and transport groups may be removed (scuttled) when not in the same
    tactical location as enemy ships." """
    w = world([ship("FR1SL", harbor("Brest")), ship("BR1FR", harbor("Brest"))])
    r = run(w, admin("FR1SL", S))
    assert not events(r, "scuttled")
    assert _reasons(r) == ["ships cannot be scuttled alongside enemy ships"]


def test_admin_refusals_leave_the_rest_of_the_order_alone() -> None:
    """The resolver drops only the administrative order that no longer holds."""
    w = world([ship("FR1SL", harbor("Brest"), crew=600), ship("FR2SL", harbor("Brest"), crew=600)])
    r = run(w, replace(admin("FR1SL", T, target="FR2SL", amount=10), stores=24))
    assert r.state.ships["FR1SL"].crew == 600
    assert len(_reasons(r)) == 1
